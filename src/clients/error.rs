//! Why a client driver run did not happen or did not finish (`DriverError`): out of time,
//! the recording server, the driver's files or process. Each displays as the one line the
//! client matrix shows as the row's note (`ClientTargetReport::skipped`).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverError {
    /// Less than a second of `--max-time` left.
    OutOfTime,
    /// The loopback recording server could not start.
    Recorder(String),
    /// The blocking task running the driver failed (panicked or was cancelled).
    Task(String),
    /// A folder (as shown) could not be created.
    CreateDir {
        path: String,
        error: String,
    },
    /// The calls file (as shown) could not be written.
    WriteCalls {
        path: String,
        error: String,
    },
    /// The driver's log (as shown) could not be created.
    CreateLog {
        path: String,
        error: String,
    },
    /// The driver command of target `name` could not be started.
    Start {
        name: String,
        command: String,
        error: String,
    },
    NoStdout,
    /// Waiting for the driver of target `name` failed.
    Wait {
        name: String,
        error: String,
    },
    /// The calibration tool set lacks the retry probe's tool.
    NoRetryTool,
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriverError::OutOfTime => f.write_str("not run: --max-time reached"),
            DriverError::Recorder(e) => write!(f, "cannot start the recording server: {e}"),
            DriverError::Task(e) => write!(f, "driver task failed: {e}"),
            DriverError::CreateDir { path, error } => write!(f, "cannot create {path}: {error}"),
            DriverError::WriteCalls { path, error } => write!(f, "cannot write {path}: {error}"),
            DriverError::CreateLog { path, error } => write!(f, "{path}: {error}"),
            DriverError::Start {
                name,
                command,
                error,
            } => write!(f, "{name}: cannot start `{command}`: {error}"),
            DriverError::NoStdout => f.write_str("no stdout pipe"),
            DriverError::Wait { name, error } => write!(f, "{name}: wait failed: {error}"),
            DriverError::NoRetryTool => f.write_str("the calibration set has no echo_region"),
        }
    }
}

impl std::error::Error for DriverError {}
