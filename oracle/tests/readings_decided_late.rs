//! The DEVIATIONS.md entries revised against the spec text after their first reading, one
//! test per decision: an answer the quoted text admits passes, one it does not admit fails on the rule
//! the entry names. D-09 (a repeated mirrored field's value is its copies joined, RFC 9110
//! §5.2), D-24 (a readable id is echoed by the refusal of a malformed request), D-37 (a
//! `tools/list` result lists no tool whose `x-mcp-header` breaks the constraints).

mod common;

use common::{discover_result, result, rpc_error};
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::fixture::{self, HEADER_TOOL, PLAIN_TOOL};
use mcpdiff_oracle::{check, judge, Case, Surface};
use serde_json::{json, Value};

fn rules_of(case: &Case, s: &Surface, obs: &mcpdiff_oracle::Observation) -> Vec<String> {
    let mut r: Vec<String> = check(&judge(case, s), obs)
        .into_iter()
        .map(|f| f.rule)
        .collect();
    r.sort();
    r
}

fn weather(s: &Surface) -> Case {
    conformant_case(
        s,
        json!(1),
        "tools/call",
        json!({"name": PLAIN_TOOL, "arguments": {"location": "Seattle, WA"}}),
    )
}

fn again(mut c: Case, name: &str, value: &str) -> Case {
    c.headers
        .push((name.as_bytes().to_vec(), value.as_bytes().to_vec()));
    c
}

fn tool_result() -> mcpdiff_oracle::Observation {
    result(&json!(1), json!({"content": [], "isError": false}))
}

/// D-09: `Mcp-Name: get_weather` twice has the value `get_weather, get_weather`, which is not
/// the body's: serving is a mismatch, 400/-32020 passes.
#[test]
fn identical_copies_are_a_mismatch() {
    let s = fixture::surface();
    let c = again(weather(&s), "Mcp-Name", PLAIN_TOOL);
    assert!(rules_of(&c, &s, &rpc_error(400, &json!(1), -32020)).is_empty());
    assert_eq!(rules_of(&c, &s, &tool_result()), ["SHTTP-HDR-MISMATCH-400"]);
}

/// D-09: a second copy naming another tool, version or parameter value must be refused.
#[test]
fn differing_copies_must_be_refused() {
    let s = fixture::surface();
    for (name, value, rule) in [
        ("Mcp-Name", "get_forecast", "SHTTP-HDR-MISMATCH-400"),
        ("Mcp-Method", "tools/list", "SHTTP-HDR-MISMATCH-400"),
        (
            "MCP-Protocol-Version",
            "2025-11-25",
            "SHTTP-PV-MISMATCH-400",
        ),
    ] {
        let c = again(weather(&s), name, value);
        assert!(
            rules_of(&c, &s, &tool_result()).contains(&rule.to_string()),
            "{name}"
        );
        assert!(
            rules_of(&c, &s, &rpc_error(400, &json!(1), -32020)).is_empty(),
            "{name}"
        );
    }
    let args = json!({"region": "us-west1", "count": 42, "query": "select 1"});
    let sql = conformant_case(
        &s,
        json!(1),
        "tools/call",
        json!({"name": HEADER_TOOL, "arguments": args}),
    );
    let c = again(sql, "Mcp-Param-Region", "eu-central1");
    assert!(rules_of(&c, &s, &tool_result()).contains(&"SHTTP-PARAM-VALIDATE".to_string()));
}

/// D-09: copies whose joined value is exactly the body's may be served.
#[test]
fn copies_joined_into_the_body_value_may_be_served() {
    let s = fixture::surface();
    let mut c = weather(&s);
    c.set_header("Mcp-Name", Some(b"a"));
    let mut body: Value = serde_json::from_slice(&c.body).expect("json");
    body["params"]["name"] = json!("a, b");
    c.body = body.to_string().into_bytes();
    let c = again(c, "Mcp-Name", "b");
    // (an unknown tool: the name rule alone is looked at)
    let rules = rules_of(&c, &s, &tool_result());
    assert!(!rules.iter().any(|r| r.contains("MISMATCH")), "{rules:?}");
}

/// D-24: an object with a readable id that is no valid request: the refusal echoes the id.
#[test]
fn readable_id_of_a_malformed_request_is_echoed() {
    let s = fixture::surface();
    let mut c = conformant_case(&s, json!(34), "tools/list", json!({}));
    c.body = br#"{"jsonrpc":"1.0","id":34,"method":"tools/list"}"#.to_vec();
    assert!(rules_of(&c, &s, &rpc_error(400, &json!(34), -32600)).is_empty());
    assert_eq!(
        rules_of(&c, &s, &rpc_error(400, &Value::Null, -32600)),
        ["BASE-ERROR-ID"]
    );
    // the same request well formed is served
    let ok = conformant_case(&s, json!(34), "server/discover", json!({}));
    assert!(rules_of(&ok, &s, &discover_result(&json!(34))).is_empty());
    // an id that could not be read (a fractional one) owes nothing
    c.body = br#"{"jsonrpc":"2.0","id":3.5,"method":"tools/list"}"#.to_vec();
    assert!(rules_of(&c, &s, &rpc_error(400, &Value::Null, -32600)).is_empty());
}

/// D-37: a listed tool whose `x-mcp-header` is empty breaks the constraints; a tool whose
/// only defect is an integer bound beyond the safe range does not (D-45).
#[test]
fn tools_list_lists_no_invalid_annotation() {
    let s = fixture::surface();
    let c = conformant_case(&s, json!(1), "tools/list", json!({}));
    let listed = |schema: Value| {
        result(
            &json!(1),
            // with its caching hints, so that only the annotation rule can fail
            json!({"tools": [{"name": "t", "inputSchema": schema}],
                   "ttlMs": 0, "cacheScope": "public"}),
        )
    };
    let empty = json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": ""}}});
    assert_eq!(rules_of(&c, &s, &listed(empty)), ["TOOLS-XMCP-CONSTRAINTS"]);
    let unsafe_bound = json!({"type": "object", "properties": {
        "n": {"type": "integer", "maximum": 1e300, "x-mcp-header": "N"}}});
    assert!(rules_of(&c, &s, &listed(unsafe_bound)).is_empty());
    let valid = json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"}}});
    assert!(rules_of(&c, &s, &listed(valid)).is_empty());
}
