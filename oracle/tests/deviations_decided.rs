//! The DEVIATIONS.md entries decided against the spec text alone (not against what an SDK
//! does), one test per decision: each shows an answer the quoted text admits passing and
//! one it does not admit failing, on the rule the entry names.

mod common;

use common::{discover_result, result, rpc_error};
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::fixture::{self, HEADER_TOOL};
use mcpdiff_oracle::reference::{probes::legacy_initialize, respond, to_observation};
use mcpdiff_oracle::{check, judge, Body, Case, HttpAnswer, Observation, Surface};
use serde_json::{json, Value};

fn rules_of(case: &Case, s: &Surface, obs: &Observation) -> Vec<String> {
    let mut r: Vec<String> = check(&judge(case, s), obs)
        .into_iter()
        .map(|f| f.rule)
        .collect();
    r.sort();
    r
}

fn status(code: u16) -> Observation {
    Observation::Http(HttpAnswer::new(code, None, Body::Empty))
}

fn region_call(value: &str) -> Case {
    let s = fixture::surface();
    let args = json!({"region": value, "count": 42, "query": "select 1"});
    let mut c = conformant_case(
        &s,
        json!(1),
        "tools/call",
        json!({"name": HEADER_TOOL, "arguments": args}),
    );
    c.set_header("Mcp-Param-Region", Some(value.as_bytes()));
    c
}

/// A conforming result of the header tool: it declares an outputSchema, so its structured
/// result (and that serialized as text) comes with it.
fn tool_result(id: &Value) -> Observation {
    let structured = json!({"arguments": {}});
    let text = json!([{"type": "text", "text": structured.to_string()}]);
    result(
        id,
        json!({"content": text, "structuredContent": structured, "isError": false}),
    )
}

/// D-04: `Origin: null` is invalid; 403 is required.
#[test]
fn origin_null_must_be_refused() {
    let s = fixture::surface();
    let mut c = conformant_case(&s, json!(1), "server/discover", json!({}));
    c.set_header("Origin", Some(b"null"));
    assert!(rules_of(&c, &s, &status(403)).is_empty());
    assert!(rules_of(&c, &s, &discover_result(&json!(1))).contains(&"SHTTP-ORIGIN-403".into()));
}

/// D-05: the HTTP layer's refusal of a control byte is 400, no other 4xx.
#[test]
fn parser_refusal_is_400() {
    let mut c = region_call("us-west1");
    c.set_header("Mcp-Param-Region", Some(b"us\x01west1"));
    let s = fixture::surface();
    assert!(rules_of(&c, &s, &status(400)).is_empty());
    assert!(!rules_of(&c, &s, &status(431)).is_empty());
}

/// D-11: a URL-safe payload is outside the base alphabet (RFC 4648 §3.3): malformed.
#[test]
fn url_safe_sentinel_is_malformed() {
    let s = fixture::surface();
    // "??>" encodes to "Pz8+" (standard) and "Pz8-" (URL-safe)
    let mut c = region_call("??>");
    c.set_header("Mcp-Param-Region", Some(b"=?base64?Pz8-?="));
    assert!(rules_of(&c, &s, &rpc_error(400, &json!(1), -32020)).is_empty());
    assert!(rules_of(&c, &s, &tool_result(&json!(1))).contains(&"SHTTP-B64-MALFORMED".into()));
    // unpadded stays either way
    let mut c = region_call("??");
    c.set_header("Mcp-Param-Region", Some(b"=?base64?Pz8?="));
    assert!(rules_of(&c, &s, &tool_result(&json!(1))).is_empty());
    assert!(rules_of(&c, &s, &rpc_error(400, &json!(1), -32020)).is_empty());
}

/// D-12: the plain overlap `=?base64?=` may be served or refused with 400/-32020.
#[test]
fn overlap_may_be_served_or_refused() {
    let s = fixture::surface();
    let c = region_call("=?base64?=");
    assert!(rules_of(&c, &s, &tool_result(&json!(1))).is_empty());
    assert!(rules_of(&c, &s, &rpc_error(400, &json!(1), -32020)).is_empty());
    assert!(!rules_of(&c, &s, &rpc_error(500, &json!(1), -32603)).is_empty());
}

