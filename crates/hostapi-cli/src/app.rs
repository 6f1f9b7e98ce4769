//! Running one command: settings, the client (or the sandbox), then the command.

use crate::cli::{Cli, Command, GlobalArgs, OutputFormat};
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
    config::warn_if_readable_by_others(&global);
    let mut command = command;
    if let Command::Api(args) = &mut command {
        args.shaped = global.output.is_some()
            || global.query.is_some()
            || !global.columns.is_empty()
            || !global.filter.is_empty()
            || global.sort.is_some()
            || global.limit.is_some();
        args.show_secrets = global.show_secrets;
    }
    let command = match command {
        Command::Completions { shell } => {
            // Into a buffer first, so that a closed pipe (`| head`) ends the command
            // quietly.
            return crate::output::emit_bytes(&crate::completion::registration(shell));
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
        (
            None,
            client_from_settings(&global)?,
            WaitSettings::service(),
        )
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

/// The client the settings describe (flags, environment, config file; not the
/// sandbox).
pub(crate) fn client_from_settings(global: &GlobalArgs) -> Result<hostapi::Client, Failure> {
    Ok(config::resolve(global)?.builder().build()?)
}
