use super::*;
use mcpdiff_oracle::{fixture, Body, HttpAnswer};

fn answer(status: u16, body: Value, session: Option<&str>) -> Observation {
    let mut a = HttpAnswer::new(status, Some("application/json"), Body::Json { value: body });
    a.session_id = session.map(str::to_string);
    Observation::Http(a)
}

fn run(f: impl Fn(&Case) -> Observation) -> (RevisionEvidence, Vec<Case>) {
    let mut sent = Vec::new();
    let ev = futures_lite_block_on(probe("/mcp", |c| {
        sent.push(c.clone());
        let o = f(&c);
        async move { o }
    }));
    (ev, sent)
}

/// The probe's futures never pend (the test sender answers at once), so a minimal
/// current-thread runtime is enough.
fn futures_lite_block_on<T>(f: impl Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime builds")
        .block_on(f)
}

#[test]
fn the_reference_server_is_modern() {
    let s = fixture::surface();
    let (ev, sent) = run(|c| {
        mcpdiff_oracle::reference::to_observation(&mcpdiff_oracle::reference::respond(c, &s))
    });
    assert_eq!(ev.verdict, RevisionVerdict::Modern, "{ev:?}");
    assert_eq!(sent.len(), 3);
    assert!(ev.versions.iter().any(|v| v == MODERN_VERSION));
}

#[test]
fn a_dual_era_server_is_both_and_its_session_is_closed() {
    let (ev, sent) = run(|c| {
        let body = String::from_utf8_lossy(&c.body).to_string();
        if body.contains("\"initialize\"") {
            answer(
                200,
                json!({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}),
                Some("s-1"),
            )
        } else if body.contains(BOGUS_VERSION) {
            answer(
                400,
                json!({"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"x","data":{"supported":["2026-07-28","2025-11-25"]}}}),
                None,
            )
        } else {
            answer(
                200,
                json!({"jsonrpc":"2.0","id":2,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"logging":{}}}}),
                None,
            )
        }
    });
    assert_eq!(ev.verdict, RevisionVerdict::DualEra, "{ev:?}");
    assert_eq!(sent[3].method, "DELETE");
    assert_eq!(ev.deprecated.len(), 1);
    assert_eq!(ev.versions, ["2025-11-25", "2026-07-28"]);
    // then the 2025-11-25 sequences, judged on their own: this server's initialize
    // result has no capabilities nor serverInfo
    assert!(sent.len() > 4);
    let legacy = &ev.revisions[0];
    assert_eq!(legacy.revision, mcpdiff_oracle::Revision::V2025_11_25);
    assert_eq!(legacy.score, 0.0);
    assert!(legacy.findings.iter().all(|f| f.rule.starts_with("L-")));
    assert!(legacy
        .findings
        .iter()
        .any(|f| f.rule == "L-LIFE-INIT-RESULT"));
}

#[test]
fn the_dual_era_reference_is_both_and_clean_on_2025_11_25() {
    use mcpdiff_oracle::reference::legacy::{self, Era, LegacyState};
    use mcpdiff_oracle::reference::{respond, to_observation};
    let s = fixture::surface();
    let state = std::cell::RefCell::new(LegacyState::new("probe-test"));
    let (ev, _) = run(|c| match legacy::route(c) {
        Era::Legacy => {
            let before = state.replace(LegacyState::new(""));
            let (r, after) = legacy::respond(before, c, &s);
            state.replace(after);
            to_observation(&r)
        }
        Era::Modern => to_observation(&respond(c, &s)),
    });
    assert_eq!(ev.verdict, RevisionVerdict::DualEra, "{ev:?}");
    let legacy = &ev.revisions[0];
    assert!(legacy.findings.is_empty(), "{:#?}", legacy.findings);
    assert_eq!(legacy.score, 1.0);
    assert_eq!(legacy.not_determined, 0);
    assert!(
        legacy.rules_checked.len() >= 10,
        "{:?}",
        legacy.rules_checked
    );
}

#[test]
fn a_null_server_is_not_determined() {
    let (ev, _) = run(|_| answer(200, json!({}), None));
    assert_eq!(ev.verdict, RevisionVerdict::Undetermined, "{ev:?}");
    assert_eq!(ev.evidence.len(), 3);
}
