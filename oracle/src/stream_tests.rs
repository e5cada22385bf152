//! Each offending event is owned by one rule; a clean stream breaks none.

use super::*;
use serde_json::json;

fn scope(token: Option<Value>, log_level: bool, listen: bool) -> StreamScope {
    StreamScope {
        id: Some(RequestId::from(7)),
        token: token.as_ref().and_then(RequestId::of),
        log_level,
        listen,
        // the listen scopes ask for tools/list_changed, the type their changes are of
        filter: crate::stream::FILTER_TOOLS,
        min_level: None,
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
            false,
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
        // left open unless answered: a stream the server closes is judged on its end too
        // (the teardown rules below)
        let answered = events.iter().any(|e| e.get("id").is_some());
        let a = stream(events.clone(), answered);
        assert_eq!(broken(&s, &a), rules, "{events:?}");
    }
}

#[test]
fn a_listen_stream_carries_only_the_types_its_filter_asked_for() {
    use crate::listen_filter::FILTER_VALID;
    use crate::stream::{
        filter_of, FILTER_PROMPTS, FILTER_RESOURCES, FILTER_TOOLS, FILTER_UPDATED,
    };
    assert_eq!(
        filter_of(Some(
            &json!({"toolsListChanged": true, "promptsListChanged": false,
            "resourcesListChanged": "yes", "resourceSubscriptions": ["file:///a"]})
        )),
        FILTER_TOOLS | FILTER_UPDATED,
        "\"yes\" is no boolean: the filter is not valid"
    );
    assert_eq!(
        filter_of(Some(
            &json!({"toolsListChanged": true, "promptsListChanged": false,
            "resourceSubscriptions": ["file:///a"]})
        )),
        FILTER_VALID | FILTER_TOOLS | FILTER_UPDATED
    );
    assert_eq!(
        filter_of(Some(&json!({"resourceSubscriptions": [1]}))),
        FILTER_UPDATED,
        "an item that is no string"
    );
    assert_eq!(
        filter_of(Some(&json!({"resourceSubscriptions": []}))),
        FILTER_VALID
    );
    assert_eq!(filter_of(None), 0);
    assert_eq!(filter_of(Some(&json!([]))), 0, "not an object");
    let named = json!({"io.modelcontextprotocol/subscriptionId": 7});
    let change = |m: &str| note(m, json!({"_meta": named.clone(), "uri": "file:///a"}));
    let rows: Vec<(u8, &str, Vec<StreamRule>)> = vec![
        (FILTER_TOOLS, "notifications/tools/list_changed", vec![]),
        (
            FILTER_TOOLS,
            "notifications/prompts/list_changed",
            vec![StreamRule::SubFilter],
        ),
        (FILTER_PROMPTS, "notifications/prompts/list_changed", vec![]),
        (
            FILTER_RESOURCES,
            "notifications/resources/list_changed",
            vec![],
        ),
        (
            FILTER_RESOURCES,
            "notifications/resources/updated",
            vec![StreamRule::SubFilter],
        ),
        (FILTER_UPDATED, "notifications/resources/updated", vec![]),
        (
            0,
            "notifications/tools/list_changed",
            vec![StreamRule::SubFilter],
        ),
        // a type no filter names is never asked for
        (
            0xff,
            "notifications/server/own",
            vec![StreamRule::SubFilter],
        ),
    ];
    for (filter, method, rules) in rows {
        let s = StreamScope {
            filter,
            ..scope(None, false, true)
        };
        let a = stream(vec![ack7(), change(method)], false);
        assert_eq!(broken(&s, &a), rules, "{filter} {method}");
        let lint = StreamLint {
            rule: StreamRule::SubFilter,
            scope: s,
        };
        assert!(
            observed(&lint, &a),
            "a change notification observes the filter"
        );
        assert!(!observed(&lint, &stream(vec![ack7()], false)));
    }
}

