//! The readings of D-160..D-166 (base-protocol shape, multi-round requests), each shown on the
//! rule it names: the reference's own answer passes, the same answer edited the way the entry
//! admits still passes, and the edit the entry rejects fails on exactly that rule.

mod common;

use common::{broken, call};
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::reference::{respond, to_observation};
use mcpdiff_oracle::{check, fixture, judge, Body, Case, Observation};
use serde_json::{json, Value};

fn parse_error() -> Case {
    let s = fixture::surface();
    Case::post(
        &s.endpoint,
        &[
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
        b"{\"jsonrpc\": \"2.0\", \"id\": 2, ".to_vec(),
    )
}

/// D-160: a code present but not an integer is BASE-ERROR-INT's alone; `-32700.0` is an
/// integer; a missing code stays BASE-ERROR-SHAPE's.
#[test]
fn d160_integer_codes() {
    let s = fixture::surface();
    let c = parse_error();
    assert!(broken(&c, &s, |_| {}).is_empty());
    assert!(broken(&c, &s, |v| v["error"]["code"] = json!(-32700.0)).is_empty());
    assert_eq!(
        broken(&c, &s, |v| v["error"]["code"] = json!("-32700")),
        ["BASE-ERROR-INT"]
    );
    assert_eq!(
        broken(&c, &s, |v| v["error"]["code"] = json!(-32700.5)),
        ["BASE-ERROR-INT"]
    );
    let shape = broken(&c, &s, |v| {
        v["error"].as_object_mut().map(|e| e.remove("code"));
    });
    assert!(shape.contains(&"BASE-ERROR-SHAPE".to_string()), "{shape:?}");
    assert!(!shape.contains(&"BASE-ERROR-INT".to_string()), "{shape:?}");
}

/// D-161: -32768..-32100 less the JSON-RPC codes is the SHOULD's; -32050 stays the MUST NOT's.
#[test]
fn d161_reserved_range_split() {
    let s = fixture::surface();
    let c = parse_error();
    assert_eq!(
        broken(&c, &s, |v| v["error"]["code"] = json!(-32500)),
        ["BASE-ERRCODE-APP-RANGE"]
    );
    assert!(broken(&c, &s, |v| v["error"]["code"] = json!(-31000)).is_empty());
    assert_eq!(
        broken(&c, &s, |v| v["error"]["code"] = json!(-32050)),
        ["BASE-ERRCODE-RESERVED-UNDEFINED"]
    );
}

/// D-162: a result `_meta` key is judged by the page's grammar; non-ASCII letters in a label
/// and an empty name pass; an unprefixed extension identifier fails VER-EXT-IDS.
#[test]
fn d162_meta_keys_and_extension_ids() {
    let s = fixture::surface();
    let c = call("prompts/list", json!({}));
    let meta = |k: &'static str| move |v: &mut Value| v["result"]["_meta"][k] = json!(1);
    assert!(broken(&c, &s, meta("com.exämple/x")).is_empty());
    assert!(broken(&c, &s, meta("com.example/")).is_empty());
    assert_eq!(broken(&c, &s, meta("com..example/x")), ["BASE-META-KEYS"]);
    assert_eq!(broken(&c, &s, meta("x/y/z")), ["BASE-META-KEYS"]);
    let d = call("server/discover", json!({}));
    assert!(broken(&d, &s, |v| {
        v["result"]["capabilities"]["extensions"] = json!({"io.modelcontextprotocol/ui": {}})
    })
    .is_empty());
    assert_eq!(
        broken(&d, &s, |v| v["result"]["capabilities"]["extensions"] =
            json!({"ui": {}})),
        ["VER-EXT-IDS"]
    );
}

/// D-163: W3C formats; a value that is no string fails.
#[test]
fn d163_trace_context() {
    let s = fixture::surface();
    let c = call("prompts/list", json!({}));
    let set = |k: &'static str, x: Value| move |v: &mut Value| v["result"]["_meta"][k] = x;
    let tp = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    assert!(broken(&c, &s, set("traceparent", json!(tp))).is_empty());
    assert!(broken(&c, &s, set("baggage", json!("a=1,b=2;p"))).is_empty());
    assert_eq!(
        broken(&c, &s, set("traceparent", json!(tp.to_uppercase()))),
        ["BASE-TRACE-FORMAT"]
    );
    assert_eq!(
        broken(&c, &s, set("tracestate", json!(42))),
        ["BASE-TRACE-FORMAT"]
    );
}

/// D-164: only the two core values while the target advertises no extension; any value once
/// it advertises one, to a client that declares an extension (to one that declares none, the
/// value is VER-EXT-FALLBACK's, D-183).
#[test]
fn d164_result_types() {
    let mut s = fixture::surface();
    let c = call("prompts/list", json!({}));
    let odd = |v: &mut Value| v["result"]["resultType"] = json!("partial");
    assert_eq!(broken(&c, &s, odd), ["BASE-RESULTTYPE-SET"]);
    s.capabilities.extensions = true;
    assert_eq!(broken(&c, &s, odd), ["VER-EXT-FALLBACK"]);
    let mut declared = c.clone();
    let mut body: Value = serde_json::from_slice(&declared.body).expect("JSON body");
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {"dev.mcpdiff/fixture": {}}});
    declared.body = serde_json::to_vec(&body).expect("serializes");
    assert!(broken(&declared, &s, odd).is_empty());
}

