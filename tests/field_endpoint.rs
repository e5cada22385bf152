//! A field-shaped endpoint on loopback: HTTPS with a certificate made
//! here, bearer authorization, and a tool that takes 20 s, all served by one
//! `mcpdiff serve --tls-cert --tls-key --auth --slow-tool-ms` child.
//! - without `--header` the run stops with exit 2, prints the line to add, and judges nothing;
//! - with `--header` and `--cacert` the conformant server draws no finding (the slow calls are
//!   "not determined: timed out", never findings);
//! - the same server with a mutant that serves a foreign `Origin` is caught on its rule;
//! - the token is in no output of the run (stdout, stderr, every report, the corpus);
//! - `--max-time 5` ends in under 10 s.

mod common;

use common::{cert_dir, files, tls_serve, Served, BIN};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const TOKEN: &str = "fieldTokenQ7xW2mZ9";

/// The field server: HTTPS, bearer `TOKEN`, and `slow_tool` answering after 20 s.
fn field_server(dir: &Path, extra: &[&str]) -> Served {
    let mut args = vec!["--auth", TOKEN, "--slow-tool-ms", "20000"];
    args.extend_from_slice(extra);
    tls_serve(dir, &args)
}

fn run(url: &str, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(["run", url, "--seed", "1"])
        .args(args)
        .output()
        .expect("run mcpdiff")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn report(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn finding_rules(rep: &Value) -> Vec<String> {
    rep["targets"][0]["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["rule"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn out_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mcpdiff-field-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn without_credentials_the_run_stops_with_the_line_to_add() {
    let dir = cert_dir("field-noauth", &["localhost", "127.0.0.1"]);
    let server = field_server(&dir, &[]);
    let cert = dir.join("cert.pem");
    let json = out_dir("noauth").join("r.json");
    let o = run(
        &server.url,
        &[
            "--cacert",
            cert.to_str().unwrap(),
            "--cases",
            "50",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(
        err.contains("--header 'Authorization: Bearer <token>'"),
        "no line to add in: {err}"
    );
    assert!(err.contains("resource_metadata"), "{err}");
    if json.exists() {
        assert!(finding_rules(&report(&json)).is_empty());
    }
}

#[test]
fn with_credentials_the_conformant_server_draws_no_finding_and_a_foreign_origin_mutant_is_caught() {
    let dir = cert_dir("field-auth", &["localhost", "127.0.0.1"]);
    let cert = dir.join("cert.pem");
    let cert = cert.to_str().unwrap();
    let header = format!("Authorization: Bearer {TOKEN}");

    // the conformant server: the 20 s tool is cut at the 5 s per-case limit, never judged
    let server = field_server(&dir, &[]);
    let out = out_dir("conformant");
    let json = out.join("r.json");
    let o = run(
        &server.url,
        &[
            "-H",
            &header,
            "--cacert",
            cert,
            "--cases",
            "150",
            "--max-time",
            "15",
            "--quiet",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let rep = report(&json);
    assert_eq!(finding_rules(&rep), Vec::<String>::new());
    assert_eq!(rep["targets"][0]["tls"]["verified"], Value::Bool(true));
    drop(server);

    // the same field server, broken on the Origin rule; every output format is written
    let server = field_server(&dir, &["--mutant", "origin-unchecked"]);
    let out = out_dir("mutant");
    let p = |f: &str| out.join(f).to_str().unwrap().to_string();
    let (json, html, md, junit, corpus) =
        (p("r.json"), p("r.html"), p("r.md"), p("r.xml"), p("corpus"));
    let o = run(
        &server.url,
        &[
            "-H",
            &header,
            "--cacert",
            cert,
            "--cases",
            "150",
            "--max-time",
            "15",
            "--json",
            &json,
            "--html",
            &html,
            "--markdown",
            &md,
            "--junit",
            &junit,
            "--save-corpus",
            &corpus,
        ],
    );
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(
        o.status.code(),
        Some(1),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    let rules = finding_rules(&report(Path::new(&json)));
    assert!(
        rules.iter().any(|r| r == "SHTTP-ORIGIN-403"),
        "foreign-Origin mutant not caught on its rule: {rules:?}"
    );
    // the secret is in no output
    assert!(!stdout.contains(TOKEN) && !stderr.contains(TOKEN));
    let written = files(&out);
    assert!(written.len() >= 5, "outputs written: {written:?}");
    for f in written {
        let bytes = std::fs::read(&f).unwrap();
        assert!(
            !text(&bytes).contains(TOKEN),
            "{} holds the token",
            f.display()
        );
    }
    // the reproducer names the variable to set instead
    assert!(stdout.contains("${MCPDIFF_AUTHORIZATION}"), "{stdout}");
}

#[test]
fn max_time_5_ends_in_under_10_seconds() {
    let dir = cert_dir("field-time", &["localhost", "127.0.0.1"]);
    let server = field_server(&dir, &[]);
    let cert = dir.join("cert.pem");
    let json = out_dir("time").join("r.json");
    let header = format!("Authorization: Bearer {TOKEN}");
    let began = Instant::now();
    let o = run(
        &server.url,
        &[
            "-H",
            &header,
            "--cacert",
            cert.to_str().unwrap(),
            "--max-time",
            "5",
            "--quiet",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    let took = began.elapsed();
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(
        json.exists(),
        "no JSON written; stderr: {}",
        text(&o.stderr)
    );
    assert!(finding_rules(&report(&json)).is_empty());
}
