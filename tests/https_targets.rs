//! `https://` targets end to end on loopback: `mcpdiff serve --tls-cert/--tls-key`
//! with certificates generated here (rcgen), `mcpdiff run`/`card` against them with
//! `--cacert` or `--insecure`, the one-line TLS failures (unknown issuer, name mismatch, plain
//! HTTP behind https://), keep-alive over TLS, and the `openssl s_client` reproducer run as
//! written.

use mcpdiff::transport::{reproducer_tls, Client, Endpoint, Limits, Tls, TlsOptions};
use mcpdiff_oracle::Case;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

mod common;

use common::{cert_dir, cert_dir_ca, serve, tls_serve, BIN};

fn run(url: &str, extra: &[&str], json: Option<&Path>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(["run", url, "--quiet", "--cases", "60", "--seed", "3"])
        .args(extra);
    if let Some(j) = json {
        cmd.arg("--json").arg(j);
    }
    cmd.output().expect("run mcpdiff")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn findings(json: &Path) -> (Vec<String>, Value) {
    let report: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let t = report["targets"][0].clone();
    let mut rules: Vec<String> = t["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap().to_string())
        .collect();
    rules.sort();
    (rules, t)
}

#[test]
fn https_run_finds_what_the_plain_run_finds() {
    let dir = cert_dir("run", &["localhost", "127.0.0.1"]);
    let cert = dir.join("cert.pem");
    let cert = cert.to_str().unwrap();
    let tls = tls_serve(&dir, &["--mutant", "origin-unchecked"]);
    let plain = serve(&["--mutant", "origin-unchecked"]);
    assert!(tls.url.starts_with("https://127.0.0.1:"), "{}", tls.url);

    let plain_json = dir.join("plain.json");
    let out = run(&plain.url, &[], Some(&plain_json));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let (plain_rules, _) = findings(&plain_json);
    assert!(plain_rules.contains(&"SHTTP-ORIGIN-403".to_string()));

    let verified_json = dir.join("verified.json");
    let out = run(&tls.url, &["--cacert", cert], Some(&verified_json));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let (rules, t) = findings(&verified_json);
    assert_eq!(rules, plain_rules, "same seed, same server: same findings");
    assert_eq!(t["tls"]["verified"], true);
    assert!(t["tls"]["cacert"].as_str().unwrap().ends_with("cert.pem"));
    let repro = t["findings"][0]["reproducer"].as_str().unwrap();
    assert!(
        repro.contains("--cacert '") && repro.contains("'https://127.0.0.1:"),
        "{repro}"
    );
    assert!(text(&out.stdout).contains("TLS: certificate verified against"));

    let insecure_json = dir.join("insecure.json");
    let out = run(&tls.url, &["--insecure"], Some(&insecure_json));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let (rules, t) = findings(&insecure_json);
    assert_eq!(rules, plain_rules);
    assert_eq!(t["tls"]["verified"], false);
    let repro = t["findings"][0]["reproducer"].as_str().unwrap();
    assert!(repro.contains(" -k "), "{repro}");
    assert!(text(&out.stdout).contains("TLS: certificate NOT verified (--insecure)"));
    assert!(text(&out.stderr).contains("NOT verified"));

    // the card scan over https, same trust flags
    let origin = tls.url.trim_end_matches("/mcp");
    let out = Command::new(BIN)
        .args(["card", origin, "--cacert", cert])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).starts_with("PASS  https://"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The one line a failed run prints (stderr, exit 2).
fn refused(url: &str, extra: &[&str]) -> String {
    let out = run(url, extra, None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    // the target still gets its entry (not tested: unreachable), never a finding
    let stdout = text(&out.stdout);
    assert!(
        stdout.is_empty() || stdout.contains("not determined: unreachable"),
        "{stdout}"
    );
    assert!(!stdout.contains("MUST"), "{stdout}");
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("TLS")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    // "mcpdiff: URL not tested: TLS: ..." (the run names the target); compare the cause
    let cause = lines[0].find("TLS:").map_or(lines[0], |i| &lines[0][i..]);
    format!("mcpdiff: {cause}")
}

#[test]
fn tls_failures_end_the_run_with_their_cause() {
    let dir = cert_dir("fail", &["localhost"]);
    let cert = dir.join("cert.pem");
    let cert = cert.to_str().unwrap();
    let tls = tls_serve(&dir, &[]);
    let port = tls.url.rsplit(':').next().unwrap().trim_end_matches("/mcp");

    let line = refused(&tls.url, &[]);
    assert_eq!(
        line,
        format!(
            "mcpdiff: TLS: certificate of 127.0.0.1:{port} is signed by an unknown issuer; \
             pass --cacert FILE or --insecure"
        )
    );
    // trusted now, but issued for another name than the one dialled
    let line = refused(&tls.url, &["--cacert", cert]);
    assert_eq!(
        line,
        "mcpdiff: TLS: certificate is for `localhost`, not `127.0.0.1`"
    );
    // plain HTTP behind an https:// URL
    let plain = serve(&[]);
    let url = plain.url.replace("http://", "https://");
    let line = refused(&url, &[]);
    assert!(
        line.starts_with("mcpdiff: TLS: handshake refused by 127.0.0.1:")
            && line.contains("(server speaks plain HTTP?)"),
        "{line}"
    );
    // a --cacert that is not a certificate is refused before anything is sent
    let out = run(
        &tls.url,
        &["--cacert", dir.join("key.pem").to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("holds no certificate"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_alive_over_tls_and_the_s_client_reproducer_runs_as_written() {
    // CA:TRUE, as `openssl req -x509` makes it: trusted because --cacert names this very
    // certificate (webpki alone refuses a CA as an end entity; curl and openssl accept it)
    let dir = cert_dir_ca("repro", &["localhost", "127.0.0.1"], true);
    let served = tls_serve(&dir, &[]);
    let endpoint = Endpoint::parse(&served.url).unwrap();
    let options = TlsOptions {
        cacert: Some(dir.join("cert.pem")),
        insecure: false,
    };
    let client = Client::with_tls(Limits::default(), Tls::new(options.clone()).unwrap());
    let case = Case::post(
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
        r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}"#,
    );
    let first = client.exchange(&case, &endpoint).await;
    let second = client.exchange(&case, &endpoint).await;
    let status = first
        .observation
        .http()
        .map(|a| a.status)
        .expect("an HTTP answer");
    assert_eq!(second.observation, first.observation);
    assert!(
        second.reused_connection,
        "the TLS connection was kept alive"
    );

    // a case curl cannot send (a repeated field): the exact bytes through s_client
    let mut raw = case.clone();
    raw.headers.push((b"X-Dup".to_vec(), b"1".to_vec()));
    raw.headers.push((b"x-dup".to_vec(), b"2".to_vec()));
    raw.headers
        .push((b"Connection".to_vec(), b"close".to_vec()));
    let cmd = reproducer_tls(
        &raw,
        &endpoint,
        client.credentials(),
        client.tls().options(),
    );
    assert!(
        cmd.contains("| timeout 5 openssl s_client -quiet -connect '127.0.0.1:"),
        "{cmd}"
    );
    assert!(
        cmd.contains(" -CAfile '") && cmd.contains("-verify_ip '127.0.0.1'"),
        "{cmd}"
    );
    assert!(
        !cmd.contains("-servername"),
        "no SNI for an IP literal: {cmd}"
    );
    if Command::new("openssl").arg("version").output().is_err() {
        return; // no openssl here: the string checks above still ran
    }
    let out = tokio::task::spawn_blocking(move || {
        Command::new("sh").arg("-c").arg(&cmd).output().unwrap()
    })
    .await
    .unwrap();
    let got = text(&out.stdout);
    assert!(
        got.starts_with(&format!("HTTP/1.1 {status} ")),
        "{got}\n{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_protected_resource_over_https() {
    // `serve --tls-cert --auth` together (ServeOptions): the run needs both --cacert and -H
    let dir = cert_dir("auth", &["localhost", "127.0.0.1"]);
    let cert = dir.join("cert.pem");
    let cert = cert.to_str().unwrap();
    let served = tls_serve(
        &dir,
        &["--auth", "s3cr3t-tok", "--mutant", "origin-unchecked"],
    );
    let out = run(&served.url, &["--cacert", cert], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(
        said.contains("resource_metadata: https://127.0.0.1:"),
        "{said}"
    );
    let json = dir.join("auth.json");
    let header = ["--cacert", cert, "-H", "Authorization: Bearer s3cr3t-tok"];
    let out = run(&served.url, &header, Some(&json));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let (rules, _) = findings(&json);
    assert!(rules.contains(&"SHTTP-ORIGIN-403".to_string()), "{rules:?}");
    let written = std::fs::read_to_string(&json).unwrap();
    assert!(!written.contains("s3cr3t-tok") && !text(&out.stdout).contains("s3cr3t-tok"));
    let _ = std::fs::remove_dir_all(&dir);
}
