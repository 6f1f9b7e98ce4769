//! Waiting with progress: a spinner with the elapsed time and the last state seen on a
//! terminal, plain lines otherwise (always on stderr); Ctrl-C stops waiting cleanly.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hostapi::WaitOptions;
use hostapi::wait::WaitProgress;
use indicatif::{ProgressBar, ProgressStyle};
use tokio::time::Instant;

use crate::failure::Failure;
use crate::untrusted;

/// How often waits poll, and how long they may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WaitSettings {
    pub(crate) interval: Duration,
    pub(crate) timeout: Duration,
}

impl WaitSettings {
    /// Against the real service: a poll every 5 s, for at most 30 minutes (a bare
    /// metal installation can take that long).
    pub(crate) fn service() -> Self {
        Self {
            interval: Duration::from_secs(5),
            timeout: Duration::from_secs(30 * 60),
        }
    }

    /// In the sandbox: a poll every 15 simulated seconds (a quarter of a second at the
    /// default time scale of 60), never more often than the SDK allows (every 100 ms).
    pub(crate) fn sandbox(time_scale: f64) -> Self {
        let seconds = if time_scale.is_finite() && time_scale > 0.0 {
            15.0 / time_scale
        } else {
            0.25
        };
        Self {
            interval: Duration::from_secs_f64(seconds.clamp(0.1, 5.0))
                .max(WaitOptions::MIN_INTERVAL),
            timeout: Duration::from_secs(30 * 60),
        }
    }
}

/// Shows the progress of one wait.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    last_line: Arc<Mutex<String>>,
    started: Instant,
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
            bar.set_message(format!("{}: waiting", untrusted::line(what)));
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        if bar.is_none() {
            eprintln!("waiting for {}", untrusted::line(what));
        }
        Self {
            bar,
            last_line: Arc::new(Mutex::new(String::new())),
            started: Instant::now(),
        }
    }

    /// Shows the state seen at a poll (the state is the server's text: shown escaped).
    fn update(
        bar: Option<&ProgressBar>,
        last_line: &Mutex<String>,
        line: String,
        elapsed: Duration,
    ) {
        let line = untrusted::line(&line).into_owned();
        match bar {
            Some(bar) => bar.set_message(line),
            None => {
                // Plain output: a line when the state changes, not on every poll.
                let mut last = last_line
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if *last != line {
                    eprintln!("{line} ({})", hostapi::wait::human_duration(elapsed));
                    *last = line;
                }
            }
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
                Self::update(
                    bar.as_ref(),
                    &last_line,
                    format!("{}: {}", p.what, p.state),
                    p.elapsed,
                );
            })
    }

    /// Ends the display with a final line and the time the wait took (the spinner
    /// goes, so what follows on the terminal starts on a line of its own).
    pub(crate) fn finish(self, line: &str) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
        eprintln!(
            "{} ({})",
            untrusted::line(line),
            hostapi::wait::human_duration(self.started.elapsed())
        );
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

/// Waits for `wait` (an SDK waiter given the options) with a progress display, ending
/// it with `done` on success.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_polls_follow_the_time_scale() {
        assert_eq!(
            WaitSettings::sandbox(60.0).interval,
            Duration::from_millis(250)
        );
        assert_eq!(
            WaitSettings::sandbox(1e9).interval,
            WaitOptions::MIN_INTERVAL
        );
        assert_eq!(WaitSettings::sandbox(1.0).interval, Duration::from_secs(5));
    }
}
