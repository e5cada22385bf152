//! Readings where the spec admits two answers and the oracle accepts both, each held to the
//! words that admit it (oracle/DEVIATIONS.md):
//! - an `io.modelcontextprotocol/clientInfo` that is not an `Implementation` (D-47): optional,
//!   but when present its schema requires `name` and `version`, so refusing `{}` with
//!   400/-32602 is as right as ignoring it;
//! - an `Mcp-Param-*` header on a method other than `tools/call` (D-16): there is no body value
//!   to match, so ignoring it and refusing it with 400/-32020 are both right;
//! - an unsupported protocol version together with an `Mcp-Param-*` defect (PRECEDENCE.md row
//!   15, AMB-38, D-20): nothing mandates checking the version first, so 400/-32020 is as right
//!   as 400/-32022;
//! - an `x-mcp-header` key inside instance data (`examples`, D-49): "anywhere else" read
//!   literally makes it an annotation (the tool invalid, its calls refused); read as data, the
//!   tool is valid: both stand;
//! - a dual-era server may answer an unsupported version on a body without `_meta` as
//!   2025-11-25 says, with a plain 400 (D-50).

mod common;

use common::{discover_result, result, rpc_error};
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::fixture::{self, HEADER_TOOL, PLAIN_TOOL, PROMPT};
use mcpdiff_oracle::{check, judge, Body, Case, HttpAnswer, Observation};
use serde_json::{json, Value};

fn with_client_info(c: &mut Case, info: Value) {
    let mut body: Value = serde_json::from_slice(&c.body).expect("conformant body is JSON");
    body["params"]["_meta"]["io.modelcontextprotocol/clientInfo"] = info;
    c.body = serde_json::to_vec(&body).expect("serializes");
}

#[test]
fn malformed_client_info_may_be_rejected_as_invalid_params() {
    let s = fixture::surface();
    let id = json!(860);
    for info in [
        json!({}),
        json!({"name": "x"}),
        json!("mcpdiff"),
        json!({"name": 1, "version": "1"}),
    ] {
        let mut c = conformant_case(&s, id.clone(), "server/discover", json!({}));
        with_client_info(&mut c, info.clone());
        let v = judge(&c, &s);
        assert!(
            check(&v, &rpc_error(400, &id, -32602)).is_empty(),
            "{info}: 400/-32602 is right"
        );
        assert!(
            check(&v, &discover_result(&id)).is_empty(),
            "{info}: ignoring the field is right"
        );
        // the status of an invalid-params refusal is fixed at 400 by the same paragraph
        assert!(
            !check(&v, &rpc_error(200, &id, -32602)).is_empty(),
            "{info}: 200/-32602 is not"
        );
    }
}

#[test]
fn well_formed_client_info_still_demands_success() {
    let s = fixture::surface();
    let id = json!(1);
    let mut c = conformant_case(&s, id.clone(), "server/discover", json!({}));
    with_client_info(&mut c, json!({"name": "x", "version": "1", "title": "X"}));
    assert!(!check(&judge(&c, &s), &rpc_error(400, &id, -32602)).is_empty());
    // and a malformed clientInfo does not excuse the missing-header defects of a tools/call
    let mut c = conformant_case(&s, id.clone(), "tools/call", json!({"name": PLAIN_TOOL}));
    c.set_header("Mcp-Method", None);
    with_client_info(&mut c, json!({}));
    let v = judge(&c, &s);
    assert!(check(&v, &rpc_error(400, &id, -32602)).is_empty());
    assert!(
        !check(&v, &discover_result(&id)).is_empty(),
        "success stays forbidden"
    );
}

#[test]
fn param_header_outside_tools_call_may_be_refused_as_a_mismatch() {
    let s = fixture::surface();
    let id = json!(-1);
    let mut c = conformant_case(&s, id.clone(), "prompts/get", json!({"name": PROMPT}));
    c.set_header("Mcp-Param-Extra", Some(b"x"));
    let v = judge(&c, &s);
    assert!(
        check(&v, &rpc_error(400, &id, -32020)).is_empty(),
        "400/-32020 is right"
    );
    // without the stray header the same refusal is still a finding
    let c = conformant_case(&s, id.clone(), "prompts/get", json!({"name": PROMPT}));
    assert!(!check(&judge(&c, &s), &rpc_error(400, &id, -32020)).is_empty());
}

