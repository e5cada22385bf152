//! The report-file commands (`mcpdiff report`, `mcpdiff baseline`) on a saved run, and the
//! revision probe over HTTP. The saved run is `tests/data/run-seed1.json` (`mcpdiff run
//! --cases 300 --seed 1 --json`: the reference server and four mutants).

use mcpdiff::baseline::Baseline;
use mcpdiff::report::RunReport;
use mcpdiff::runner::revision::{probe, RevisionVerdict};
use mcpdiff::runner::NetSender;
use mcpdiff::serve::{spawn, Variant};
use mcpdiff::transport::{Client, Endpoint, Limits};
use std::process::Command;
use std::sync::Arc;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/run-seed1.json");

fn fixture() -> RunReport {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture present");
    serde_json::from_str(&text).expect("fixture is mcpdiff-run/1")
}

#[test]
fn report_command_renders_a_saved_run_and_writes_the_files() {
    let dir = std::env::temp_dir().join(format!("mcpdiff-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (md, xml, page) = (dir.join("r.md"), dir.join("r.xml"), dir.join("r.html"));
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .arg("report")
        .arg(FIXTURE)
        .arg("--markdown")
        .arg(&md)
        .arg("--junit")
        .arg(&xml)
        .arg("--html")
        .arg(&page)
        .output()
        .expect("run mcpdiff");
    assert_eq!(out.status.code(), Some(1), "the fixture has MUST findings");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("### 1. Revision"));
    for p in [&md, &xml, &page] {
        assert!(p.exists(), "{} written", p.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A saved run naming a rule this build's table does not have (an older or newer mcpdiff):
/// one line naming the file and the id, exit 2, no panic.
#[test]
fn report_command_on_an_unknown_rule_id_exits_2_naming_it() {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture present");
    let known = &fixture().targets[1].findings[0].rule;
    let renamed = text.replacen(
        &format!("\"rule\": \"{known}\""),
        "\"rule\": \"SHTTP-NO-SUCH-RULE\"",
        1,
    );
    assert_ne!(
        renamed, text,
        "the fixture names {known} as a finding's rule"
    );
    let path = std::env::temp_dir().join(format!("mcpdiff-unknown-{}.json", std::process::id()));
    std::fs::write(&path, renamed).expect("write");
    for cmd in ["report", "baseline"] {
        let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
            .arg(cmd)
            .arg(&path)
            .output()
            .expect("run mcpdiff");
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{cmd}: one line: {err}");
        assert!(
            err.contains(&path.display().to_string())
                && err.contains("unknown rule id \"SHTTP-NO-SUCH-RULE\""),
            "{cmd}: names the file and the id: {err}"
        );
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn report_command_on_a_corrupt_file_exits_2_naming_it() {
    let path = std::env::temp_dir().join(format!("mcpdiff-corrupt-{}.json", std::process::id()));
    std::fs::write(&path, "{\"schema\": \"mcpdiff-run/1\", \"targets\": [").expect("write");
    for cmd in ["report", "baseline"] {
        let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
            .arg(cmd)
            .arg(&path)
            .output()
            .expect("run mcpdiff");
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{cmd}: one line: {err}");
        assert!(
            err.contains(&path.display().to_string()),
            "{cmd}: names the file: {err}"
        );
    }
    let _ = std::fs::remove_file(&path);
    let missing = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["report", "/nonexistent/r.json"])
        .output()
        .expect("run mcpdiff");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/r.json"));
}

#[test]
fn baseline_command_lists_every_finding_in_the_format_baseline_reads() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["baseline", FIXTURE])
        .output()
        .expect("run mcpdiff");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let b: Baseline = toml::from_str(&text).expect("the baseline format src/baseline.rs reads");
    let rep = fixture();
    let total: usize = rep.targets.iter().map(|t| t.findings.len()).sum();
    assert_eq!(b.known.len(), total);
    for t in &rep.targets {
        for f in &t.findings {
            assert!(b.knows(&t.name, &t.url, &f.rule), "{} {}", t.name, f.rule);
        }
    }
}

async fn probe_variant(v: Variant) -> RevisionVerdict {
    let server = spawn(v, "127.0.0.1:0".parse().expect("literal"))
        .await
        .expect("bind");
    let endpoint = Endpoint::parse(&server.url).expect("server url parses");
    let sender = NetSender {
        client: Client::new(Limits::default()),
        endpoint: Arc::new(endpoint.clone()),
    };
    let ev = probe(&endpoint.path, |c| {
        let s = sender.clone();
        async move { mcpdiff::runner::Sender::send(&s, c).await }
    })
    .await;
    server.shutdown().await;
    assert!(!ev.evidence.is_empty());
    ev.verdict
}

#[tokio::test]
async fn revision_probe_over_http() {
    assert_eq!(
        probe_variant(Variant::Reference).await,
        RevisionVerdict::Modern
    );
    assert_eq!(
        probe_variant(Variant::Null).await,
        RevisionVerdict::Undetermined
    );
}
