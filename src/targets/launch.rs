//! Installing and running a bundled target: install commands (idempotent, logged), start on a
//! free loopback port, a bounded readiness wait, and stop by PID when the handle drops (so a
//! failed run, an early return or a panic never leaves a server behind). Ctrl-C is handled by
//! the caller dropping the handles (see `cmd::run`).

pub use super::launch_error::LaunchError;
use super::manifest::Manifest;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The first program of `requires` that is not on PATH.
pub fn missing_tool(m: &Manifest) -> Option<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    m.install
        .requires
        .iter()
        .find(|tool| !std::env::split_paths(&path).any(|d| d.join(tool).is_file()))
        .cloned()
}

fn shell(cmd: &str, dir: &Path, log: &Path) -> Result<Command, LaunchError> {
    let open_failed = |e: std::io::Error| LaunchError::OpenLog {
        path: log.display().to_string(),
        error: e.to_string(),
    };
    let out = File::options()
        .create(true)
        .append(true)
        .open(log)
        .map_err(open_failed)?;
    let err = out.try_clone().map_err(open_failed)?;
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err);
    Ok(c)
}

/// The last lines of a log, for one-line errors that still show the cause.
fn tail(log: &Path) -> String {
    let mut s = String::new();
    if let Ok(mut f) = File::open(log) {
        let _ = f.read_to_string(&mut s);
    }
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}

/// How often a long install step says it is still running (a cold cargo build takes minutes).
const HEARTBEAT: Duration = Duration::from_secs(30);

/// The longest one install step may take: far above a cold Rust build on 2 busy cores (about
/// 10 minutes), so only a hung registry or a wedged tool reaches it.
const STEP_LIMIT: Duration = Duration::from_secs(60 * 60);

/// Wait for an install step, with a progress line every [`HEARTBEAT`] so a long build is
/// visibly alive; past [`STEP_LIMIT`] the step's shell is killed and the step fails. (Ctrl-C
/// reaches the whole foreground process group, so it stops the tools the shell started.)
fn wait_reporting(
    child: &mut Child,
    name: &str,
    progress: &dyn Fn(&str),
) -> std::io::Result<std::process::ExitStatus> {
    let t = Instant::now();
    let mut next = HEARTBEAT;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if t.elapsed() > STEP_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("killed after {}s", STEP_LIMIT.as_secs()),
            ));
        }
        if t.elapsed() >= next {
            progress(&format!("{name}: still running ({}s)", next.as_secs()));
            next += HEARTBEAT;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Install `m` unless its check path exists. `Ok(false)` = already installed.
pub fn install(m: &Manifest, progress: &dyn Fn(&str)) -> Result<bool, LaunchError> {
    if m.installed() {
        return Ok(false);
    }
    if let Some(tool) = missing_tool(m) {
        return Err(LaunchError::ToolMissing {
            name: m.name.clone(),
            tool: tool.to_string(),
            package: m.sdk.package.clone(),
            version: m.sdk.version.clone(),
        });
    }
    let logs = m.log_dir();
    create_dir(&logs)?;
    let log = logs.join("install.log");
    for cmd in &m.install.commands {
        progress(&format!("{}: {cmd}", m.name));
        let t = Instant::now();
        let mut child = shell(cmd, &m.dir, &log)?
            .spawn()
            .map_err(|e| LaunchError::RunStep {
                name: m.name.clone(),
                command: cmd.clone(),
                error: e.to_string(),
            })?;
        let status =
            wait_reporting(&mut child, &m.name, progress).map_err(|e| LaunchError::LostStep {
                name: m.name.clone(),
                command: cmd.clone(),
                error: e.to_string(),
            })?;
        if !status.success() {
            return Err(LaunchError::StepFailed {
                name: m.name.clone(),
                command: cmd.clone(),
                status: status.to_string(),
                log: log.display().to_string(),
                tail: tail(&log),
            });
        }
        progress(&format!(
            "{}: done in {:.1}s",
            m.name,
            t.elapsed().as_secs_f64()
        ));
    }
    if !m.installed() {
        return Err(LaunchError::StillMissing {
            name: m.name.clone(),
            check: m.install.check.clone(),
            log: log.display().to_string(),
        });
    }
    Ok(true)
}

/// A started target. Dropping it kills the process (by PID) and reaps it.
pub struct Running {
    pub name: String,
    pub version: String,
    pub url: String,
    pub log: PathBuf,
    child: Child,
}

impl Running {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // `exec` in start() makes the PID the server itself, so this reaches the server
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free loopback port (bound then released; a race with another process is possible, and
/// shows as a readiness failure naming the log).
fn free_port() -> Result<u16, LaunchError> {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| LaunchError::NoFreePort(e.to_string()))
}

fn create_dir(dir: &Path) -> Result<(), LaunchError> {
    fs::create_dir_all(dir).map_err(|e| LaunchError::CreateDir {
        path: dir.display().to_string(),
        error: e.to_string(),
    })
}

/// Any HTTP answer to a GET of the endpoint: the server is up (a 405 is fine).
async fn answers_http(port: u16, path: &str) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(Ok(mut s)) = tokio::time::timeout(
        Duration::from_millis(500),
        tokio::net::TcpStream::connect(("127.0.0.1", port)),
    )
    .await
    else {
        return false;
    };
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\
         Connection: close\r\n\r\n"
    );
    if s.write_all(req.as_bytes()).await.is_err() {
        return false;
    }
    let mut buf = [0u8; 8];
    matches!(
        tokio::time::timeout(Duration::from_secs(2), s.read_exact(&mut buf)).await,
        Ok(Ok(_)) if buf.starts_with(b"HTTP/1.")
    )
}

