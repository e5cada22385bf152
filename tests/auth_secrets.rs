//! Secrets of protected targets: no output of a run (terminal, --json, --html, --markdown,
//! --junit, corpus, baseline) contains a --header value or the foreign token, `card` sends the
//! header too, and a secret a server echoes back is redacted from every output.

mod common;

use common::files;
use common::protected::*;
use common::raw_http::read_request;
use mcpdiff::serve::Variant;
use mcpdiff_oracle::reference::mutants;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

/// The flags that make a run write every output it has, into `dir`.
fn every_output(dir: &Path) -> Vec<String> {
    let p = |f: &str| dir.join(f).to_str().expect("utf-8 path").to_string();
    let mut out = vec!["--verbose".to_string()];
    for (flag, file) in [
        ("--json", "r.json"),
        ("--html", "r.html"),
        ("--markdown", "r.md"),
        ("--junit", "r.xml"),
        ("--save-corpus", "corpus"),
    ] {
        out.extend([flag.to_string(), p(file)]);
    }
    out
}

/// `mcpdiff run` with `args`, the credentials and every output flag (into `dir`), checked to
/// exit 1 (the targets have findings).
async fn run_writing_everything(args: &[&str], dir: &Path) -> Output {
    let out = mcpdiff(with_credentials(
        std::iter::once("run".to_string())
            .chain(args.iter().map(|a| a.to_string()))
            .chain(every_output(dir))
            .collect(),
    ))
    .await;
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Assert that no text in `named` (a name for the message, the bytes) holds any of `secrets`.
fn assert_free_of(named: &[(String, Vec<u8>)], secrets: &[&str]) {
    for (name, bytes) in named {
        let text = String::from_utf8_lossy(bytes);
        for secret in secrets {
            assert!(
                !text.contains(secret),
                "{name} contains a secret ({secret})"
            );
        }
    }
}

/// Every file under `dir`, each with its path as its name.
fn written_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files(dir)
        .iter()
        .map(|f| {
            (
                f.display().to_string(),
                std::fs::read(f).expect("read output"),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_output_contains_a_secret() {
    // a protected server with an ordinary defect (findings, reproducers, corpus entries) and
    // one with an auth defect that involves the token itself (it is sent in the query)
    let a = protected(Variant::Mutant(&mutants::ORIGIN_UNCHECKED)).await;
    let b = protected(Variant::Mutant(&mutants::AUTH_QUERY_TOKEN)).await;
    let dir = temp_dir("secrets");
    let p = |f: &str| dir.join(f).to_str().expect("utf-8 path").to_string();
    let out =
        run_writing_everything(&[&a.url, &b.url, "--cases", "150", "--seed", "4"], &dir).await;
    let baseline = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["baseline", &p("r.json")])
        .output()
        .expect("mcpdiff baseline");
    std::fs::write(dir.join("known.toml"), &baseline.stdout).expect("write baseline");
    let replay = mcpdiff(with_credentials(vec![
        "replay".into(),
        p("corpus"),
        a.url.clone(),
    ]))
    .await;
    // replay sent the --header too: the protected mutant answered, it did not challenge
    let replayed = String::from_utf8_lossy(&replay.stdout);
    assert!(!replayed.contains("observed 401"), "{replayed}");
    let written = files(&dir);
    let corpus_files = written
        .iter()
        .filter(|f| f.starts_with(dir.join("corpus")))
        .count();
    assert!(
        corpus_files > 0,
        "the run saved no corpus entry: {written:?}"
    );
    let mut texts: Vec<(String, Vec<u8>)> = vec![
        ("run stdout".into(), out.stdout.clone()),
        ("run stderr".into(), out.stderr.clone()),
        ("replay stdout".into(), replay.stdout.clone()),
        ("replay stderr".into(), replay.stderr.clone()),
    ];
    texts.extend(written_files(&dir));
    assert_free_of(&texts, &[TOKEN, FOREIGN]);
    // the reproducers name the variables instead, and the report says to set them
    let r = report(&dir.join("r.json"));
    let reproducers: Vec<&str> = r["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .flat_map(|t| t["findings"].as_array().expect("findings").iter())
        .filter_map(|f| f["reproducer"].as_str())
        .collect();
    assert!(
        reproducers
            .iter()
            .any(|r| r.contains("${MCPDIFF_AUTHORIZATION}")),
        "{reproducers:?}"
    );
    assert!(
        reproducers
            .iter()
            .any(|r| r.contains("access_token='\"${MCPDIFF_AUTHORIZATION#* }\"")),
        "{reproducers:?}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("set MCPDIFF_AUTHORIZATION="), "{stdout}");
    a.shutdown().await;
    b.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn card_sends_the_header_too() {
    let s = protected(Variant::Reference).await;
    let origin = s.url.trim_end_matches("/mcp").to_string();
    let status = |out: &Output| -> Value {
        let v: Value = serde_json::from_slice(&out.stdout).expect("card --json");
        v["remotes"][0]["status"].clone()
    };
    let without = mcpdiff(strings(&["card", &origin, "--json"])).await;
    let with = mcpdiff(with_credentials(strings(&["card", &origin, "--json"]))).await;
    assert_eq!(
        status(&without),
        401,
        "{}",
        String::from_utf8_lossy(&without.stdout)
    );
    // authorized, the endpoint refuses the plain GET itself
    assert_eq!(
        status(&with),
        405,
        "{}",
        String::from_utf8_lossy(&with.stdout)
    );
    assert!(!String::from_utf8_lossy(&with.stdout).contains(TOKEN));
    s.shutdown().await;
}

/// A server that echoes the request's `Authorization` value in every answer body (as some
/// error pages do): the value then sits in observations, and only the redaction pass at the
/// writers keeps it out of the outputs.
async fn echo_server() -> (String, tokio::task::JoinHandle<()>) {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}/mcp", listener.local_addr().expect("addr"));
    let task = tokio::spawn(async move {
        // bounded: the test's run sends a few hundred requests at most
        for _ in 0..2000 {
            let Ok((mut s, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let Some((head, _)) = read_request(&mut s, Duration::from_secs(2)).await else {
                    return;
                };
                let auth = head
                    .lines()
                    .find_map(|l| {
                        l.strip_prefix("Authorization: ")
                            .or_else(|| l.strip_prefix("authorization: "))
                    })
                    .unwrap_or("")
                    .to_string();
                let body = serde_json::json!({"jsonrpc": "2.0", "id": 1,
                    "error": {"code": -32600, "message": format!("bad credential {auth}")}})
                .to_string();
                let answer = format!(
                    "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = s.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_echoed_secret_is_redacted_from_every_output() {
    let (url, task) = echo_server().await;
    let dir = temp_dir("echo");
    let out = run_writing_everything(&[&url, "--cases", "40", "--shrink-budget", "5"], &dir).await;
    let json = std::fs::read_to_string(dir.join("r.json")).expect("json");
    // the echo reached the report, redacted
    assert!(
        json.contains("bad credential $MCPDIFF_AUTHORIZATION"),
        "no echo recorded"
    );
    let mut texts: Vec<(String, Vec<u8>)> = vec![
        ("run stdout".into(), out.stdout.clone()),
        ("run stderr".into(), out.stderr.clone()),
    ];
    texts.extend(written_files(&dir));
    assert_free_of(&texts, &[TOKEN]);
    task.abort();
    let _ = std::fs::remove_dir_all(dir);
}
