//! Destructive operations ask first: on a terminal they prompt, otherwise they need
//! `--yes`.

use std::io::{BufRead, IsTerminal, Write};

use crate::failure::Failure;

/// Asks before `action` (e.g. "delete private network 12"); `Ok` means go ahead.
pub(crate) fn confirm(action: &str, yes: bool) -> Result<(), Failure> {
    if yes {
        return Ok(());
    }
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Err(
            Failure::usage(format!("refusing to {action} without confirmation"))
                .hint("pass --yes to confirm when not running on a terminal"),
        );
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    eprint!("{action}? Type yes to go on, no to stop: ");
    loop {
        let _ = std::io::stderr().flush();
        let answer = match lines.next() {
            Some(Ok(line)) => line,
            Some(Err(e)) => return Err(Failure::usage(format!("cannot read the answer: {e}"))),
            // The input ended: nothing is done.
            None => return Err(Failure::usage(format!("did not {action}: not confirmed"))),
        };
        match answer.trim().to_ascii_lowercase().as_str() {
            "yes" | "y" => return Ok(()),
            "no" | "n" => return Err(Failure::usage(format!("did not {action}: not confirmed"))),
            _ => eprint!("please type yes or no: "),
        }
    }
}