/// Start `m` on a free loopback port and wait until it answers (bounded).
pub async fn start(m: &Manifest) -> Result<Running, LaunchError> {
    start_with(m, &[]).await
}

/// Like [`start`], with extra environment variables for the server process (`run --tools`
/// passes `MCPDIFF_TOOLS`, the absolute path of a tool set file).
pub async fn start_with(m: &Manifest, env: &[(String, String)]) -> Result<Running, LaunchError> {
    let logs = m.log_dir();
    create_dir(&logs)?;
    let log = logs.join("server.log");
    let port = free_port()?;
    let cmd = m.start.command.replace("{port}", &port.to_string());
    {
        let mut f = File::create(&log).map_err(|e| LaunchError::CreateLog {
            path: log.display().to_string(),
            error: e.to_string(),
        })?;
        let _ = writeln!(f, "# mcpdiff: {cmd}");
    }
    let child = shell(&format!("exec {cmd}"), &m.dir, &log)?
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .spawn()
        .map_err(|e| LaunchError::Start {
            name: m.name.clone(),
            command: cmd.clone(),
            error: e.to_string(),
        })?;
    let mut running = Running {
        name: m.name.clone(),
        version: m.sdk.version.clone(),
        url: format!("http://127.0.0.1:{port}{}", m.start.endpoint),
        log: log.clone(),
        child,
    };
    let deadline = Instant::now() + Duration::from_secs(m.start.ready_timeout_secs.max(1));
    loop {
        if let Ok(Some(status)) = running.child.try_wait() {
            return Err(LaunchError::ExitedAtStart {
                name: m.name.clone(),
                status: status.to_string(),
                log: log.display().to_string(),
                tail: tail(&log),
            });
        }
        if answers_http(port, &m.start.endpoint).await {
            return Ok(running);
        }
        if Instant::now() > deadline {
            // `running` drops here: the process is killed
            return Err(LaunchError::NotAnswering {
                name: m.name.clone(),
                port,
                secs: m.start.ready_timeout_secs,
                log: log.display().to_string(),
            });
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
