//! A benign input's finding stands only if the target serves the same request without it
//! (`shrink::twin_note`). The committed entry BASE-INFO-NOT-BEHAVIOR-811524cc9929 carries
//! another client's `clientInfo` on a `tools/call` with no `name`. rmcp 3.11.0 answers it
//! 404/-32601, with and without that `clientInfo`. That answer was the entry's finding until
//! DEVIATIONS.md D-125 was amended again (a call that fails the CallToolRequest schema may be
//! refused with any standard JSON-RPC error): it now passes. A server whose answer does not
//! depend on the `clientInfo` and fails both requests (a bare 500 here) does not break «SHOULD
//! NOT use them to change the behavior», so the run reports the twin's failure in a note
//! instead. The `client-info-gated` mutant refuses only the other client: its twin is
//! served, and the finding stands.

use mcpdiff::runner::shrink::twin_note;
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::isolation::benign::without_benign;
use mcpdiff_oracle::reference::{respond_mutant, to_observation, MUTANTS};
use mcpdiff_oracle::rules::{B64_DECODE, HDR_OWS, INFO_NOT_BEHAVIOR};
use mcpdiff_oracle::{check, fixture, judge, Case, Observation};
use serde_json::{json, Value};

fn stored_case() -> Case {
    stored("BASE-INFO-NOT-BEHAVIOR-811524cc9929.json")
}

fn stored(file: &str) -> Case {
    let path = format!("{}/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
    let entry: Value =
        serde_json::from_slice(&std::fs::read(path).expect("the entry")).expect("JSON");
    serde_json::from_value(entry["request"].clone()).expect("a stored request")
}

/// A conformant `tools/list` from another client (its `clientInfo` names no mcpdiff client).
fn listed_by_another_client() -> Case {
    let mut case = conformant_case(&fixture::surface(), json!(1), "tools/list", json!({}));
    let mut body: Value = serde_json::from_slice(&case.body).expect("the conformant body");
    body["params"]["_meta"]["io.modelcontextprotocol/clientInfo"] =
        json!({"name": "other-client", "version": "0.1.0"});
    case.body = body.to_string().into_bytes();
    case
}

fn failing(case: &Case, answer: &Observation) -> Vec<String> {
    let s = fixture::surface();
    check(&judge(case, &s), answer)
        .into_iter()
        .map(|f| f.rule)
        .collect()
}

#[test]
fn a_benign_finding_whose_twin_fails_too_is_explained_away() {
    let s = fixture::surface();
    let case = stored_case();
    let plain = without_benign(&case);
    assert_ne!(plain, case, "the clientInfo is taken out");

    // rmcp 3.11.0's answer to both, as read off the server on 2026-12-06: a standard
    // JSON-RPC error to a call without `name`, accepted on both (D-125, amended again)
    let not_found: Observation = serde_json::from_value(json!({
        "outcome": "http", "status": 404, "content_type": "application/json",
        "session_id": null, "x_accel_buffering": null, "allow": null,
        "body": {"kind": "json", "value": {"jsonrpc": "2.0", "id": 1,
            "error": {"code": -32601, "message": "tools/call"}}}
    }))
    .expect("an observation");
    assert!(failing(&case, &not_found).is_empty());
    assert!(failing(&plain, &not_found).is_empty());

    // a bare 500 to both: the benign input changes nothing, the twin explains the finding
    let bare: Observation = serde_json::from_value(json!({
        "outcome": "http", "status": 500, "content_type": null,
        "session_id": null, "x_accel_buffering": null, "allow": null,
        "body": {"kind": "empty"}
    }))
    .expect("an observation");
    assert_eq!(failing(&case, &bare), ["BASE-INFO-NOT-BEHAVIOR"]);
    let note = twin_note(&s, INFO_NOT_BEHAVIOR, &plain, &bare).expect("the twin fails too");
    assert!(note.contains("500"), "{note}");
    assert!(!failing(&plain, &bare).is_empty());

    // a server that trips over the other client's clientInfo serves the plain twin (a
    // well-formed request: the stored one, without `name`, may be refused with any standard
    // JSON-RPC error, the mutant's -32600 included)
    let case = listed_by_another_client();
    let plain = without_benign(&case);
    assert_ne!(plain, case, "the clientInfo is taken out");
    let gated = MUTANTS
        .iter()
        .find(|m| m.name == "client-info-gated")
        .expect("the mutant");
    let refused = to_observation(&respond_mutant(gated, &case, &s));
    assert_eq!(failing(&case, &refused), ["BASE-INFO-NOT-BEHAVIOR"]);
    let twin = to_observation(&respond_mutant(gated, &plain, &s));
    assert_eq!(twin_note(&s, INFO_NOT_BEHAVIOR, &plain, &twin), None);
}

/// The twin keeps a sentinel whose text needs encoding: the `no-base64-decode` mutant fails
/// it on SHTTP-B64-DECODE, which explains the padding's finding and confirms the sentinel's.
#[test]
fn a_twin_failing_the_same_rule_confirms_it() {
    let s = fixture::surface();
    let case = stored("SHTTP-HDR-OWS-c9bd2edd80ff.json");
    let plain = without_benign(&case);
    assert_ne!(plain, case, "the padding is taken out");
    let mutant = MUTANTS
        .iter()
        .find(|m| m.name == "no-base64-decode")
        .expect("the mutant");
    let answer = to_observation(&respond_mutant(mutant, &case, &s));
    assert_eq!(
        failing(&case, &answer),
        ["SHTTP-HDR-OWS", "SHTTP-B64-DECODE"]
    );
    let twin = to_observation(&respond_mutant(mutant, &plain, &s));
    assert_eq!(failing(&plain, &twin), ["SHTTP-B64-DECODE"]);
    let note = twin_note(&s, HDR_OWS, &plain, &twin).expect("the padding is explained");
    assert!(note.contains("SHTTP-B64-DECODE"), "{note}");
    assert_eq!(twin_note(&s, B64_DECODE, &plain, &twin), None);
}
