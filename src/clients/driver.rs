//! Running one client driver: its calls file, the process (bounded in time, killed by PID),
//! and what it printed (the tool names it kept).

use super::error::DriverError;
use crate::targets::Manifest;
use mcpdiff_oracle::toolset::ToolSet;
use serde_json::{json, Value};
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a driver run produced.
#[derive(Clone, Debug, Default)]
pub struct DriverOutcome {
    /// The names the client kept from `tools/list` (`None`: it never printed them).
    pub kept: Option<Vec<String>>,
    /// Calls the driver reports as answered.
    pub done: Option<u64>,
    /// Errors the driver or the SDK reported (connect, list, call).
    pub errors: Vec<String>,
    /// True when the run hit the time limit and was killed.
    pub timed_out: bool,
    /// The exit status, when it exited.
    pub exit: Option<i32>,
    pub seconds: f64,
}

/// The calls file a driver reads: every call of every tool of the set, in order, and the
/// resource URIs to read and prompt names to get (the `Mcp-Name` probes).
pub fn calls_file(set: &ToolSet) -> Value {
    let calls: Vec<Value> = set
        .tools
        .iter()
        .flat_map(|t| {
            t.calls.iter().map(move |c| {
                let mut v = json!({"tool": t.name()});
                if let Some(a) = &c.arguments {
                    v["arguments"] = a.clone();
                }
                v
            })
        })
        .collect();
    json!({
        "calls": calls,
        "reads": mcpdiff_oracle::client_judge::NAME_PROBE_URIS,
        "prompts": mcpdiff_oracle::client_judge::NAME_PROBE_PROMPTS,
    })
}

fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// Run the driver of `m` against `url` with the calls of `set`, for at most `limit`.
pub fn run_driver(
    m: &Manifest,
    url: &str,
    set: &ToolSet,
    limit: Duration,
) -> Result<DriverOutcome, DriverError> {
    let logs = m.log_dir();
    std::fs::create_dir_all(&logs).map_err(|e| DriverError::CreateDir {
        path: logs.display().to_string(),
        error: e.to_string(),
    })?;
    let calls: PathBuf = logs.join("calls.json");
    std::fs::write(&calls, calls_file(set).to_string()).map_err(|e| DriverError::WriteCalls {
        path: calls.display().to_string(),
        error: e.to_string(),
    })?;
    let log = logs.join("driver.log");
    let err = std::fs::File::create(&log).map_err(|e| DriverError::CreateLog {
        path: log.display().to_string(),
        error: e.to_string(),
    })?;
    let cmd = m
        .start
        .command
        .replace("{url}", &format!("'{url}'"))
        .replace("{calls}", &quote(&calls));
    let started = Instant::now();
    // `exec` makes the PID the driver itself; its own process group (id = its PID) lets a
    // time-out end whatever the driver started too, by that id
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec {cmd}"))
        .process_group(0)
        .current_dir(&m.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(err)
        .spawn()
        .map_err(|e| DriverError::Start {
            name: m.name.clone(),
            command: cmd.clone(),
            error: e.to_string(),
        })?;
    let mut stdout = child.stdout.take().ok_or(DriverError::NoStdout)?;
    // read on a thread so a chatty driver never blocks on a full pipe; bounded to 4 MiB
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.by_ref().take(4 << 20).read_to_end(&mut buf);
        let _ = tx.send(buf);
    });
    let mut out = DriverOutcome::default();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                out.exit = status.code();
                break;
            }
            Ok(None) if started.elapsed() > limit => {
                let group = format!("-{}", child.id());
                let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
                let _ = child.kill();
                let _ = child.wait();
                out.timed_out = true;
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => {
                return Err(DriverError::Wait {
                    name: m.name.clone(),
                    error: e.to_string(),
                })
            }
        }
    }
    out.seconds = started.elapsed().as_secs_f64();
    // a grandchild that outlived the driver may hold the pipe open: do not wait on it long
    let bytes = rx.recv_timeout(Duration::from_secs(2)).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).to_string();
    parse_output(&text, &mut out);
    Ok(out)
}

/// Read the driver's JSON lines (other lines are ignored: SDKs may print to stdout).
pub fn parse_output(text: &str, out: &mut DriverOutcome) {
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line.trim()) else {
            continue;
        };
        if let Some(k) = v.get("kept").and_then(Value::as_array) {
            out.kept = Some(
                k.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect(),
            );
        }
        if let Some(d) = v.get("done").and_then(Value::as_u64) {
            out.done = Some(d);
        }
        for e in v
            .get("errors")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.errors.extend(e.as_str().map(String::from));
        }
        if let Some(e) = v.get("error").and_then(Value::as_str) {
            out.errors.push(e.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_lines_are_read_and_noise_ignored() {
        let mut o = DriverOutcome::default();
        parse_output(
            "starting\n{\"kept\":[\"a\",\"b\"]}\n{\"done\":3,\"errors\":[\"b: boom\"]}\n",
            &mut o,
        );
        assert_eq!(o.kept, Some(vec!["a".to_string(), "b".to_string()]));
        assert_eq!(o.done, Some(3));
        assert_eq!(o.errors, vec!["b: boom".to_string()]);
    }
}