/// D-26: the error-code lints bind GET answers of a modern-only server; a dual-era server's
/// GET is older traffic, answered as the 2025-11-25 revision describes, which has no legacy
/// sub-range: its session refusal with -32000 is no BASE-ERRCODE-LEGACY finding.
#[test]
fn get_answers_keep_the_error_code_lints() {
    let legacy_error = Observation::Http(HttpAnswer::new(
        400,
        Some("application/json"),
        Body::Json {
            value: json!({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no session"}}),
        },
    ));
    let mut dual = fixture::surface();
    dual.legacy_era = true;
    let get = Case::post(&dual.endpoint, &[], Vec::new());
    let get = Case {
        method: "GET".into(),
        ..get
    };
    assert!(rules_of(&get, &dual, &legacy_error).is_empty());
    assert!(rules_of(&get, &dual, &status(200)).is_empty());
    let modern = fixture::surface();
    assert!(rules_of(&get, &modern, &legacy_error).contains(&"BASE-ERRCODE-LEGACY".into()));
}

/// D-28: a JSON-RPC error answering a request is JSON or SSE too.
#[test]
fn error_bodies_carry_a_json_content_type() {
    let s = fixture::surface();
    let c = conformant_case(&s, json!(5), "tools/delete", json!({}));
    let plain = Observation::Http(HttpAnswer::new(
        404,
        Some("text/plain"),
        Body::Json {
            value: json!({"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"m"}}),
        },
    ));
    assert_eq!(rules_of(&c, &s, &plain), ["SHTTP-REQ-CT"]);
    assert!(rules_of(&c, &s, &rpc_error(404, &json!(5), -32601)).is_empty());
}

/// D-31: a foreign Content-Type admits 400 or 415, not any 4xx.
#[test]
fn media_refusals_are_400_415_or_406() {
    let s = fixture::surface();
    let mut c = conformant_case(&s, json!(1), "tools/list", json!({}));
    c.set_header("Content-Type", Some(b"text/plain"));
    assert!(rules_of(&c, &s, &status(415)).is_empty());
    assert!(rules_of(&c, &s, &status(400)).is_empty());
    assert!(!rules_of(&c, &s, &status(404)).is_empty());
    assert!(!rules_of(&c, &s, &status(406)).is_empty());
    let mut c = conformant_case(&s, json!(1), "tools/list", json!({}));
    c.set_header("Accept", Some(b"application/json"));
    assert!(rules_of(&c, &s, &status(406)).is_empty());
    assert!(!rules_of(&c, &s, &status(415)).is_empty());
}

/// D-36: on a dual-era target, a removed method whose `_meta` names the modern version is
/// modern: 404/-32601; `initialize` keeps the legacy path.
#[test]
fn modern_meta_makes_a_removed_method_modern() {
    let mut dual = fixture::surface();
    dual.legacy_era = true;
    let ping = conformant_case(&dual, json!(2), "ping", json!({}));
    let pong = result(&json!(2), json!({}));
    assert_eq!(rules_of(&ping, &dual, &pong), ["SHTTP-METHOD-404"]);
    let init = legacy_initialize(&dual);
    assert!(rules_of(&init, &dual, &result(&json!(1), json!({}))).is_empty());
}

/// VER-INIT-NAMES-VERSIONS: the reference names its versions; an error that does not is a
/// SHOULD finding; a dual-era target is not held to it.
#[test]
fn initialize_errors_name_the_supported_versions() {
    let s = fixture::surface();
    let init = legacy_initialize(&s);
    let answer = to_observation(&respond(&init, &s));
    assert!(check(&judge(&init, &s), &answer).is_empty(), "{answer:?}");
    let text = serde_json::to_string(&answer).unwrap();
    assert!(text.contains("2026-07-28"), "{text}");
    let bare = Observation::Http(HttpAnswer::new(
        404,
        Some("application/json"),
        Body::Json {
            value: json!({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}),
        },
    ));
    let f = check(&judge(&init, &s), &bare);
    assert!(f
        .iter()
        .any(|f| f.rule == "VER-INIT-NAMES-VERSIONS" && f.level == "SHOULD"));
    let mut dual = fixture::surface();
    dual.legacy_era = true;
    assert!(!judge(&init, &dual).triggers(mcpdiff_oracle::rules::VER_INIT_NAMES));
}

/// D-61 with D-05: a control byte in a header lets the HTTP parser refuse the message with a
/// bare 400 before any `initialize` is read; that refusal names no versions and is no
/// finding (the reference server's own stack answers so), while a JSON-RPC error to the
/// same request is still held to the sentence only when the message is clean.
#[test]
fn a_parser_refusal_of_initialize_owes_no_versions() {
    let s = fixture::surface();
    let mut init = legacy_initialize(&s);
    init.set_header("MCP-Protocol-Version", Some(b"2026-\x0107-28"));
    let verdict = judge(&init, &s);
    assert!(!verdict.triggers(mcpdiff_oracle::rules::VER_INIT_NAMES));
    let bare = Observation::Http(HttpAnswer::new(400, None, Body::Empty));
    assert!(check(&verdict, &bare).is_empty());
    assert!(judge(&legacy_initialize(&s), &s).triggers(mcpdiff_oracle::rules::VER_INIT_NAMES));
}

/// D-62, D-140, D-145: the reference refuses an unknown cursor and log level with -32602 (the
/// SHOULDs); a result is the SHOULD finding on exactly the sentence that names the refusal.
#[test]
fn unknown_cursor_and_log_level_may_be_refused() {
    let s = fixture::surface();
    let mut loud = conformant_case(&s, json!(3), "tools/list", json!({}));
    let mut body: Value = serde_json::from_slice(&loud.body).unwrap();
    body["params"]["_meta"]["io.modelcontextprotocol/logLevel"] = json!("loud");
    loud.body = serde_json::to_vec(&body).unwrap();
    for (c, rule) in [
        (
            conformant_case(&s, json!(3), "tools/list", json!({"cursor": "abc"})),
            "PAGE-INVALID-CURSOR",
        ),
        (loud, "LOG-INVALID-LEVEL"),
    ] {
        let answer = to_observation(&respond(&c, &s));
        assert_eq!(answer.http().and_then(HttpAnswer::error_code), Some(-32602));
        assert!(check(&judge(&c, &s), &answer).is_empty());
        let tools = json!({"tools": [], "ttlMs": 0, "cacheScope": "public"});
        assert_eq!(rules_of(&c, &s, &result(&json!(3), tools)), [rule]);
    }
}

/// D-40: a client must encode the overlap `=?base64?=`.
#[test]
fn clients_encode_the_overlap() {
    use mcpdiff_oracle::annotations::ParamKind;
    use mcpdiff_oracle::client_judge::{judge_value, ValueKind};
    let kind = ValueKind::Param(ParamKind::String);
    let body = json!("=?base64?=");
    assert!(judge_value(kind, "=?base64?=", &body, b"=?base64?PT9iYXNlNjQ/PQ==?=").is_ok());
    let (rule, _) = judge_value(kind, "=?base64?=", &body, b"=?base64?=").unwrap_err();
    assert_eq!(rule.0, "CLIENT-B64-COLLISION");
}

/// The reference meets the SHOULDs a prober can check beyond the judged rules: completion of
/// an unknown prompt is -32602 (completion.mdx), and structured content comes with its
/// serialized JSON as text (tools.mdx).
#[test]
fn reference_meets_the_unjudged_shoulds() {
    let s = fixture::surface();
    let c = conformant_case(
        &s,
        json!(9),
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "no_such_prompt"},
               "argument": {"name": "code", "value": "fn"}}),
    );
    let answer = to_observation(&respond(&c, &s));
    assert_eq!(answer.http().and_then(HttpAnswer::error_code), Some(-32602));
    assert!(check(&judge(&c, &s), &answer).is_empty());
    let call = region_call("us-west1");
    let answer = to_observation(&respond(&call, &s));
    let result = answer.http().and_then(HttpAnswer::rpc_response).unwrap()["result"].clone();
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, result["structuredContent"]);
}

