//! The stream probes: calls of the fixture's streaming tool (`slow_count`, which reports
//! progress when asked) with progress tokens of every JSON type the schema allows (a string,
//! an integer, zero) or none, and `subscriptions/listen` (integer, zero and string ids) with
//! and without a log level. Each
//! one's answer is an SSE stream whose events the stream rules read (`crate::stream`).

use super::{call, with_meta, Probe};
use crate::case::{Case, META_LOG_LEVEL};
use crate::client::conformant_case;
use crate::fixture::STREAM_TOOL;
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use serde_json::{json, Value};

/// The stream probes, one or more per stream rule.
pub(super) fn stream_probes(s: &Surface) -> Vec<Probe> {
    let count = |id: i64, to: u64, token: Option<Value>| {
        let c = call(
            s,
            id,
            "tools/call",
            json!({"name": STREAM_TOOL, "arguments": {"to": to}}),
        );
        match token {
            Some(t) => with_meta(c, "progressToken", t),
            None => c,
        }
    };
    let listen = |id: i64| {
        call(
            s,
            id,
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        )
    };
    // a string id: the subscription id must come back as that string
    let listen_named = |id: &str| {
        conformant_case(
            s,
            json!(id),
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        )
    };
    let rows: Vec<(RuleId, Case)> = vec![
        (rules::SSE_FINAL_TERMINATES, count(40, 2, None)),
        (rules::SSE_NOTIF_RELATED, count(41, 2, Some(json!("p-rel")))),
        (rules::PROG_TOKEN_ONLY, count(42, 3, Some(json!(42)))),
        (rules::PROG_TOKEN_ONLY, count(43, 3, Some(json!("tok-A")))),
        (rules::PROG_INCREASING, count(44, 5, Some(json!("p-inc")))),
        (rules::PROG_STOP, count(45, 2, Some(json!(0)))),
        (rules::LOG_NO_LEVEL, count(46, 2, Some(json!("p-log")))),
        (
            rules::LOG_NOT_ON_LISTEN,
            with_meta(listen(47), META_LOG_LEVEL, json!("debug")),
        ),
        (rules::CANCEL_ONLY_LISTEN, count(48, 2, Some(json!(7)))),
        (rules::CANCEL_ONLY_LISTEN, listen(49)),
        (rules::SUB_ACK_FIRST, listen(50)),
        (
            rules::SUB_NO_NOTIF_BEFORE_ACK,
            call(
                s,
                0,
                "subscriptions/listen",
                json!({"notifications": {"toolsListChanged": true, "promptsListChanged": true}}),
            ),
        ),
        (rules::LISTEN_SUBID, listen_named("sub-a")),
        // H1: streams and cancellation (issue 23)
        (rules::SUB_FILTER, listen(51)),
        (rules::SUB_GRACEFUL, listen_named("sub-g")),
    ];
    rows.into_iter()
        .map(|(rule, case)| Probe { rule, case })
        .collect()
}
