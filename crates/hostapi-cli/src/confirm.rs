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
    eprint!("{action}? This cannot be undone. Type `yes` to go on: ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| Failure::usage(format!("cannot read the answer: {e}")))?;
    if answer.trim().eq_ignore_ascii_case("yes") {
        Ok(())
    } else {
        Err(Failure::usage(format!("did not {action}: not confirmed")))
    }
}
