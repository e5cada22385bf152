//! The client pipeline end to end, with no SDK installed: the oracle's reference client runs
//! as a client driver (`mcpdiff reference-client`) against the recording server. The
//! reference scores clean; each client mutant is caught by its rule and only that rule;
//! a finding shrinks to one tool; a driver that hangs is killed at the time limit.

use mcpdiff::clients::{self, ClientStatus};
use mcpdiff::targets::Manifest;
use mcpdiff_oracle::client_judge::{calibration_set, ClientMutant, MUTANTS};
use mcpdiff_oracle::rules::RuleId;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

/// A client target in a fresh temp folder whose driver is `command`.
fn target(dir: &Path, name: &str, command: &str) -> Manifest {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).expect("temp folder");
    let toml = format!(
        "name = \"{name}\"\nkind = \"client\"\n[sdk]\npackage = \"mcpdiff\"\nversion = \"0\"\n\
         registry = \"none\"\n[install]\nrequires = []\ncommands = []\ncheck = \".\"\n\
         [start]\ncommand = \"{command}\"\nendpoint = \"/mcp\"\n"
    );
    std::fs::write(folder.join("target.toml"), toml).expect("manifest");
    Manifest::load(&folder).expect("manifest loads")
}

fn reference_driver(dir: &Path, mutant: Option<ClientMutant>) -> Manifest {
    let bin = env!("CARGO_BIN_EXE_mcpdiff");
    let (name, flag) = match mutant {
        Some(m) => (m.name(), format!(" --mutant {}", m.name())),
        None => ("reference".to_string(), String::new()),
    };
    target(
        dir,
        &name,
        &format!("{bin} reference-client{flag} {{url}} {{calls}}"),
    )
}

fn tempdir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("mcpdiff-clients-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reference_clean_and_every_mutant_caught_over_http() {
    let dir = tempdir("mutants");
    let set = calibration_set();
    let limit = Duration::from_secs(30);
    let j = clients::run_once(&reference_driver(&dir, None), &set, limit.into())
        .await
        .expect("reference runs");
    assert!(j.modern, "the reference speaks 2026-07-28");
    assert_eq!(
        j.outcome.kept.as_ref().map(Vec::len),
        Some(set.valid_tools().count())
    );
    assert!(j.findings.is_empty(), "{:#?}", j.findings);
    let calls = j
        .requests
        .iter()
        .filter(|r| r.body.windows(10).any(|w| w == b"tools/call"))
        .count();
    assert!(calls >= 10, "only {calls} tools/call requests recorded");

    for &(mutant, rule) in MUTANTS {
        let j = clients::run_once(&reference_driver(&dir, Some(mutant)), &set, limit.into())
            .await
            .expect("mutant runs");
        let rules: BTreeSet<RuleId> = j.findings.iter().map(|f| f.rule).collect();
        assert_eq!(
            rules,
            BTreeSet::from([rule]),
            "{mutant:?}: {:#?}",
            j.findings
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finding_shrinks_to_one_tool_and_one_argument() {
    let dir = tempdir("shrink");
    let m = reference_driver(&dir, Some(ClientMutant::SentinelPlain));
    let set = calibration_set();
    let rows = clients::run_all(&[m], &set, Duration::from_secs(30).into(), 12, &|_| {}).await;
    let row = &rows[0];
    assert_eq!(row.verdict, ClientStatus::Fail);
    let f = &row.findings[0];
    assert_eq!(f.rule.0, "CLIENT-B64-COLLISION");
    let repro = f.repro.as_ref().expect("shrunk");
    assert!(repro.reproduced);
    // the unannotated `query` property and the description are gone; the value stays
    let props = repro.definition["inputSchema"]["properties"]
        .as_object()
        .expect("props");
    assert_eq!(props.keys().collect::<Vec<_>>(), vec!["region"]);
    assert!(repro.definition.get("description").is_none());
    assert_eq!(
        repro.arguments,
        Some(serde_json::json!({"region": "=?base64?literal?="}))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_driver_is_killed_at_the_limit() {
    let dir = tempdir("hang");
    let m = target(&dir, "hang", "sh -c 'sleep 60' {url} {calls}");
    let t = std::time::Instant::now();
    let rows = clients::run_all(
        &[m],
        &calibration_set(),
        Duration::from_secs(2).into(),
        0,
        &|_| {},
    )
    .await;
    assert!(
        t.elapsed() < Duration::from_secs(15),
        "took {:?}",
        t.elapsed()
    );
    assert_eq!(rows[0].verdict, ClientStatus::Error);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_retry_probe_passes_the_reference_and_catches_no_retry() {
    let dir = tempdir("retry");
    let limit = Duration::from_secs(30);
    let (clean, _) = clients::retry_probe(&reference_driver(&dir, None), limit.into())
        .await
        .expect("probe runs");
    assert!(clean.is_empty(), "{clean:#?}");
    let bin = env!("CARGO_BIN_EXE_mcpdiff");
    let m = target(
        &dir,
        "no-retry",
        &format!("{bin} reference-client --mutant no-retry {{url}} {{calls}}"),
    );
    let (caught, _) = clients::retry_probe(&m, limit.into())
        .await
        .expect("probe runs");
    let rules: Vec<&str> = caught.iter().map(|f| f.rule.0).collect();
    assert_eq!(rules, vec!["CLIENT-MISMATCH-RETRY"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every installed client SDK target runs end to end against the calibration set: it speaks
/// 2026-07-28, lists the tools and calls the kept ones (what it does wrong is the report's
/// business, not this test's). Targets not installed are skipped with a message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn installed_client_targets_run_end_to_end() {
    use mcpdiff::targets::manifest::{self, TargetKind};
    let all = manifest::of_kind(
        manifest::load_all(&manifest::targets_dir()).expect("manifests"),
        TargetKind::Client,
    );
    let set = calibration_set();
    for m in all {
        if !m.installed() {
            eprintln!(
                "skipped: client target {} is not installed (mcpdiff targets install {})",
                m.name, m.name
            );
            continue;
        }
        let j = clients::run_once(&m, &set, Duration::from_secs(90).into())
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", m.name));
        assert!(j.modern, "{}: never spoke 2026-07-28", m.name);
        assert!(
            j.outcome.kept.is_some(),
            "{}: {:?}",
            m.name,
            j.outcome.errors
        );
        let calls = j
            .requests
            .iter()
            .filter(|r| r.body.windows(12).any(|w| w == b"\"tools/call\""))
            .count();
        assert!(calls >= 10, "{}: only {calls} tools/call requests", m.name);
    }
}
