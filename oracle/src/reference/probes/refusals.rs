//! The probes the reference refuses outside the header rules: transport-level refusals
//! (Origin, notifications, GET/DELETE, a parse error), the protocol version and `_meta`, and
//! unknown methods, tools, resources and prompts.

use super::{call, with, with_meta, without_meta, Probe};
use crate::case::{Case, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use serde_json::{json, Value};

/// Requests refused for their transport, protocol version or names.
pub(super) fn refusals(s: &Surface) -> Vec<Probe> {
    let mut out = Vec::new();
    let mut add = |rule: RuleId, case: Case| out.push(Probe { rule, case });
    let c = |id: i64, method: &str, params: Value| call(s, id, method, params);
    // transport-level refusals
    add(
        rules::ORIGIN_403,
        with(
            c(20, "tools/list", json!({})),
            "Origin",
            Some(b"https://evil.example"),
        ),
    );
    let notification = Case::post(
        &s.endpoint,
        &[
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "notifications/cancelled"),
        ],
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}"#
            .to_vec(),
    );
    add(rules::NOTIF_202, notification.clone());
    add(rules::NOTIF_REJECT, notification.clone());
    add(rules::NOTIF_NO_RESPONSE, notification);
    let mut get = Case::post(&s.endpoint, &[("Accept", "text/event-stream")], Vec::new());
    get.method = "GET".into();
    add(rules::BC_GET_DELETE, get.clone());
    get.method = "DELETE".into();
    add(rules::BC_GET_DELETE, get.clone());
    // H1: a foreign Origin on the methods other than POST (SHTTP-ORIGIN-VALIDATE, D-102),
    // with the media headers a conformant client sends (no media defect: 403 alone is due)
    let mut foreign = Case::post(
        &s.endpoint,
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("Origin", "https://evil.example"),
        ],
        Vec::new(),
    );
    for verb in ["GET", "DELETE", "PATCH"] {
        foreign.method = verb.into();
        add(rules::ORIGIN_VALIDATE, foreign.clone());
    }
    let parse_error = Case::post(
        &s.endpoint,
        &[
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
        b"{\"jsonrpc\": \"2.0\", \"id\": 1, ".to_vec(),
    );
    for r in [
        rules::ERRCODE_LEGACY,
        rules::ERRCODE_RESERVED,
        rules::ERRCODE_RETIRED,
    ] {
        add(r, parse_error.clone());
    }

    // protocol version and _meta
    add(
        rules::PV_MISMATCH,
        with_meta(
            c(21, "tools/list", json!({})),
            META_PROTOCOL_VERSION,
            json!("2025-11-25"),
        ),
    );
    let future = with(
        c(22, "tools/list", json!({})),
        "MCP-Protocol-Version",
        Some(b"2099-01-01"),
    );
    add(
        rules::PV_UNSUPPORTED,
        with_meta(future, META_PROTOCOL_VERSION, json!("2099-01-01")),
    );
    add(
        rules::PV_MISSING,
        with(c(23, "tools/list", json!({})), "MCP-Protocol-Version", None),
    );
    add(
        rules::META_REQUIRED,
        without_meta(c(24, "tools/list", json!({})), META_CLIENT_CAPABILITIES),
    );

    // methods and names
    add(rules::METHOD_404, c(25, "ping", json!({})));
    add(rules::METHOD_404, c(26, "tools/delete", json!({})));
    add(
        rules::TOOLS_UNKNOWN,
        c(
            27,
            "tools/call",
            json!({"name": "no_such_tool", "arguments": {}}),
        ),
    );
    add(
        rules::RES_NOTFOUND,
        c(
            28,
            "resources/read",
            json!({"uri": "file:///nope/missing.txt"}),
        ),
    );
    add(
        rules::PROMPTS_ERRORS,
        c(29, "prompts/get", json!({"name": "no_such_prompt"})),
    );
    add(
        rules::ERROR_ID,
        c(
            30,
            "tools/call",
            json!({"name": "no_such_tool", "arguments": {}}),
        ),
    );
    add(
        rules::ERROR_SHAPE,
        c(31, "prompts/get", json!({"name": "no_such_prompt"})),
    );
    // a malformed request whose id is readable: the -32600 refusal must echo it (D-24)
    let mut bad_version = c(34, "tools/list", json!({}));
    bad_version.body = json!({"jsonrpc": "1.0", "id": 34, "method": "tools/list"})
        .to_string()
        .into_bytes();
    add(rules::ERROR_ID, bad_version);

    out
}