#[test]
fn unsupported_version_with_a_param_defect_may_be_refused_as_a_mismatch() {
    let s = fixture::surface();
    let id = json!(879);
    let args = json!({"name": HEADER_TOOL, "arguments": {"region": "eu", "query": "q"}});
    let mut c = conformant_case(&s, id.clone(), "tools/call", args.clone());
    let mut body: Value = serde_json::from_slice(&c.body).expect("conformant body is JSON");
    body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-12-31");
    c.body = serde_json::to_vec(&body).expect("serializes");
    c.set_header("MCP-Protocol-Version", Some(b"2099-12-31"));
    // with Mcp-Param-Region present only the version is wrong: -32022 alone
    assert!(!check(&judge(&c, &s), &rpc_error(400, &id, -32020)).is_empty());
    // without it, the header rules of 2026-07-28 would refuse too: -32020 joins
    c.set_header("Mcp-Param-Region", None);
    assert!(check(&judge(&c, &s), &rpc_error(400, &id, -32020)).is_empty());
    // nor one this revision leaves open: a header for an absent argument (D-08)
    c.set_header("Mcp-Param-Region", Some(b"eu"));
    c.set_header("Mcp-Param-Count", Some(b"7"));
    assert!(check(&judge(&c, &s), &rpc_error(400, &id, -32020)).is_empty());
}

/// «An `x-mcp-header` annotation anywhere else makes the annotation — and thus the tool
/// definition — invalid.» Read literally, `"examples": [{"x-mcp-header": ""}]` is such an
/// annotation: the tool is invalid and every call may be refused with 400/-32020. Read as
/// instance data, the tool is valid. The spec does not settle it, so both answers are accepted
/// (DEVIATIONS.md D-49).
#[test]
fn annotation_lookalike_in_instance_data_may_make_calls_refused() {
    use mcpdiff_oracle::annotations::has_annotation_lookalike;
    use mcpdiff_oracle::surface::ToolDecl;
    let lookalike = json!({"type": "object", "properties": {
        "flag": {"type": "object", "properties": {"on": {"type": "boolean", "x-mcp-header": "On"}}},
        "data_like": {"type": "object", "examples": [{"x-mcp-header": ""}]}}});
    let plain = json!({"type": "object", "properties": {
        "flag": {"type": "object", "properties": {"on": {"type": "boolean", "x-mcp-header": "On"}}}}});
    assert!(has_annotation_lookalike(&lookalike));
    assert!(!has_annotation_lookalike(&plain));
    let mut s = fixture::surface();
    s.tools.push(ToolDecl::new("lookalike", lookalike, true));
    s.tools.push(ToolDecl::new("plain", plain, true));
    let id = json!(250);
    let call = |name: &str| {
        let c = conformant_case(
            &s,
            id.clone(),
            "tools/call",
            json!({"name": name, "arguments": {}}),
        );
        judge(&c, &s)
    };
    assert!(check(&call("lookalike"), &rpc_error(400, &id, -32020)).is_empty());
    assert!(check(&call("lookalike"), &result(&id, json!({"content": []}))).is_empty());
    assert!(!check(&call("plain"), &rpc_error(400, &id, -32020)).is_empty());
}

/// An unsupported `MCP-Protocol-Version` on a body without a `_meta` version: nothing names a
/// modern version, and 2025-11-25 says only "MUST respond with `400 Bad Request`", so a
/// dual-era server may answer a plain-text 400 (D-50); a modern-only server still owes the
/// JSON-RPC error, and 200 stays wrong for both.
#[test]
fn dual_era_unsupported_version_without_meta_may_get_a_plain_400() {
    let plain = |status| {
        Observation::Http(HttpAnswer::new(
            status,
            None,
            Body::Other {
                len: 49,
                prefix: "Bad Request: Unsupported MCP-Protocol-Version".into(),
            },
        ))
    };
    let mut dual = fixture::surface();
    dual.legacy_era = true;
    let modern = fixture::surface();
    assert!(dual.is_dual_era() && !modern.is_dual_era());
    for version in ["1900-", "2099-01-01"] {
        let c = Case::post(
            "/mcp",
            &[
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
                ("MCP-Protocol-Version", version),
                ("Mcp-Method", "tools/list"),
            ],
            br#"{"jsonrpc":"2.0","id":"t4qkt","method":"tools/list"}"#.to_vec(),
        );
        assert!(
            check(&judge(&c, &dual), &plain(400)).is_empty(),
            "{version}"
        );
        assert!(
            !check(&judge(&c, &dual), &plain(200)).is_empty(),
            "{version}"
        );
        assert!(
            !check(&judge(&c, &modern), &plain(400)).is_empty(),
            "{version}"
        );
    }
    // "invalid" too: a version with bytes outside the token syntax (obs-text)
    let mut c = Case::post(
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
        br#"{"jsonrpc":"2.0","id":"78ebq7","method":"tools"}"#.to_vec(),
    );
    c.set_header("MCP-Protocol-Version", Some(b"2026-07-28\x80"));
    assert!(check(&judge(&c, &dual), &plain(400)).is_empty());
    assert!(!check(&judge(&c, &modern), &plain(400)).is_empty());
}
