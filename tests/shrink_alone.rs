//! A finding's reproducer is sent once more, alone on a new connection, before it is
//! reported: a maintainer will send it alone. The `trusts-known-connection` mutant serves a
//! request without `_meta` on a connection that already carried a good one, so in a run its
//! BASE-META-REQUIRED-400 failure rests on the requests before it; sent alone, the shrunk
//! case is refused as it should be. The report says the reproducer is none alone, and the
//! corpus does not keep it as a single-request entry (replayed alone, it would pass the
//! target that failed it). Findings that do reproduce alone carry no such note.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("mcpdiff-alone-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    p
}

#[test]
fn a_reproducer_that_fails_only_on_a_reused_connection_says_so_and_is_not_saved() {
    let (json, corpus) = (temp("report.json"), temp("corpus"));
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args([
            "run",
            "--mutants",
            "trusts-known-connection,no-base64-decode",
        ])
        .args(["--cases", "300", "--seed", "1", "--quiet", "--json"])
        .arg(&json)
        .arg("--save-corpus")
        .arg(&corpus)
        .output()
        .expect("run mcpdiff");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let report: Value =
        serde_json::from_slice(&std::fs::read(&json).expect("the report")).expect("JSON");
    let findings = |target: &str| -> Vec<Value> {
        let targets = report["targets"].as_array().expect("targets");
        let t = targets.iter().find(|t| t["name"] == target);
        t.and_then(|t| t["findings"].as_array())
            .cloned()
            .unwrap_or_default()
    };

    let stateful = findings("mutant:trusts-known-connection");
    let warm = stateful
        .iter()
        .find(|f| f["rule"] == "BASE-META-REQUIRED-400")
        .unwrap_or_else(|| panic!("no BASE-META-REQUIRED-400 finding: {stateful:?}"));
    let note = warm["alone"].as_str().unwrap_or_default();
    // it names what the target answered alone: the refusal the rule asks for
    assert!(
        note.contains("answered 400 application/json error -32602"),
        "{warm}"
    );
    // every renderer shows it beside the original observation
    assert!(
        stdout.contains("not a reproducer alone: sent again alone"),
        "{stdout}"
    );

    // the findings of a mutant whose failures do not depend on the connection reproduce alone
    let stateless = findings("mutant:no-base64-decode");
    assert!(!stateless.is_empty());
    for f in &stateless {
        assert!(f.get("alone").is_none(), "{f}");
    }

    // the corpus keeps every reported finding, and says it left the others out (the one that
    // did not fail alone, and benign-input findings whose plain twin failed as well)
    assert!(
        stderr.contains(" not saved (did not fail again sent alone"),
        "{stderr}"
    );
    let saved: Vec<Value> = std::fs::read_dir(&corpus)
        .expect("the corpus folder")
        .filter_map(|e| e.ok())
        .filter_map(|e| serde_json::from_slice(&std::fs::read(e.path()).ok()?).ok())
        .collect();
    let kept = |rule: &str, target: &str| {
        saved.iter().any(|e| {
            e["rules"][0] == rule
                && e["targets"]
                    .as_array()
                    .is_some_and(|ts| ts.iter().any(|t| t["target"] == target))
        })
    };
    assert!(!kept(
        "BASE-META-REQUIRED-400",
        "mutant:trusts-known-connection"
    ));
    assert!(kept(
        "BASE-STATELESS-NO-PRIOR",
        "mutant:trusts-known-connection"
    ));
    for f in &stateless {
        let rule = f["rule"].as_str().expect("a rule id");
        assert!(kept(rule, "mutant:no-base64-decode"), "{rule}");
    }
    let _ = std::fs::remove_file(&json);
    let _ = std::fs::remove_dir_all(&corpus);
}
