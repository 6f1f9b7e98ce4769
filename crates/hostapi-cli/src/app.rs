//! Running one command: settings, the client (or the sandbox), then the command.

use clap::CommandFactory;

use crate::cli::{Cli, Command, OutputFormat};
use crate::commands::{self, Context};
use crate::failure::Failure;
use crate::output::Printer;
use crate::progress::WaitSettings;
use crate::{config, sandbox};

pub(crate) async fn run(cli: Cli) -> Result<(), Failure> {
    let Cli {
        mut global,
        command,
    } = cli;
    global.read_env()?;
    let command = match command {
        Command::Completions { shell } => {
            let mut command = Cli::command();
            // Into a buffer first: clap_complete panics when stdout closes under it
            // (`| head`); a closed pipe ends the command quietly instead.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "hostapi", &mut script);
            return crate::output::emit_bytes(&script);
        }
        Command::Config(command) => {
            let printer = Printer::new(global.output, global.show_secrets).shaped(global.shape());
            return commands::config::run(&global, &printer, command);
        }
        Command::Sandbox(command) => return commands::sandbox::run(&global, command).await,
        other => other,
    };
    let tour = matches!(command, Command::Tour);
    if tour && !global.sandbox {
        return Err(Failure::usage(
            "the tour changes DNS records, powers a server off and installs another: it runs only in the sandbox",
        )
        .hint("run `hostapi --sandbox tour`"));
    }
    let output = if tour {
        // The tour is for reading: a table even through a pipe, never JSON.
        if global.output.is_some_and(|o| o != OutputFormat::Table) {
            return Err(Failure::usage("the tour prints for people, not JSON")
                .hint("run the commands the tour shows with --output json"));
        }
        Some(OutputFormat::Table)
    } else {
        global.output
    };
    let printer = if tour {
        Printer::new(output, global.show_secrets)
    } else {
        Printer::new(output, global.show_secrets).shaped(global.shape())
    };
    let (_sandbox, client, wait) = if global.sandbox {
        let (sim, client) = sandbox::start(global.sandbox_time_scale, !tour).await?;
        (
            Some(sim),
            client,
            WaitSettings::sandbox(global.sandbox_time_scale),
        )
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
        (None, builder.build()?, WaitSettings::service())
    };
    let context = Context {
        client,
        printer,
        // The tour runs only in the sandbox, where nothing real is lost.
        yes: global.yes || (tour && global.sandbox),
        wait,
        sandbox: global.sandbox,
    };
    commands::run(&context, command).await
}
