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

/// What to run after Ctrl-C stopped a wait: the command that waits again, or, where
/// none exists, the one that shows where the operation is.
#[derive(Debug, Clone)]
pub(crate) enum Resume {
    /// A command that resumes waiting (`bare-metal installation wait 20001`).
    Wait(String),
    /// A command that shows the state (`vps get 100001`).
    Check(String),
}

impl Resume {
    /// The hint after an interrupted wait: the command in full, with the flags of this
    /// run that choose where it goes (`--sandbox`, `--profile`, `--config`).
    fn hint(&self, args: &[String]) -> String {
        let mut line = String::from("hostapi");
        let mut words = args.iter().skip(1);
        while let Some(word) = words.next() {
            if word == "--sandbox"
                || word.starts_with("--profile=")
                || word.starts_with("--config=")
            {
                line.push(' ');
                line.push_str(&crate::untrusted::line(word));
            } else if (word == "--profile" || word == "--config")
                && let Some(value) = words.next()
            {
                line.push_str(&format!(" {word} {}", crate::untrusted::line(value)));
            }
        }
        match self {
            Self::Wait(command) => format!("Resume waiting with: {line} {command}"),
            Self::Check(command) => format!("See where it is with: {line} {command}"),
        }
    }
}

/// Waits for `wait` (an SDK waiter given the options) with a progress display, ending
/// it with `done` on success. Ctrl-C stops waiting, not the operation: the failure
/// (exit 130) says so and names the command that resumes (`resume`).
pub(crate) async fn wait_with_progress<T>(
    what: &str,
    settings: &WaitSettings,
    done: &str,
    resume: Resume,
    wait: impl AsyncFnOnce(WaitOptions) -> Result<T, hostapi::Error>,
) -> Result<T, Failure> {
    // Listening before the display starts: a Ctrl-C from the first line on is caught.
    let interrupt = interrupt_listener();
    let progress = Progress::start(what);
    let options = progress.options(settings);
    let outcome = tokio::select! {
        result = wait(options) => result.map_err(Failure::from),
        () = interrupt => Err(interrupted_wait(what, &resume)),
    };
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

/// A future that ends on Ctrl-C (SIGINT), listening from the moment it is made (tokio's
/// `ctrl_c()` only listens once first polled).
fn interrupt_listener() -> impl Future<Output = ()> {
    #[cfg(unix)]
    {
        let signal = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).ok();
        async move {
            match signal {
                Some(mut signal) => {
                    signal.recv().await;
                }
                None => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The failure of a wait stopped by Ctrl-C (exit 130): the operation itself goes on.
fn interrupted_wait(what: &str, resume: &Resume) -> Failure {
    let args: Vec<String> = std::env::args().collect();
    Failure::interrupted().hint(format!(
        "stopped waiting for {}; the operation goes on at the service. {}",
        untrusted::line(what),
        resume.hint(&args)
    ))
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

    #[test]
    fn the_resume_hint_keeps_where_the_run_went() {
        let args = |line: &str| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        let resume = Resume::Wait("bare-metal installation wait 20001".to_owned());
        assert_eq!(
            resume.hint(&args(
                "hostapi --sandbox bare-metal install 20001 --os 9 --wait"
            )),
            "Resume waiting with: hostapi --sandbox bare-metal installation wait 20001"
        );
        assert_eq!(
            resume.hint(&args(
                "hostapi bare-metal install 20001 --profile work --wait -o json"
            )),
            "Resume waiting with: hostapi --profile work bare-metal installation wait 20001"
        );
        let check = Resume::Check("vps get 100001".to_owned());
        assert_eq!(
            check.hint(&args("hostapi vps reboot 100001 --wait")),
            "See where it is with: hostapi vps get 100001"
        );
    }
}
