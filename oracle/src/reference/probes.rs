//! The probe set: one or more requests per rule the judge emits, each departing from a
//! conformant request (`client::conformant_case`) in exactly one way, so the reference
//! server's answer to each is unambiguous and each mutant shows up on exactly its rule.
//! Pure and deterministic, so the runner can replay it against any target.
//!
//! The probes name the fixture's tools, resource and prompt (`crate::fixture`); against a
//! surface without them the tool probes exercise the unknown-tool path instead.
//! `BASE-MISSING-CAP-32021` has no probe: it is not judged (see `mutants.rs`).

use crate::case::{Case, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use crate::client::conformant_case;
use crate::fixture::{HEADER_TOOL, PLAIN_TOOL, PROMPT, RESOURCE, SENTINEL_TOOL, STREAM_TOOL};
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use base64::Engine;
use serde_json::{json, Value};

/// One probe: the rule it is meant to exercise and the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub rule: RuleId,
    pub case: Case,
}

/// `initialize` as a 2025-11-25 client sends it first: JSON-RPC over POST with the media
/// headers, no `MCP-Protocol-Version` or `Mcp-Method` (that era had no mirrored headers
/// before negotiation) and no `_meta`.
pub fn legacy_initialize(surface: &Surface) -> Case {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "mcpdiff-legacy-probe", "version": "1.0.0"}
        }
    });
    Case::post(
        &surface.endpoint,
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
        body.to_string(),
    )
}

/// The probe set for `surface` (meant for `fixture::surface()`).
pub fn probes(surface: &Surface) -> Vec<Probe> {
    let s = surface;
    let mut out = Vec::new();
    let mut add = |rule: RuleId, case: Case| out.push(Probe { rule, case });
    let c = |id: i64, method: &str, params: Value| conformant_case(s, json!(id), method, params);
    let weather = || {
        c(
            1,
            "tools/call",
            json!({"name": PLAIN_TOOL, "arguments": {"location": "Seattle, WA"}}),
        )
    };
    let sql = |args: Value| {
        c(
            1,
            "tools/call",
            json!({"name": HEADER_TOOL, "arguments": args}),
        )
    };
    let with = |mut case: Case, name: &str, value: Option<&[u8]>| {
        case.set_header(name, value);
        case
    };
    let base_args = json!({"region": "us-west1", "count": 42, "query": "select 1"});

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
            json!({"name": SENTINEL_TOOL, "arguments": {}}),
        ),
    );
    let mut string_id = conformant_case(s, json!("req-a"), "tools/list", json!({}));
    string_id.labels.push("string id".into());
    add(rules::RESULT_ID, string_id);

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
    add(rules::NOTIF_NO_RESPONSE, notification);
    let mut get = Case::post(&s.endpoint, &[("Accept", "text/event-stream")], Vec::new());
    get.method = "GET".into();
    add(rules::BC_GET_DELETE, get.clone());
    get.method = "DELETE".into();
    add(rules::BC_GET_DELETE, get);
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

    // Mcp-Param headers
    add(
        rules::PARAM_VALIDATE,
        sql(json!({"region": "us-west1", "count": 42, "flag": true,
        "opt": "o", "target": {"region": "eu"}, "query": "select 1"})),
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
        c(
            35,
            "tools/call",
            json!({"name": SENTINEL_TOOL, "arguments": {}}),
        ),
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
    out
}

/// Set `params._meta[key]` in the body of a conformant case.
fn with_meta(mut case: Case, key: &str, value: Value) -> Case {
    edit_meta(&mut case, |m| {
        m.insert(key.to_string(), value);
    });
    case
}

fn without_meta(mut case: Case, key: &str) -> Case {
    edit_meta(&mut case, |m| {
        m.remove(key);
    });
    case
}

fn edit_meta(case: &mut Case, f: impl FnOnce(&mut serde_json::Map<String, Value>)) {
    let Ok(mut body) = serde_json::from_slice::<Value>(&case.body) else {
        return;
    };
    if let Some(meta) = body
        .get_mut("params")
        .and_then(|p| p.get_mut("_meta"))
        .and_then(Value::as_object_mut)
    {
        f(meta);
    }
    // serializing a Value cannot fail (all keys are strings)
    case.body = serde_json::to_vec(&body).unwrap_or_default();
}
