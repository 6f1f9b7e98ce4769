//! Reading many records at once through the facade's bulk helpers (`get_many`,
//! `hostapi::bulk::bulk`): `get` with several ids, `list --details` and `find`. A progress
//! bar shows on a terminal (stderr); each id that cannot be read is reported on its
//! own and the others go on.

use std::fmt::Display;
use std::io::IsTerminal;

use futures::{Stream, StreamExt};
use hostapi::bulk::{BulkItem, BulkOptions};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::Context;
use crate::failure::Failure;
use crate::output::Column;

/// Calls in flight at once: the facade's default, polite to the service.
pub(crate) fn options() -> BulkOptions {
    BulkOptions::default()
}

/// A progress bar on stderr when it is a terminal and there is more than one call.
fn bar(what: &str, total: usize) -> Option<ProgressBar> {
    (total > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(total as u64);
        bar.set_style(
            ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(format!("reading {what}"));
        bar
    })
}

/// Drains a bulk stream of `total` items with a progress bar: the records read, in
/// input order, and each input that failed with its failure.
pub(crate) async fn collect<I, T>(
    what: &str,
    total: usize,
    items: impl Stream<Item = BulkItem<I, T>>,
) -> (Vec<(I, T)>, Vec<(I, Failure)>) {
    let bar = bar(what, total);
    let mut items = std::pin::pin!(items);
    let (mut read, mut failed) = (Vec::new(), Vec::new());
    while let Some(item) = items.next().await {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
        match item.result {
            Ok(record) => read.push((item.input, record)),
            Err(error) => failed.push((item.input, Failure::from(error))),
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    (read, failed)
}

/// Reports each input that could not be read on stderr; the failure of the command
/// when there was any (the first one's exit code), after what could be read.
pub(crate) fn report<I: Display>(
    noun: &str,
    total: usize,
    failed: Vec<(I, Failure)>,
) -> Result<(), Failure> {
    let count = failed.len();
    let mut first = None;
    for (input, failure) in failed {
        eprintln!("error: {noun} {input}: {}", failure.shown());
        first.get_or_insert(failure);
    }
    match first {
        None => Ok(()),
        Some(first) => Err(Failure {
            message: format!("{count} of {total} could not be read (see above)"),
            hint: first.hint,
            code: first.code,
            call: first.call,
        }),
    }
}

/// `get ID…`: one id prints its record as before; several are read at once through
/// `stream` and print as a list (`columns` in a table), in the order given. Ids that
/// cannot be read are reported each, and the command then fails with the first one's
/// exit code.
pub(crate) async fn get<I: Display, T: Serialize + schemars::JsonSchema>(
    context: &Context,
    noun: &str,
    total: usize,
    stream: impl Stream<Item = BulkItem<I, T>>,
    columns: &[Column],
) -> Result<(), Failure> {
    let (read, failed) = collect(&format!("{noun}s"), total, stream).await;
    if total == 1 {
        if let Some((_, failure)) = failed.into_iter().next() {
            return Err(failure);
        }
        return match read.first() {
            Some((_, record)) => context.printer.one(record),
            None => Ok(()),
        };
    }
    let records: Vec<T> = read.into_iter().map(|(_, record)| record).collect();
    context.printer.items(&records, columns)?;
    report(noun, total, failed)
}
