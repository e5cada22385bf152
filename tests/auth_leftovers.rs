//! The authorization rules (`AUTH-*`) beside the others: `mcpdiff rules --coverage` lists
//! them with what judges them (the probes of the authorization family, the metadata
//! fetches), and `run --save-corpus` keeps their findings as corpus entries that `replay`
//! re-judges and sends again.

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