#[test]
fn a_listen_stream_the_server_closes_ends_with_its_completion_result() {
    let s = scope(None, false, true);
    let cancel = note("notifications/cancelled", json!({"requestId": 7}));
    let completion = json!({"jsonrpc": "2.0", "id": 7,
        "result": {"resultType": "complete",
                   "_meta": {"io.modelcontextprotocol/subscriptionId": 7}}});
    let refusal = json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32603, "message": "x"}});
    let rows: Vec<(Vec<Value>, bool, Vec<StreamRule>)> = vec![
        // open: nothing ended, nothing owed
        (vec![ack7()], false, vec![]),
        (vec![ack7(), cancel.clone()], false, vec![]),
        (vec![ack7()], true, vec![StreamRule::SubGraceful]),
        (
            vec![ack7(), cancel.clone()],
            true,
            vec![StreamRule::SubGraceful],
        ),
        (vec![ack7(), completion.clone()], true, vec![]),
        (
            vec![ack7(), cancel.clone(), completion.clone()],
            true,
            vec![],
        ),
        // an error response is no completion result
        (
            vec![ack7(), refusal.clone()],
            true,
            vec![StreamRule::SubGraceful],
        ),
        // a refused listen opened no subscription
        (vec![refusal], true, vec![]),
        (vec![], true, vec![]),
    ];
    for (events, closed, rules) in rows {
        let a = stream(events.clone(), closed);
        assert_eq!(broken(&s, &a), rules, "{events:?} closed={closed}");
        let lint = StreamLint {
            rule: StreamRule::SubGraceful,
            scope: s.clone(),
        };
        let acked = events.first() == Some(&ack7());
        assert_eq!(observed(&lint, &a), closed && acked, "{events:?}");
    }
}

#[test]
fn a_log_message_below_the_requested_level_is_the_thresholds_alone() {
    // a request that asked for "warning" (index 3) on a target declaring logging
    let s = StreamScope {
        min_level: Some(3),
        ..scope(None, true, false)
    };
    let log = |level: Value| {
        note(
            "notifications/message",
            json!({"level": level, "data": "x"}),
        )
    };
    let rows = [
        (
            vec![log(json!("info")), response()],
            vec![StreamRule::LogThreshold],
        ),
        (
            vec![log(json!("debug")), response()],
            vec![StreamRule::LogThreshold],
        ),
        // at or above the level: what the sentence allows
        (vec![log(json!("warning")), response()], vec![]),
        (vec![log(json!("emergency")), response()], vec![]),
        // no level of the eight: neither at or above nor below (D-198)
        (vec![log(json!("verbose")), response()], vec![]),
        (vec![log(json!(3)), response()], vec![]),
        // after the response, any message is the final response's rule
        (
            vec![response(), log(json!("info"))],
            vec![StreamRule::FinalTerminates],
        ),
    ];
    for (events, rules) in rows {
        let a = stream(events.clone(), true);
        assert_eq!(broken(&s, &a), rules, "{events:?}");
    }
    let lint = StreamLint {
        rule: StreamRule::LogThreshold,
        scope: s.clone(),
    };
    assert!(observed(
        &lint,
        &stream(vec![log(json!("error")), response()], true)
    ));
    assert!(!observed(&lint, &stream(vec![response()], true)));
    assert!(!observed(
        &lint,
        &stream(vec![response(), log(json!("info"))], true)
    ));
    // without a level to compare with (an unrecognized one, or a target without logging)
    // the rule does not bind
    assert_eq!(
        s.rules() & StreamRule::LogThreshold.bit(),
        StreamRule::LogThreshold.bit()
    );
    let unbound = scope(None, true, false);
    assert_eq!(unbound.rules() & StreamRule::LogThreshold.bit(), 0);
    // its scope names the level
    let shown = serde_json::to_value(&lint).unwrap_or_default();
    assert_eq!(shown["scope"]["min_level"], "warning");
}