/// D-165: an InputRequiredResult is named by its resultType; on tools/call it needs a member
/// and only the three request types; elsewhere it is refused.
#[test]
fn d165_input_required() {
    let s = fixture::surface();
    // (the requests declare `roots`, so asking for roots breaks no MRTR-NO-UNDECLARED, D-174)
    let declaring_roots = |mut c: Case| {
        let mut body: Value = serde_json::from_slice(&c.body).expect("json body");
        body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
            json!({"roots": {}});
        c.body = body.to_string().into_bytes();
        c
    };
    let tool = declaring_roots(call(
        "tools/call",
        json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "Seattle, WA"}}),
    ));
    let ir = |extra: Value| {
        move |v: &mut Value| {
            v["result"]["resultType"] = json!("input_required");
            if let (Some(r), Value::Object(x)) = (v["result"].as_object_mut(), extra) {
                r.extend(x);
            }
        }
    };
    let roots = json!({"inputRequests": {"r": {"method": "roots/list"}}});
    assert!(broken(&tool, &s, ir(roots.clone())).is_empty());
    assert!(broken(&tool, &s, ir(json!({"requestState": "x"}))).is_empty());
    assert_eq!(broken(&tool, &s, ir(json!({}))), ["MRTR-ATLEASTONE"]);
    assert_eq!(
        broken(
            &tool,
            &s,
            ir(json!({"inputRequests": {"r": {"method": "tools/list"}}}))
        ),
        ["MRTR-VALUE-TYPES"]
    );
    let list = declaring_roots(call("prompts/list", json!({})));
    assert_eq!(broken(&list, &s, ir(roots)), ["MRTR-ONLY-SUPPORTED"]);
}

/// D-166: a `notifications/…` message with an id on a response stream is BASE-NOTIF-NO-ID's,
/// not SHTTP-SSE-NO-REQUESTS'; a request (`ping`) stays the latter's.
#[test]
fn d166_notification_ids() {
    use mcpdiff_oracle::SseMessage;
    let s = fixture::surface();
    let mut c = call(
        "tools/call",
        json!({"name": fixture::STREAM_TOOL, "arguments": {"to": 2}}),
    );
    let mut body: Value = serde_json::from_slice(&c.body).expect("json body");
    body["params"]["_meta"]["progressToken"] = json!("p");
    c.body = body.to_string().into_bytes();
    let with = |m: Value| {
        let mut obs = to_observation(&respond(&c, &s));
        if let Observation::Http(a) = &mut obs {
            if let Body::Sse { messages, .. } = &mut a.body {
                messages.insert(0, SseMessage::Json(m));
            } else {
                panic!("expected an SSE answer");
            }
        }
        let mut r: Vec<String> = check(&judge(&c, &s), &obs)
            .into_iter()
            .map(|f| f.rule)
            .collect();
        r.sort();
        r
    };
    let note = json!({"jsonrpc": "2.0", "id": 9, "method": "notifications/message",
        "params": {"level": "info", "data": "x"}});
    assert_eq!(with(note), ["BASE-NOTIF-NO-ID"]);
    let ping = json!({"jsonrpc": "2.0", "id": 9, "method": "ping"});
    assert_eq!(with(ping), ["SHTTP-SSE-NO-REQUESTS"]);
}

/// D-168: a response without `"jsonrpc": "2.0"` breaks BASE-JSONRPC alone.
#[test]
fn d168_jsonrpc_member() {
    let s = fixture::surface();
    let c = call("prompts/list", json!({}));
    assert_eq!(
        broken(&c, &s, |v| v["jsonrpc"] = json!("1.0")),
        ["BASE-JSONRPC"]
    );
    assert_eq!(
        broken(&c, &s, |v| {
            v.as_object_mut().map(|o| o.remove("jsonrpc"));
        }),
        ["BASE-JSONRPC"]
    );
}

/// D-183: on a target advertising an extension, a client that declares none gets core
/// behaviour: a result with another resultType breaks VER-EXT-FALLBACK alone (not
/// BASE-RESULTTYPE-SET, which is not judged there); a client that declares an extension may
/// get it; an error answer is the rejection the sentence allows.
#[test]
fn d183_extension_fallback_for_a_client_without_the_extension() {
    let s = fixture::extension_surface();
    let weather = json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "Oslo"}});
    let plain = conformant_case(&s, json!(1), "tools/call", weather.clone());
    let deferred = |v: &mut Value| v["result"]["resultType"] = json!("deferred");
    assert!(broken(&plain, &s, |_| {}).is_empty());
    assert_eq!(broken(&plain, &s, deferred), ["VER-EXT-FALLBACK"]);
    assert!(broken(&plain, &s, |v| {
        *v = json!({"jsonrpc": "2.0", "id": 1,
                    "error": {"code": -32602, "message": "extension required"}});
    })
    .is_empty());
    // the client declares an extension: not judged
    let mut declared = plain.clone();
    let mut body: Value = serde_json::from_slice(&declared.body).expect("JSON body");
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {"dev.mcpdiff/fixture": {}}});
    declared.body = serde_json::to_vec(&body).expect("serializes");
    assert!(broken(&declared, &s, deferred).is_empty());
    // a target advertising none: the same value is BASE-RESULTTYPE-SET's (D-164)
    let f = fixture::surface();
    let on_plain = conformant_case(&f, json!(1), "tools/call", weather);
    assert_eq!(broken(&on_plain, &f, deferred), ["BASE-RESULTTYPE-SET"]);
}
