//! `.ci/action.sh`, the shell half of the GitHub Action (`action.yml`), run as the runner
//! would run it: the `INPUT_*` variables action.yml sets, a fake `GITHUB_OUTPUT`, and the
//! built `mcpdiff` (instead of `cargo install`) against `mcpdiff serve` on loopback, started
//! and stopped by this test (by its child handle, i.e. its PID), everything bounded in time.
//! Checks: the SARIF file appears and is SARIF, the outputs are written, the header values
//! appear nowhere but in the `::add-mask::` lines (which the runner swallows), and a `corpus`
//! input is replayed after the run, its exit status an output that gates the step.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mcpdiff");
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/action.sh");
const API_KEY: &str = "sekrit-api-key-7f3a91";
const TOKEN: &str = "tok-5be0c2d4e6";

/// `mcpdiff serve --port 0`, stopped on drop.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// `mcpdiff serve --port 0 EXTRA...`.
    fn start_with(extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mcpdiff serve starts");
        let out = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        let url = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = rx.recv_timeout(left).unwrap_or_else(|_| {
                let _ = child.kill();
                panic!("mcpdiff serve printed no URL within 20 s")
            });
            if let Some(at) = line.find("http://") {
                let url = line[at..].split_whitespace().next().unwrap_or("");
                break url.to_string();
            }
        };
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Run the script with `env`, killed after `limit`.
fn run_script(dir: &Path, env: &[(&str, String)], limit: Duration) -> Ran {
    let mut cmd = Command::new("bash");
    cmd.arg(SCRIPT)
        .current_dir(dir)
        .env("MCPDIFF_BIN", BIN)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_ACTION_PATH", env!("CARGO_MANIFEST_DIR"))
        .env("GITHUB_WORKSPACE", dir)
        .env("GITHUB_OUTPUT", dir.join("github_output"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("bash runs the script");
    let read = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut r) = r {
                let _ = r.read_to_string(&mut s);
            }
            s
        })
    };
    let out = read(
        child
            .stdout
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let err = read(
        child
            .stderr
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the action script ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Ran {
        code: status.code(),
        stdout: out.join().expect("stdout"),
        stderr: err.join().expect("stderr"),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpdiff-action-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Every line of `text` that shows `secret`, other than the mask commands.
fn leaks<'a>(text: &'a str, secret: &str) -> Vec<&'a str> {
    text.lines()
        .filter(|l| l.contains(secret) && !l.starts_with("::add-mask::"))
        .collect()
}

#[test]
fn the_action_script_writes_sarif_and_never_shows_a_header_value() {
    let server = Server::start();
    let dir = scratch("run");
    let sarif = dir.join("out.sarif");
    let ran = run_script(
        &dir,
        &[
            ("INPUT_URL", server.url.clone()),
            ("INPUT_CASES", "60".into()),
            ("INPUT_SEED", "3".into()),
            ("INPUT_MAX_TIME", "60".into()),
            (
                "INPUT_HEADERS",
                format!("X-Api-Key: {API_KEY}  \r\n\nAuthorization: Bearer {TOKEN}\n"),
            ),
            ("INPUT_SARIF", sarif.display().to_string()),
            ("INPUT_FAIL_ON_FINDINGS", "false".into()),
        ],
        Duration::from_secs(150),
    );
    drop(server);
    let shown = format!("{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(ran.code, Some(0), "{shown}");

    // each value is masked first, and shown nowhere else
    for secret in [API_KEY, TOKEN] {
        assert!(
            ran.stdout
                .lines()
                .any(|l| l == format!("::add-mask::{secret}")),
            "{secret} is masked, without the spaces around it: {shown}"
        );
        assert!(
            leaks(&shown, secret).is_empty(),
            "{:?}",
            leaks(&shown, secret)
        );
    }
    let first_mask = ran.stdout.find("::add-mask::").expect("a mask line");
    assert!(!ran.stdout[..first_mask].contains(API_KEY));

    // the outputs and the SARIF file
    let outputs = std::fs::read_to_string(dir.join("github_output")).expect("GITHUB_OUTPUT");
    let code_line = outputs
        .lines()
        .find(|l| l.starts_with("exit-code="))
        .expect("exit-code output");
    assert!(
        ["exit-code=0", "exit-code=1"].contains(&code_line),
        "{outputs}"
    );
    assert!(outputs.contains(&format!("sarif={}", sarif.display())));
    let text = std::fs::read_to_string(&sarif).expect("the SARIF file appears");
    for secret in [API_KEY, TOKEN] {
        assert!(!text.contains(secret), "{secret} in the SARIF file");
    }
    let log: serde_json::Value = serde_json::from_str(&text).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"].as_array().map(Vec::len), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_header_line_without_a_colon_fails_without_showing_it() {
    let dir = scratch("bad");
    let ran = run_script(
        &dir,
        &[
            ("INPUT_URL", "http://127.0.0.1:1/mcp".into()),
            ("INPUT_HEADERS", format!("X-Ok: fine-value\n{API_KEY}\n")),
        ],
        Duration::from_secs(30),
    );
    let shown = format!("{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(ran.code, Some(2), "{shown}");
    assert!(shown.contains("headers line 2"), "{shown}");
    assert!(!shown.contains(API_KEY), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The value of `key` in the `GITHUB_OUTPUT` file the script wrote in `dir`.
fn output(dir: &Path, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("github_output")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}=")))
        .map(str::to_string)
}

/// The script's inputs for a short run against `url` replaying `corpus`.
fn with_corpus(url: &str, dir: &Path, corpus: &str, fail: &str) -> Vec<(&'static str, String)> {
    vec![
        ("INPUT_URL", url.to_string()),
        ("INPUT_CASES", "30".into()),
        ("INPUT_SEED", "3".into()),
        ("INPUT_MAX_TIME", "60".into()),
        ("INPUT_SARIF", dir.join("out.sarif").display().to_string()),
        ("INPUT_CORPUS", corpus.to_string()),
        ("INPUT_FAIL_ON_FINDINGS", fail.to_string()),
    ]
}

/// One run of the script with a `corpus` input, and what it must show.
struct CorpusRun {
    serve: &'static [&'static str],
    corpus: String,
    fail_on_findings: &'static str,
    step: i32,
    run: &'static str,
    replay: &'static str,
    line: &'static str,
}

#[test]
fn a_corpus_input_is_replayed_after_the_run_and_gates_the_step() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
    let runs = [
        // the reference passes the committed corpus
        CorpusRun {
            serve: &[],
            corpus: corpus.into(),
            fail_on_findings: "true",
            step: 0,
            run: "0",
            replay: "0",
            line: "replay: ",
        },
        // a mutant that serves foreign Origins fails the corpus's Origin cases; with
        // fail-on-findings false the step stays green and the output says so
        CorpusRun {
            serve: &["--mutant", "origin-unchecked"],
            corpus: corpus.into(),
            fail_on_findings: "false",
            step: 0,
            run: "1",
            replay: "1",
            line: "::warning title=mcpdiff::the corpus replay found",
        },
        // a corpus folder that is not there: the replay could not be done, the step fails
        CorpusRun {
            serve: &[],
            corpus: "no-such-corpus".into(),
            fail_on_findings: "false",
            step: 2,
            run: "0",
            replay: "2",
            line: "::error title=mcpdiff::the corpus replay could not be done",
        },
    ];
    for (i, c) in runs.iter().enumerate() {
        let server = Server::start_with(c.serve);
        let dir = scratch(&format!("corpus-{i}"));
        let inputs = with_corpus(&server.url, &dir, &c.corpus, c.fail_on_findings);
        let ran = run_script(&dir, &inputs, Duration::from_secs(150));
        drop(server);
        let shown = format!("{}\n{}", ran.stdout, ran.stderr);
        assert_eq!(ran.code, Some(c.step), "{shown}");
        assert_eq!(output(&dir, "exit-code").as_deref(), Some(c.run), "{shown}");
        let replay = output(&dir, "replay-exit-code");
        assert_eq!(replay.as_deref(), Some(c.replay), "{shown}");
        assert!(ran.stdout.contains(c.line), "{shown}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
