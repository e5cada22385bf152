//! The conformant probes: one or more success carriers per method (each answer's shape is
//! judged on them), the legacy `initialize` and the streamed tool call.

use super::{call, legacy_initialize, weather_call, with_meta, Probe};
use crate::case::Case;
use crate::client::conformant_case;
use crate::fixture::{MENU_TOOL, PROMPT, RESOURCE, STREAM_TOOL};
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use serde_json::{json, Value};

/// Conformant requests of every method.
pub(super) fn carriers(s: &Surface) -> Vec<Probe> {
    let mut out = Vec::new();
    let mut add = |rule: RuleId, case: Case| out.push(Probe { rule, case });
    let c = |id: i64, method: &str, params: Value| call(s, id, method, params);
    let weather = || weather_call(s);
    // conformant requests: the success carriers of every method
    add(rules::EP_POST, c(1, "tools/list", json!({})));
    add(rules::EP_POST, c(2, "resources/list", json!({})));
    add(rules::EP_POST, c(3, "resources/templates/list", json!({})));
    add(rules::EP_POST, c(4, "prompts/list", json!({})));
    add(
        rules::EP_POST,
        c(
            5,
            "completion/complete",
            json!({
        "ref": {"type": "ref/prompt", "name": PROMPT},
        "argument": {"name": "code", "value": "fn"}}),
        ),
    );
    add(rules::VER_DISCOVER, c(6, "server/discover", json!({})));
    // a legacy client's opening request: no MCP headers, the 2025-11-25 `initialize` params
    add(rules::VER_INIT_NAMES, legacy_initialize(s));
    add(rules::HDR_MN_SOURCE, weather());
    add(
        rules::HDR_MN_SOURCE,
        c(7, "resources/read", json!({"uri": RESOURCE})),
    );
    add(
        rules::HDR_MN_SOURCE,
        c(8, "resources/read", json!({"uri": "file:///logs/mon.log"})),
    );
    add(
        rules::HDR_MN_SOURCE,
        c(
            9,
            "prompts/get",
            json!({"name": PROMPT, "arguments": {"code": "x"}}),
        ),
    );
    add(
        rules::BASE_ALL_SUPPORT,
        c(
            10,
            "subscriptions/listen",
            json!({
        "notifications": {"toolsListChanged": true, "resourceSubscriptions": [RESOURCE]}}),
        ),
    );
    let stream = c(
        11,
        "tools/call",
        json!({"name": STREAM_TOOL, "arguments": {"to": 3}}),
    );
    add(
        rules::SSE_XACCEL,
        with_meta(stream.clone(), "progressToken", json!("p-1")),
    );
    add(rules::SSE_NO_REQUESTS, stream);
    add(rules::REQ_CT, c(12, "tools/list", json!({})));
    add(rules::RESULT_ID, c(13, "tools/list", json!({})));
    add(rules::RESULTTYPE, c(14, "server/discover", json!({})));
    add(rules::SERVERINFO, c(15, "prompts/list", json!({})));
    add(
        rules::RESULT_ID,
        c(
            16,
            "tools/call",
            json!({"name": MENU_TOOL, "arguments": {}}),
        ),
    );
    let mut string_id = conformant_case(s, json!("req-a"), "tools/list", json!({}));
    string_id.labels.push("string id".into());
    add(rules::RESULT_ID, string_id);
    add(
        rules::TOOLS_XMCP_CONSTRAINTS,
        c(14, "tools/list", json!({})),
    );

    out
}
