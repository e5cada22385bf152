//! How every command ends and what it runs on: [`fail`] / [`fail_in`] turn an error into the
//! one line on standard error (secrets redacted) and exit status 2 ([`fail_with`]: another
//! status); [`findings`] maps "something fails the command" to status 1 or 0; [`runtime`]
//! builds the tokio runtime every async command runs on.

use std::process::ExitCode;

/// The command could not do its job (bad flag, unreadable file, unreachable target...).
pub const COULD_NOT_RUN: u8 = 2;
/// The command did its job and found something that fails it.
pub const FOUND: u8 = 1;

/// Print `mcpdiff: MSG` (redacted) and return status 2.
pub fn fail(msg: &str) -> ExitCode {
    fail_in("", msg)
}

/// Print `mcpdiff COMMAND: MSG` (redacted; no command: `mcpdiff: MSG`) and return status 2.
pub fn fail_in(command: &str, msg: &str) -> ExitCode {
    fail_with(command, COULD_NOT_RUN, msg)
}

/// Print `mcpdiff COMMAND: MSG` (redacted) and return `status` (for a failure that keeps
/// a documented status other than 2).
pub fn fail_with(command: &str, status: u8, msg: &str) -> ExitCode {
    say_in(command, msg);
    ExitCode::from(status)
}

/// Print `mcpdiff: MSG` (redacted): an error that does not end the command yet.
pub fn say(msg: &str) {
    say_in("", msg);
}

fn say_in(command: &str, msg: &str) {
    let who = if command.is_empty() {
        "mcpdiff".to_string()
    } else {
        format!("mcpdiff {command}")
    };
    eprintln!("{who}: {}", mcpdiff::secrets::redact(msg));
}

/// The line of a target none of whose answers decided anything (`run` and `replay` end
/// with status 2 on it); `why` counts the answers per reason.
pub fn nothing_decided(url: &str, why: &str) -> String {
    format!(
        "no answer of {url} decided anything (all not determined: {why}); check its \
         credentials (--header), that it answers within --timeout-ms, and that it stays up"
    )
}

/// Status 1 when something fails the command, else 0.
pub fn findings(failing: bool) -> ExitCode {
    if failing {
        ExitCode::from(FOUND)
    } else {
        ExitCode::SUCCESS
    }
}

/// The tokio runtime of a command (multi-threaded, I/O and time enabled). The error is one
/// line for [`fail`].
/// Err is a String on purpose: it is the final one-line message for `exit::fail` (the
/// typed errors below it are already rendered), and nothing matches on it.
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}
