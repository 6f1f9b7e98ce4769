//! Running one command: settings, the client (or the sandbox), then the command.

use clap::CommandFactory;

use crate::cli::{Cli, Command};
use crate::commands::{self, Context};
use crate::failure::Failure;
use crate::output::Printer;
use crate::progress::WaitSettings;
use crate::{config, sandbox};

pub(crate) async fn run(cli: Cli) -> Result<(), Failure> {
    let Cli { global, command } = cli;
    if let Command::Completions { shell } = command {
        let mut command = Cli::command();
        clap_complete::generate(shell, &mut command, "hostapi", &mut std::io::stdout());
        return Ok(());
    }
    let printer = Printer::new(global.output, global.show_secrets);
    let (_sandbox, client) = if global.sandbox {
        let (sim, client) = sandbox::start(global.sandbox_time_scale).await?;
        (Some(sim), client)
    } else {
        let settings = config::resolve(&global)?;
        let mut builder = hostapi::Client::builder();
        if let Some(url) = settings.base_url {
            builder = builder.base_url(url);
        }
        if let Some(key) = settings.api_key {
            builder = builder.api_key(key);
        }
        if let Some(url) = settings.cdn_base_url {
            builder = builder.cdn_base_url(url);
        }
        if let Some(secret) = settings.cdn_secret {
            builder = builder.cdn_secret(secret);
        }
        if let Some(customer) = settings.cdn_customer {
            builder = builder.cdn_customer(customer);
        }
        (None, builder.build()?)
    };
    let context = Context {
        client,
        printer,
        yes: global.yes,
        wait: WaitSettings::default(),
    };
    commands::run(&context, command).await
}
