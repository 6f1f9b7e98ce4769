//! `hostapi api METHOD PATH`: a raw request to a documented path of the three
//! interfaces, sent with the configured credentials through the SDK's transport
//! (`Client::raw_request`), its answer body printed.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use clap::Args;
use hostapi::{client::Interface, client::RawAnswer, client::RawRequest};

use super::Context;
use crate::failure::Failure;
use crate::untrusted;

/// The largest JSON body `--input` reads.
const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// `hostapi api`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct ApiArgs {
    /// GET, POST, PUT, PATCH or DELETE.
    #[arg(value_name = "METHOD")]
    pub(crate) method: String,
    /// A path of the v1 (/v1/…), cloud (/cloud/v2/…) or CDN API (/origins/…,
    /// /customers/…, /content/…; without /{timestamp}/{signature}, which is added and
    /// signed).
    #[arg(value_name = "PATH")]
    pub(crate) path: String,
    /// A field: a query parameter of a GET, a form field of any other method
    /// (repeatable).
    #[arg(long = "field", short = 'f', value_name = "KEY=VALUE", value_parser = parse_field)]
    pub(crate) fields: Vec<(String, String)>,
    /// A JSON body, read from FILE (- reads standard input); for the cloud and CDN
    /// writes, which take JSON.
    #[arg(long, value_name = "FILE", conflicts_with = "fields")]
    pub(crate) input: Option<PathBuf>,
    /// Send a path that is no documented path (credentials still go only to their
    /// interface's host).
    #[arg(long)]
    pub(crate) any_path: bool,
    /// With --any-path: send an undocumented path to the CDN (signed) rather than by
    /// its first segment.
    #[arg(long, requires = "any_path")]
    pub(crate) cdn: bool,
    /// Print the status line and the answer's headers before the body.
    #[arg(long, short = 'i')]
    pub(crate) include: bool,
    /// Whether the output is shaped (-o, --query, --columns, --filter, --sort,
    /// --limit): then the body is read as JSON and printed by the printer.
    #[arg(skip)]
    pub(crate) shaped: bool,
    /// --show-secrets.
    #[arg(skip)]
    pub(crate) show_secrets: bool,
}

/// Parses `KEY=VALUE`.
fn parse_field(value: &str) -> Result<(String, String), String> {
    match value.split_once('=') {
        Some((key, field)) if !key.is_empty() => Ok((key.to_owned(), field.to_owned())),
        _ => Err(format!(
            "`{}` is not KEY=VALUE (e.g. ttl=3600)",
            value.escape_debug()
        )),
    }
}

pub(crate) async fn run(context: &Context, args: ApiArgs) -> Result<(), Failure> {
    let mut request = RawRequest::new(&args.method, &args.path)?.any_path(args.any_path);
    if args.cdn {
        request = request.interface(Interface::Cdn);
    }
    let get = request.method() == "GET";
    for (key, value) in &args.fields {
        request = if get {
            request.query(key, value)
        } else {
            request.form(key, value)
        };
    }
    if let Some(input) = &args.input {
        request = request.json(read_input(input)?)?;
    }
    let answer = context.client.raw_request(request).await?;
    print(context, &args, &answer)
}

/// The bytes of `--input` (a file, or standard input for `-`), at most
/// [`MAX_INPUT_BYTES`].
fn read_input(input: &PathBuf) -> Result<Vec<u8>, Failure> {
    let named = input.display().to_string();
    let mut bytes = Vec::new();
    let read = if named == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(input).and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| Failure::usage(format!("cannot read --input {}: {e}", named.escape_debug())))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Failure::usage(format!(
            "--input {}: larger than {} MiB",
            named.escape_debug(),
            MAX_INPUT_BYTES / 1024 / 1024
        )));
    }
    Ok(bytes)
}

/// Prints the answer: shaped by the printer when asked (-o, --query…), else pretty
/// JSON on a terminal and the body as received through a pipe. Secrets the client
/// knows (the API key, the CDN secret, signatures) and the values of secret-looking
/// JSON members are redacted unless --show-secrets.
fn print(context: &Context, args: &ApiArgs, answer: &RawAnswer) -> Result<(), Failure> {
    let terminal = std::io::stdout().is_terminal();
    if args.include {
        let mut head = format!("HTTP {}\n", answer.status());
        for (name, value) in answer.headers() {
            let value = String::from_utf8_lossy(value.as_bytes());
            let value = if args.show_secrets {
                value.into_owned()
            } else {
                context.client.scrub_secrets(&value)
            };
            head.push_str(&format!("{name}: {}\n", untrusted::line(&value)));
        }
        head.push('\n');
        crate::output::emit_bytes(head.as_bytes())?;
    }
    let body = answer.body();
    let Ok(text) = std::str::from_utf8(body) else {
        if terminal {
            return Err(Failure::usage(format!(
                "the answer is {} bytes of binary ({}): not printed on a terminal",
                body.len(),
                content_type(answer)
            ))
            .hint("redirect it to a file, e.g. > answer.bin"));
        }
        return crate::output::emit_bytes(body);
    };
    let text = if args.show_secrets {
        text.to_owned()
    } else {
        context.client.scrub_secrets(text)
    };
    if args.shaped {
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            Failure::usage(format!(
                "the answer is not JSON ({}; {e}), so -o, --query and the other shaping flags cannot read it",
                content_type(answer)
            ))
            .hint("run the command without them to see the body")
        })?;
        return context.printer.value(&json);
    }
    if terminal {
        if let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) {
            let pretty = serde_json::to_string_pretty(&json).unwrap_or_else(|_| text.clone());
            return crate::output::emit_bytes(
                format!("{}\n", untrusted::json_text(pretty)).as_bytes(),
            );
        }
        if text.is_empty() {
            return Ok(());
        }
        return crate::output::emit_bytes(format!("{}\n", untrusted::lines(&text)).as_bytes());
    }
    crate::output::emit_bytes(text.as_bytes())
}

/// The answer's `Content-Type`, for a message.
fn content_type(answer: &RawAnswer) -> String {
    answer
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map_or_else(
            || "no content type".to_owned(),
            |v| untrusted::line(v).into_owned(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_key_value() {
        assert_eq!(
            parse_field("ttl=3600"),
            Ok(("ttl".to_owned(), "3600".to_owned()))
        );
        assert_eq!(
            parse_field("content=a=b"),
            Ok(("content".to_owned(), "a=b".to_owned()))
        );
        assert!(parse_field("=x").is_err());
        assert!(parse_field("novalue").is_err());
    }
}
