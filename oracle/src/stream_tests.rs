//! Each offending event is owned by one rule; a clean stream breaks none.

use super::*;
use serde_json::json;

fn scope(token: Option<Value>, log_level: bool, listen: bool) -> StreamScope {
    StreamScope {
        id: Some(RequestId::from(7)),
        token: token.as_ref().and_then(RequestId::of),
        log_level,
        listen,
    }
}

fn stream(events: Vec<Value>, closed: bool) -> HttpAnswer {
    HttpAnswer::new(
        200,
        Some("text/event-stream"),
        Body::Sse {
            messages: events.into_iter().map(SseMessage::Json).collect(),
            closed,
        },
    )
}

fn progress(token: Value, p: f64) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/progress",
           "params": {"progressToken": token, "progress": p}})
}

fn note(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

/// A listen stream's acknowledgement for request 7.
fn ack7() -> Value {
    note(
        "notifications/subscriptions/acknowledged",
        json!({"_meta": {"io.modelcontextprotocol/subscriptionId": 7}}),
    )
}

fn response() -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "result": {"resultType": "complete"}})
}

/// The rules of `s` that `a` breaks.
fn broken(s: &StreamScope, a: &HttpAnswer) -> Vec<StreamRule> {
    StreamRule::ALL
        .into_iter()
        .filter(|r| s.rules() & r.bit() != 0)
        .filter(|r| {
            offends(
                &StreamLint {
                    rule: *r,
                    scope: s.clone(),
                },
                a,
            )
        })
        .collect()
}

#[test]
fn a_conformant_stream_breaks_nothing_whatever_the_token_type() {
    for token in [json!("p-1"), json!(42), json!(0)] {
        let s = scope(Some(token.clone()), true, false);
        let a = stream(
            vec![
                progress(token.clone(), 1.0),
                progress(token.clone(), 2.5),
                note(
                    "notifications/message",
                    json!({"level": "info", "data": "x"}),
                ),
                response(),
            ],
            true,
        );
        assert_eq!(broken(&s, &a), [], "{token}");
    }
}

#[test]
fn each_offence_is_owned_by_one_rule() {
    let own = || Some(json!("p-1"));
    let cases: Vec<(StreamScope, Vec<Value>, bool, StreamRule)> = vec![
        (
            scope(own(), true, false),
            vec![response()],
            false,
            StreamRule::FinalTerminates,
        ),
        (
            scope(own(), true, false),
            vec![
                response(),
                note("notifications/tools/list_changed", json!({})),
            ],
            true,
            StreamRule::FinalTerminates,
        ),
        (
            scope(own(), true, false),
            vec![response(), response()],
            true,
            StreamRule::FinalTerminates,
        ),
        (
            scope(own(), true, false),
            vec![
                note("notifications/subscriptions/acknowledged", json!({})),
                response(),
            ],
            true,
            StreamRule::NotifRelated,
        ),
        // the same token as an integer is another token (exact JSON type)
        (
            scope(own(), true, false),
            vec![progress(json!(1), 1.0), response()],
            true,
            StreamRule::ProgressTokenOnly,
        ),
        (
            scope(None, true, false),
            vec![progress(json!("p-1"), 1.0), response()],
            true,
            StreamRule::ProgressTokenOnly,
        ),
        (
            scope(own(), true, false),
            vec![
                progress(json!("p-1"), 2.0),
                progress(json!("p-1"), 2.0),
                response(),
            ],
            true,
            StreamRule::ProgressIncreasing,
        ),
        (
            scope(own(), true, false),
            vec![response(), progress(json!("p-1"), 3.0)],
            true,
            StreamRule::ProgressStop,
        ),
        (
            scope(own(), false, false),
            vec![
                note("notifications/message", json!({"level": "info"})),
                response(),
            ],
            true,
            StreamRule::LogNoLevel,
        ),
        (
            scope(None, true, true),
            vec![
                ack7(),
                note("notifications/message", json!({"level": "info"})),
            ],
            false,
            StreamRule::LogNotOnListen,
        ),
        (
            scope(None, true, false),
            vec![
                note("notifications/cancelled", json!({"requestId": 7})),
                response(),
            ],
            true,
            StreamRule::CancelOnlyListen,
        ),
        (
            scope(None, true, true),
            vec![
                ack7(),
                note("notifications/cancelled", json!({"requestId": 8})),
            ],
            true,
            StreamRule::CancelOnlyListen,
        ),
    ];
    for (s, events, closed, rule) in cases {
        let a = stream(events.clone(), closed);
        assert_eq!(broken(&s, &a), [rule], "{events:?}");
    }
}

#[test]
fn a_listen_stream_may_stay_open_and_end_with_its_cancellation() {
    let s = scope(None, false, true);
    let a = stream(
        vec![
            ack7(),
            note(
                "notifications/tools/list_changed",
                json!({"_meta": {"io.modelcontextprotocol/subscriptionId": 7}}),
            ),
            note("notifications/cancelled", json!({"requestId": 7})),
        ],
        false,
    );
    assert_eq!(broken(&s, &a), []);
}

#[test]
fn observed_only_when_the_stream_carries_what_the_rule_reads() {
    let s = scope(Some(json!(5)), false, false);
    let lint = |rule| StreamLint {
        rule,
        scope: s.clone(),
    };
    let json_answer = HttpAnswer::new(
        200,
        Some("application/json"),
        Body::Json { value: response() },
    );
    let bare = stream(vec![response()], true);
    let counted = stream(
        vec![progress(json!(5), 1.0), progress(json!(5), 2.0), response()],
        true,
    );
    for r in StreamRule::ALL {
        assert!(!observed(&lint(r), &json_answer), "{r:?}");
    }
    assert!(observed(&lint(StreamRule::FinalTerminates), &bare));
    assert!(!observed(&lint(StreamRule::ProgressIncreasing), &bare));
    assert!(observed(&lint(StreamRule::ProgressIncreasing), &counted));
    assert!(observed(&lint(StreamRule::ProgressStop), &counted));
    assert!(observed(&lint(StreamRule::ProgressTokenOnly), &counted));
}

#[test]
fn a_listen_stream_owes_its_acknowledgement_first_and_its_id_everywhere() {
    let s = scope(None, false, true);
    let ack = |id: Value| {
        note(
            "notifications/subscriptions/acknowledged",
            json!({"_meta": {"io.modelcontextprotocol/subscriptionId": id}}),
        )
    };
    let change = |meta: Value| note("notifications/tools/list_changed", json!({"_meta": meta}));
    let named = json!({"io.modelcontextprotocol/subscriptionId": 7});
    let rows: Vec<(Vec<Value>, Vec<StreamRule>)> = vec![
        (vec![ack(json!(7)), change(named.clone())], vec![]),
        (vec![ack(json!("7"))], vec![StreamRule::AckFirst]),
        (
            vec![change(named.clone()), ack(json!(7))],
            vec![StreamRule::NoNotifBeforeAck],
        ),
        (
            vec![ack(json!(7)), change(json!({}))],
            vec![StreamRule::ListenSubscriptionId],
        ),
        (vec![response()], vec![StreamRule::AckFirst]),
    ];
    for (events, rules) in rows {
        let a = stream(events.clone(), true);
        assert_eq!(broken(&s, &a), rules, "{events:?}");
    }
}