/// D-125, amended: a `prompts/get` whose `arguments` hold a non-string value breaks
/// `GetPromptRequestParams`, so -32602 («invalid or malformed» params) stays acceptable beside
/// the 400/-32020 a mismatched `Mcp-Name` asks for; with string arguments it does not.
#[test]
fn malformed_prompt_arguments_admit_invalid_params_beside_a_header_refusal() {
    let s = fixture::surface();
    let prompt_named = |name: &str, code: Value| {
        let mut c = conformant_case(
            &s,
            json!(767),
            "prompts/get",
            json!({"name": name, "arguments": {"code": code}}),
        );
        c.set_header("Mcp-Name", Some(b"file"));
        c
    };
    let prompt = |code: Value| prompt_named(fixture::PROMPT, code);
    let (malformed, well_formed) = (prompt(json!(7)), prompt(json!("x")));
    let invalid = rpc_error(400, &json!(767), -32602);
    assert!(rules_of(&malformed, &s, &invalid).is_empty());
    // whatever the prompt: a name the target does not list changes nothing of the params' shape
    let unknown = prompt_named(HEADER_TOOL, json!(7));
    assert!(rules_of(&unknown, &s, &invalid).is_empty());
    let unknown_well_formed = prompt_named(HEADER_TOOL, json!("x"));
    assert_eq!(
        rules_of(&unknown_well_formed, &s, &invalid),
        ["SHTTP-HDR-ERR-32020"]
    );
    assert!(rules_of(&malformed, &s, &rpc_error(400, &json!(767), -32020)).is_empty());
    assert_eq!(
        rules_of(&well_formed, &s, &invalid),
        ["SHTTP-HDR-ERR-32020"]
    );
    // served: the header MUST still decides
    let served = result(&json!(767), json!({"messages": []}));
    assert!(!rules_of(&malformed, &s, &served).is_empty());
}

