//! Waiting with progress: a spinner with the elapsed time and the last state seen on a
//! terminal, plain lines otherwise (always on stderr); Ctrl-C stops waiting cleanly.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hostapi::{WaitOptions, WaitProgress};
use indicatif::{ProgressBar, ProgressStyle};

use crate::failure::Failure;

/// How often waits poll, and how long they may take, unless a command says otherwise.
pub(crate) struct WaitSettings {
    pub(crate) interval: Duration,
    pub(crate) timeout: Duration,
}

impl Default for WaitSettings {
    fn default() -> Self {
        Self {
            interval: Duration::from_secs(2),
            timeout: Duration::from_secs(30 * 60),
        }
    }
}

/// Shows the progress of one wait.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    last_line: Arc<Mutex<String>>,
}

impl Progress {
    /// Starts showing progress for `what`.
    pub(crate) fn start(what: &str) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_message(format!("{what}: waiting"));
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        if bar.is_none() {
            eprintln!("waiting for {what}");
        }
        Self {
            bar,
            last_line: Arc::new(Mutex::new(String::new())),
        }
    }

    /// Wait options that report to this progress display.
    pub(crate) fn options(&self, settings: &WaitSettings) -> WaitOptions {
        let bar = self.bar.clone();
        let last_line = self.last_line.clone();
        WaitOptions::new()
            .interval(settings.interval)
            .timeout(settings.timeout)
            .on_progress(move |p: &WaitProgress| {
                let line = format!("{}: {}", p.what, p.state);
                match &bar {
                    Some(bar) => bar.set_message(line),
                    None => {
                        // Plain output: a line when the state changes, not on every poll.
                        let mut last = last_line
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                        if *last != line {
                            eprintln!("{line} ({}s)", p.elapsed.as_secs());
                            *last = line;
                        }
                    }
                }
            })
    }

    /// Ends the display with a final line.
    pub(crate) fn finish(self, line: &str) {
        match self.bar {
            Some(bar) => bar.finish_with_message(line.to_owned()),
            None => eprintln!("{line}"),
        }
    }

    /// Ends the display without a line (an error follows).
    pub(crate) fn abandon(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Runs `future`, stopping early with [`Failure::interrupted`] on Ctrl-C. Dropping the
/// future stops polling; nothing is left running.
pub(crate) async fn interruptible<T>(
    future: impl Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    tokio::select! {
        result = future => result,
        _ = tokio::signal::ctrl_c() => Err(Failure::interrupted()),
    }
}

/// Waits for `wait` with a progress display, ending it with `done` on success.
pub(crate) async fn wait_with_progress<T>(
    what: &str,
    settings: &WaitSettings,
    done: &str,
    wait: impl AsyncFnOnce(WaitOptions) -> Result<T, hostapi::Error>,
) -> Result<T, Failure> {
    let progress = Progress::start(what);
    let options = progress.options(settings);
    let outcome = interruptible(async { wait(options).await.map_err(Failure::from) }).await;
    match outcome {
        Ok(value) => {
            progress.finish(done);
            Ok(value)
        }
        Err(failure) => {
            progress.abandon();
            Err(failure)
        }
    }
}
