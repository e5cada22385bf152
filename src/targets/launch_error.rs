//! Why a bundled target could not be installed or started (`LaunchError`). Each displays as
//! the one line the run notes ("bundled target skipped: ...") or `mcpdiff targets` prints;
//! the steps' logs are named so the user can look.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaunchError {
    /// A log file (as shown) could not be opened for a step's output.
    OpenLog {
        path: String,
        error: String,
    },
    /// A folder (as shown) could not be created.
    CreateDir {
        path: String,
        error: String,
    },
    /// The log file of a start (as shown) could not be created.
    CreateLog {
        path: String,
        error: String,
    },
    /// A tool the install needs is not on PATH.
    ToolMissing {
        name: String,
        tool: String,
        package: String,
        version: String,
    },
    /// An install command could not be run.
    RunStep {
        name: String,
        command: String,
        error: String,
    },
    /// Waiting for an install command failed.
    LostStep {
        name: String,
        command: String,
        error: String,
    },
    /// An install command exited unsuccessfully; the end of its log.
    StepFailed {
        name: String,
        command: String,
        status: String,
        log: String,
        tail: String,
    },
    /// Every install command ran, and the check path is still missing.
    StillMissing {
        name: String,
        check: String,
        log: String,
    },
    NoFreePort(String),
    /// The start command could not be run.
    Start {
        name: String,
        command: String,
        error: String,
    },
    /// The server exited before answering; the end of its log.
    ExitedAtStart {
        name: String,
        status: String,
        log: String,
        tail: String,
    },
    /// The server did not answer on its port within its readiness time.
    NotAnswering {
        name: String,
        port: u16,
        secs: u64,
        log: String,
    },
    /// The task installing target `name` failed (panicked or was cancelled).
    InstallTask {
        name: String,
        error: String,
    },
    /// A bring-up task failed (panicked), its target unknown.
    Task(String),
    /// An install thread of `mcpdiff targets install` panicked.
    InstallPanicked,
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::OpenLog { path, error } => write!(f, "cannot open {path}: {error}"),
            LaunchError::CreateDir { path, error } => write!(f, "cannot create {path}: {error}"),
            LaunchError::CreateLog { path, error } => write!(f, "{path}: {error}"),
            LaunchError::ToolMissing {
                name,
                tool,
                package,
                version,
            } => write!(
                f,
                "{name}: cannot install: `{tool}` is not on PATH (needed for {package} {version})"
            ),
            LaunchError::RunStep {
                name,
                command,
                error,
            } => write!(f, "{name}: cannot run `{command}`: {error}"),
            LaunchError::LostStep {
                name,
                command,
                error,
            } => write!(f, "{name}: lost `{command}`: {error}"),
            LaunchError::StepFailed {
                name,
                command,
                status,
                log,
                tail,
            } => write!(
                f,
                "{name}: `{command}` failed ({status}); see {log}: {tail}"
            ),
            LaunchError::StillMissing { name, check, log } => write!(
                f,
                "{name}: install finished but {check} is still missing; see {log}"
            ),
            LaunchError::NoFreePort(error) => write!(f, "no free loopback port: {error}"),
            LaunchError::Start {
                name,
                command,
                error,
            } => write!(f, "{name}: cannot start `{command}`: {error}"),
            LaunchError::ExitedAtStart {
                name,
                status,
                log,
                tail,
            } => write!(
                f,
                "{name}: exited during start-up ({status}); see {log}: {tail}"
            ),
            LaunchError::NotAnswering {
                name,
                port,
                secs,
                log,
            } => write!(
                f,
                "{name}: not answering on port {port} after {secs}s; see {log}"
            ),
            LaunchError::InstallTask { name, error } => {
                write!(f, "{name}: install task failed: {error}")
            }
            LaunchError::Task(error) => write!(f, "task failed: {error}"),
            LaunchError::InstallPanicked => f.write_str("install thread panicked"),
        }
    }
}

impl std::error::Error for LaunchError {}