/// D-125, amended, on `subscriptions/listen`: without the valid `notifications` filter that
/// `SubscriptionsListenRequestParams` requires, -32602 stays acceptable beside the 400/-32020
/// a mismatched `Mcp-Method` asks for; with it, it does not.
#[test]
fn a_listen_without_notifications_admits_invalid_params_beside_a_header_refusal() {
    let s = fixture::surface();
    let listen = |params: Value| {
        let mut c = conformant_case(&s, json!(235), "subscriptions/listen", params);
        c.set_header("Mcp-Method", Some(b"file"));
        c
    };
    let bare = listen(json!({}));
    let ill_typed = listen(json!({"notifications": {"resourcesListChanged": 1}}));
    let asked = listen(json!({"notifications": {"toolsListChanged": true}}));
    let invalid = rpc_error(400, &json!(235), -32602);
    assert!(rules_of(&bare, &s, &invalid).is_empty());
    assert!(rules_of(&ill_typed, &s, &invalid).is_empty());
    assert_eq!(rules_of(&asked, &s, &invalid), ["SHTTP-HDR-ERR-32020"]);
    assert!(rules_of(&asked, &s, &rpc_error(400, &json!(235), -32020)).is_empty());
}

/// D-125, amended again: a `tools/call` whose params fail the CallToolRequest schema (here
/// `arguments` that is no object) may be refused with any standard JSON-RPC error («Malformed
/// requests … are returned as standard JSON-RPC errors», no code fixed), also beside the
/// 400/-32020 a mismatched `Mcp-Name` asks for; a well-formed call's -32601 stays a finding on
/// the rule the request's success set is filed under.
#[test]
fn a_malformed_tool_call_admits_every_standard_json_rpc_error() {
    let s = fixture::surface();
    let call = |arguments: Value| {
        conformant_case(
            &s,
            json!(912),
            "tools/call",
            json!({"name": fixture::PLAIN_TOOL, "arguments": arguments}),
        )
    };
    let (malformed, well_formed) = (call(json!(["Seattle"])), call(json!({"city": "Seattle"})));
    for code in [-32600, -32601, -32602, -32603] {
        let refused = rpc_error(404, &json!(912), code);
        assert!(rules_of(&malformed, &s, &refused).is_empty(), "{code}");
    }
    let not_found = rpc_error(404, &json!(912), -32601);
    assert_eq!(
        rules_of(&well_formed, &s, &not_found),
        ["SHTTP-HDR-MN-SOURCE"]
    );
    // beside a header refusal: validating the params first is as good
    let mut mismatched = malformed.clone();
    mismatched.set_header("Mcp-Name", Some(b"file"));
    assert!(rules_of(&mismatched, &s, &not_found).is_empty());
    let mut mismatched_well_formed = well_formed.clone();
    mismatched_well_formed.set_header("Mcp-Name", Some(b"file"));
    assert_eq!(
        rules_of(&mismatched_well_formed, &s, &not_found),
        ["SHTTP-HDR-ERR-32020"]
    );
}
