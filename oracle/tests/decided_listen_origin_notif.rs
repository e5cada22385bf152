//! The DEVIATIONS.md entries D-100..D-103 (listen filters and graceful closure, Origin on
//! every method, the two notification sentences), one test per decision: an answer the
//! quoted text admits passes, one it does not admit fails on the rule the entry names (and,
//! where the entry files one offence under one rule, on that rule alone).

use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::{check, fixture, judge, Body, Case, HttpAnswer, Observation, SseMessage};
use serde_json::{json, Value};

fn rules_of(case: &Case, obs: &Observation) -> Vec<String> {
    let s = fixture::surface();
    let mut r: Vec<String> = check(&judge(case, &s), obs)
        .into_iter()
        .map(|f| f.rule)
        .collect();
    r.sort();
    r
}

fn status(code: u16) -> Observation {
    Observation::Http(HttpAnswer::new(code, None, Body::Empty))
}

/// 405 with the `Allow` header SHTTP-BC-GET-DELETE-405 asks for.
fn not_allowed() -> Observation {
    let mut a = HttpAnswer::new(405, None, Body::Empty);
    a.allow = Some("POST".into());
    Observation::Http(a)
}

fn sse(events: Vec<Value>, closed: bool) -> Observation {
    let mut a = HttpAnswer::new(
        200,
        Some("text/event-stream"),
        Body::Sse {
            messages: events.into_iter().map(SseMessage::Json).collect(),
            closed,
        },
    );
    a.x_accel_buffering = Some("no".into());
    Observation::Http(a)
}

fn listen(filter: Value) -> Case {
    let s = fixture::surface();
    conformant_case(
        &s,
        json!(9),
        "subscriptions/listen",
        json!({ "notifications": filter }),
    )
}

fn ack() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
           "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 9},
                      "notifications": {"toolsListChanged": true}}})
}

fn change(method: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": method,
           "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 9}}})
}

/// D-100: only the types the filter asked for with `true`.
#[test]
fn a_listen_stream_carries_only_requested_types() {
    let c = listen(json!({"toolsListChanged": true, "promptsListChanged": false}));
    let asked = sse(
        vec![ack(), change("notifications/tools/list_changed")],
        false,
    );
    assert!(
        rules_of(&c, &asked).is_empty(),
        "{:?}",
        rules_of(&c, &asked)
    );
    let unasked = sse(
        vec![ack(), change("notifications/prompts/list_changed")],
        false,
    );
    assert_eq!(rules_of(&c, &unasked), ["SUB-FILTER"]);
}

/// D-101: a server-closed acknowledged listen stream owes a completion result (SUB-GRACEFUL);
/// the teardown MUST is not judged over HTTP.
#[test]
fn a_server_closed_listen_stream_owes_its_completion_result() {
    let c = listen(json!({"toolsListChanged": true}));
    assert!(rules_of(&c, &sse(vec![ack()], false)).is_empty());
    let completion = json!({"jsonrpc": "2.0", "id": 9,
        "result": {"resultType": "complete",
                   "_meta": {"io.modelcontextprotocol/subscriptionId": 9,
                             "io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}}});
    let done = sse(vec![ack(), completion], true);
    assert!(rules_of(&c, &done).is_empty(), "{:?}", rules_of(&c, &done));
    assert_eq!(rules_of(&c, &sse(vec![ack()], true)), ["SUB-GRACEFUL"]);
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                           "params": {"requestId": 9}});
    assert_eq!(
        rules_of(&c, &sse(vec![ack(), cancelled], true)),
        ["SUB-GRACEFUL"]
    );
}

/// D-102: a foreign Origin on GET/DELETE is ORIGIN-VALIDATE's, on POST ORIGIN-403's.
#[test]
fn origin_on_other_methods_is_origin_validate() {
    let s = fixture::surface();
    for verb in ["GET", "DELETE"] {
        let mut c = Case::post(
            &s.endpoint,
            &[("Origin", "https://evil.example")],
            Vec::new(),
        );
        c.method = verb.into();
        assert!(rules_of(&c, &status(403)).is_empty());
        assert_eq!(
            rules_of(&c, &not_allowed()),
            ["SHTTP-ORIGIN-VALIDATE"],
            "{verb}"
        );
    }
    // a dual-era target's session check may come first on GET/DELETE without a session
    let mut dual = fixture::surface();
    dual.legacy_era = true;
    let media = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("Origin", "https://evil.example"),
    ];
    let mut get = Case::post(&dual.endpoint, &media, Vec::new());
    get.method = "GET".into();
    let judged = |c: &Case, obs: &Observation| check(&judge(c, &dual), obs).len();
    assert_eq!(judged(&get, &status(400)), 0);
    assert_eq!(judged(&get, &status(403)), 0);
    assert_eq!(judged(&get, &status(200)), 1);
    get.set_header("Mcp-Session-Id", Some(b"abc"));
    assert_eq!(judged(&get, &status(400)), 1, "with a session id, only 403");
    let mut post = conformant_case(&s, json!(1), "tools/list", json!({}));
    post.set_header("Origin", Some(b"https://evil.example"));
    assert!(rules_of(&post, &status(403)).is_empty());
    assert!(rules_of(&post, &status(405)).contains(&"SHTTP-ORIGIN-403".into()));
    assert!(!rules_of(&post, &status(405)).contains(&"SHTTP-ORIGIN-VALIDATE".into()));
}

/// D-103: 2xx answers to a notification are NOTIF-202's, 3xx NOTIF-REJECT's.
#[test]
fn notification_answers_split_by_acceptance() {
    let s = fixture::surface();
    let n = Case::post(
        &s.endpoint,
        &[
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "notifications/cancelled"),
        ],
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}"#
            .to_vec(),
    );
    for ok in [202, 400, 404, 500] {
        assert!(rules_of(&n, &status(ok)).is_empty(), "{ok}");
    }
    assert_eq!(rules_of(&n, &status(307)), ["SHTTP-NOTIF-REJECT"]);
    assert_eq!(rules_of(&n, &status(200)), ["SHTTP-NOTIF-202"]);
    assert_eq!(rules_of(&n, &status(204)), ["SHTTP-NOTIF-202"]);
}
