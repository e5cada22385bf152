//! The probes on the standard mirrored headers and the `Mcp-Param` headers: each departs from
//! a conformant call in one header (a mismatch, a missing or padded value, forbidden bytes, a
//! name in another case, a Base64 sentinel).

use super::{call, weather_call, with, Probe};
use crate::case::Case;
use crate::fixture::{HEADER_TOOL, SENTINEL_URI};
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use base64::Engine;
use serde_json::{json, Value};

/// Calls that break one header rule each.
pub(super) fn headers(s: &Surface) -> Vec<Probe> {
    let mut out = Vec::new();
    let mut add = |rule: RuleId, case: Case| out.push(Probe { rule, case });
    let c = |id: i64, method: &str, params: Value| call(s, id, method, params);
    let weather = || weather_call(s);
    let sql = |args: Value| {
        c(
            1,
            "tools/call",
            json!({"name": HEADER_TOOL, "arguments": args}),
        )
    };
    let base_args = json!({"region": "us-west1", "count": 42, "query": "select 1"});

    // standard headers
    add(
        rules::HDR_MISMATCH,
        with(weather(), "Mcp-Method", Some(b"tools/list")),
    );
    add(
        rules::HDR_ERR,
        with(weather(), "Mcp-Name", Some(b"get_forecast")),
    );
    add(rules::HDR_MISSING, with(weather(), "Mcp-Name", None));
    add(
        rules::HDR_INVALID_CHARS,
        with(weather(), "Mcp-Name", Some("get_weather\u{e9}".as_bytes())),
    );
    add(
        rules::HDR_VALUE_CASE,
        with(weather(), "Mcp-Name", Some(b"GET_WEATHER")),
    );
    add(
        rules::HDR_OWS,
        with(weather(), "Mcp-Name", Some(b" get_weather\t")),
    );
    add(
        rules::B64_MARKERS,
        with(weather(), "Mcp-Name", Some(b"=?get_weather?=")),
    );
    let encoded = base64::engine::general_purpose::STANDARD.encode("tools/list");
    let sentinel = format!("=?base64?{encoded}?=");
    add(
        rules::B64_ONLY_NAME_PARAM,
        with(
            c(32, "tools/list", json!({})),
            "Mcp-Method",
            Some(sentinel.as_bytes()),
        ),
    );
    let mut lower = weather();
    for (n, _) in lower.headers.iter_mut() {
        if n.len() > 4 && n[..4].eq_ignore_ascii_case(b"mcp-") {
            n.make_ascii_lowercase();
        }
    }
    add(rules::HDR_NAME_CI, lower);
    add(
        rules::BC_SESSION,
        with(
            c(33, "tools/list", json!({})),
            "Mcp-Session-Id",
            Some(b"abc123"),
        ),
    );
    add(
        rules::BC_LAST_EVENT_ID,
        with(c(34, "tools/list", json!({})), "Last-Event-ID", Some(b"7")),
    );

    // Mcp-Param headers; every one mirrored, the nested `target.region` beside a top-level
    // `region` of another value: served only when read at the exact path (D-180)
    let nested = json!({"region": "us-west1", "count": 42, "flag": true,
        "opt": "o", "target": {"region": "eu"}, "query": "select 1"});
    add(rules::PARAM_PATH, sql(nested.clone()));
    // the nested header carrying the top-level value: refused only when read at the exact
    // path
    add(
        rules::PARAM_PATH,
        with(sql(nested), "Mcp-Param-TargetRegion", Some(b"us-west1")),
    );
    add(
        rules::PARAM_VALIDATE,
        with(sql(base_args.clone()), "Mcp-Param-Count", Some(b"43")),
    );
    add(
        rules::PARAM_ERR,
        with(
            sql(base_args.clone()),
            "Mcp-Param-Region",
            Some(b"eu-west1"),
        ),
    );
    add(
        rules::PARAM_INVALID_CHARS,
        with(
            sql(base_args.clone()),
            "Mcp-Param-Region",
            Some("us-west1\u{e9}".as_bytes()),
        ),
    );
    add(
        rules::PARAM_OMITTED,
        with(sql(base_args.clone()), "Mcp-Param-Region", None),
    );
    add(
        rules::PARAM_NULL,
        sql(json!({"region": null, "query": "select 1"})),
    );
    add(rules::PARAM_ABSENT, sql(json!({"query": "select 1"})));
    add(
        rules::B64_DECODE,
        sql(json!({"region": "Hello, 世界", "query": "select 1"})),
    );
    add(
        rules::B64_DECODE,
        // a non-ASCII name in Mcp-Name: a template instance (no tool name needs it)
        c(35, "resources/read", json!({ "uri": SENTINEL_URI })),
    );
    add(
        rules::B64_MALFORMED,
        with(
            sql(json!({"region": "Hello", "query": "q"})),
            "Mcp-Param-Region",
            Some(b"=?base64?SGVs!!!bG8=?="),
        ),
    );
    add(
        rules::INT_NUMERIC,
        with(sql(base_args.clone()), "Mcp-Param-Count", Some(b"42.0")),
    );
    let flagged = json!({"region": "us-west1", "flag": true, "query": "select 1"});
    add(
        rules::BOOL_LOWER,
        with(sql(flagged), "Mcp-Param-Flag", Some(b"True")),
    );
    // a repeated field whose first copy matches the body and whose second does not: each
    // copy is a header value the body must match (D-09)
    add(
        rules::HDR_MISMATCH,
        again(weather(), "Mcp-Name", b"get_forecast"),
    );
    add(
        rules::PV_MISMATCH,
        again(weather(), "MCP-Protocol-Version", b"2025-11-25"),
    );
    add(
        rules::PARAM_VALIDATE,
        again(sql(base_args.clone()), "Mcp-Param-Region", b"eu-central1"),
    );
    out
}

/// `case` with one more field `name: value` after the ones it has.
fn again(mut case: Case, name: &str, value: &[u8]) -> Case {
    case.headers
        .push((name.as_bytes().to_vec(), value.to_vec()));
    case
}
