//! The authorization rules (`AUTH-*`) beside the others: `mcpdiff rules --coverage` lists
//! them with what judges them (the probes of the authorization family, the metadata
//! fetches), and `run --save-corpus` keeps their findings as corpus entries that `replay`
//! re-judges and sends again.

mod common;

use common::protected::*;
use mcpdiff::serve::Variant;
use std::path::Path;
use std::process::Command;

#[test]
fn coverage_lists_the_auth_rules_with_their_probes() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["rules", "--coverage", "--json"])
        .output()
        .expect("run mcpdiff");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let total = v["auth_probes_total"].as_u64().unwrap_or(0);
    assert!(total >= 8, "the family with --foreign-token: {total}");
    let rules = v["auth_rules"].as_array().expect("auth_rules");
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["rule"].as_str()).collect();
    let expected: Vec<&str> = mcpdiff_oracle::rules::auth::AUTH_JUDGED_IDS
        .iter()
        .map(|r| r.0)
        .collect();
    let mut sorted = expected.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted);
    let count = |id: &str, field: &str| {
        rules
            .iter()
            .find(|r| r["rule"] == id)
            .and_then(|r| r[field].as_u64())
            .unwrap_or(0)
    };
    // no credential, empty, malformed, Basic scheme, unknown token: none may get data
    assert_eq!(count("AUTH-NO-DATA", "probes"), 5);
    assert_eq!(count("AUTH-AUDIENCE", "probes"), 1);
    assert_eq!(count("AUTH-PRM", "metadata_fetches"), 1);
    // the table shows them too
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["rules", "--coverage"])
        .output()
        .expect("run mcpdiff");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("Authorization rules"), "{table}");
    assert!(
        table.lines().any(|l| l.starts_with("AUTH-STATUS")),
        "{table}"
    );
}

fn corpus_files(dir: &Path, prefix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix))
        .collect()
}

/// Lines of a replay's output about files of `rule` with status `status`.
fn said(stdout: &str, status: &str, rule: &str) -> bool {
    stdout
        .lines()
        .any(|l| l.starts_with(status) && l.contains(&format!("{rule}-")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_findings_are_saved_to_the_corpus_and_replayed() {
    let dir = temp_dir("corpus");
    let corpus = dir.to_string_lossy().into_owned();
    let mutant = |n: &str| Variant::mutant(n).expect("an auth mutant");
    // a probe finding (the token under the Basic scheme gets data) and a metadata finding
    // (the document names another resource)
    let scheme = protected(mutant("auth-scheme-unchecked")).await;
    let foreign = protected(mutant("auth-resource-foreign")).await;
    let reference = protected(Variant::Reference).await;
    for s in [&scheme, &foreign] {
        let args = strings(&["run", &s.url, "--quiet", "--seed", "1", "--cases", "10"]);
        let mut args = with_credentials(args);
        args.extend(strings(&["--no-probes", "--save-corpus", &corpus]));
        let out = mcpdiff(args).await;
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
    }
    let no_data = corpus_files(&dir, "AUTH-NO-DATA-");
    let prm = corpus_files(&dir, "AUTH-PRM-");
    assert_eq!((no_data.len(), prm.len()), (1, 1), "{no_data:?} {prm:?}");
    let entry = std::fs::read_to_string(dir.join(&no_data[0])).expect("entry");
    assert!(
        !entry.contains(TOKEN),
        "the token is a placeholder: {entry}"
    );
    // re-judged with today's authorization judge: no drift
    let out = mcpdiff(strings(&["replay", &corpus])).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("DRIFT"), "{stdout}");
    // without the credential its probe names, the Basic-scheme case is not sent
    let out = mcpdiff(strings(&["replay", &corpus, &scheme.url])).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("not sent") && l.contains("AUTH-NO-DATA-")),
        "{stdout}"
    );
    assert!(!said(&stdout, "fixed", "AUTH-NO-DATA"), "{stdout}");
    // sent again: each mutant still fails its own rule and passes the other's; the protected
    // reference passes both (they were recorded on other URLs: passing, not "fixed")
    let replay = |url: &str| with_credentials(strings(&["replay", &corpus, url, "--verbose"]));
    let out = mcpdiff(replay(&scheme.url)).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(said(&stdout, "still failing", "AUTH-NO-DATA"), "{stdout}");
    assert!(said(&stdout, "passing", "AUTH-PRM"), "{stdout}");
    let out = mcpdiff(replay(&foreign.url)).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(said(&stdout, "still failing", "AUTH-PRM"), "{stdout}");
    assert!(said(&stdout, "passing", "AUTH-NO-DATA"), "{stdout}");
    let out = mcpdiff(replay(&reference.url)).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(said(&stdout, "passing", "AUTH-NO-DATA"), "{stdout}");
    assert!(said(&stdout, "passing", "AUTH-PRM"), "{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for s in [scheme, foreign, reference] {
        s.shutdown().await;
    }
    let _ = std::fs::remove_dir_all(dir);
}
