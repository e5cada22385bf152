//! The readings of D-190..D-194 (the SHOULD-level rules of the issue 23 sweep), each shown on
//! the rule it names: the reference's answer passes, an answer the entry admits passes, and
//! one it does not admit fails on exactly that rule.

mod common;

use common::{broken, call, rules_of};
use mcpdiff_oracle::{fixture, judge, Case};
use serde_json::{json, Value};

/// D-190: another published dialect by `$schema` is the SHOULD finding; 2020-12, a custom
/// meta-schema and no `$schema` pass.
#[test]
fn d190_schema_dialect() {
    let s = fixture::surface();
    let c = call("tools/list", json!({}));
    let declare = |uri: &'static str| {
        move |v: &mut Value| v["result"]["tools"][0]["inputSchema"]["$schema"] = json!(uri)
    };
    assert!(broken(&c, &s, |_| {}).is_empty());
    for ok in [
        "https://json-schema.org/draft/2020-12/schema",
        "https://example.com/dialects/mine",
    ] {
        assert!(broken(&c, &s, declare(ok)).is_empty(), "{ok}");
    }
    for other in [
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2019-09/schema",
    ] {
        assert_eq!(
            broken(&c, &s, declare(other)),
            ["BASE-SCHEMA-2020-12"],
            "{other}"
        );
    }
    // an outputSchema is read too
    let out = broken(&c, &s, |v| {
        v["result"]["tools"][1]["outputSchema"]["$schema"] =
            json!("http://json-schema.org/draft-04/schema#")
    });
    assert_eq!(out, ["BASE-SCHEMA-2020-12"]);
}

/// D-191: a completion for a prompt the target does not list, or without the `ref` and
/// `argument` the schema requires, is refused with -32602 (any status); a result is the
/// SHOULD finding, another error code too.
#[test]
fn d191_completion_errors() {
    let s = fixture::surface();
    let unknown = call(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "nope"},
            "argument": {"name": "code", "value": ""}}),
    );
    let missing = call(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": fixture::PROMPT}}),
    );
    let id = json!(1);
    for c in [&unknown, &missing] {
        assert!(broken(c, &s, |_| {}).is_empty());
        assert!(rules_of(c, &s, &common::rpc_error(400, &id, -32602)).is_empty());
        let served = common::result(
            &id,
            json!({"completion": {"values": [], "total": 0, "hasMore": false}}),
        );
        assert_eq!(rules_of(c, &s, &served), ["COMPL-ERRORS"]);
        assert_eq!(
            rules_of(c, &s, &common::rpc_error(200, &id, -32603)),
            ["COMPL-ERRORS"]
        );
    }
    // a known prompt with both members is served; an unknown resource is not this rule's
    let known = call(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": fixture::PROMPT},
            "argument": {"name": "code", "value": "fn"}}),
    );
    assert!(!judge(&known, &s).triggers(mcpdiff_oracle::rules::COMPL_ERRORS));
    let resource = call(
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "file:///nope"},
            "argument": {"name": "day", "value": ""}}),
    );
    assert!(!judge(&resource, &s).triggers(mcpdiff_oracle::rules::COMPL_ERRORS));
}

fn weather_with(responses: Value) -> Case {
    call(
        "tools/call",
        json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "Oslo"},
            "inputResponses": responses}),
    )
}

/// D-192: an `inputResponses` that is no object is refused with any JSON-RPC error (or an
/// error status); serving it is the SHOULD finding; `null` is left open.
#[test]
fn d192_input_responses_validated() {
    let s = fixture::surface();
    let id = json!(1);
    let served = common::result(&id, json!({"content": [], "isError": false}));
    for bad in [json!("yes"), json!([]), json!(7)] {
        let c = weather_with(bad.clone());
        assert!(broken(&c, &s, |_| {}).is_empty(), "{bad}");
        for code in [-32602, -32600] {
            assert!(rules_of(&c, &s, &common::rpc_error(400, &id, code)).is_empty());
        }
        assert_eq!(rules_of(&c, &s, &served), ["MRTR-VALIDATE-INPUTS"], "{bad}");
    }
    let null = weather_with(Value::Null);
    assert!(!judge(&null, &s).triggers(mcpdiff_oracle::rules::MRTR_VALIDATE_INPUTS));
    // the same on the other two methods that take it
    let read = call(
        "resources/read",
        json!({"uri": fixture::RESOURCE, "inputResponses": "yes"}),
    );
    assert!(judge(&read, &s).triggers(mcpdiff_oracle::rules::MRTR_VALIDATE_INPUTS));
}

/// D-193: entries no InputRequests asked for are ignored: the call is served as without
/// them; a -32602 (or any refusal) is the SHOULD finding, blamed on this rule alone.
#[test]
fn d193_unrequested_entries_ignored() {
    let s = fixture::surface();
    let id = json!(1);
    let c = weather_with(json!({"mcpdiff.unrequested": {"action": "decline"}}));
    assert!(broken(&c, &s, |_| {}).is_empty());
    for code in [-32602, -32600] {
        assert_eq!(
            rules_of(&c, &s, &common::rpc_error(200, &id, code)),
            ["MRTR-IGNORE-EXTRA"]
        );
    }
    // without the entries the same -32602 is admitted (D-30): it is the entry's refusal
    let plain = call(
        "tools/call",
        json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "Oslo"}}),
    );
    assert!(rules_of(&plain, &s, &common::rpc_error(200, &id, -32602)).is_empty());
    // a call that departs otherwise too keeps the -32602 that departure admits: with no
    // `name` the params break CallToolRequest's schema («Malformed requests» are protocol
    // errors, tools.mdx), so the refusal need not be the entry's
    let mut nameless = call(
        "tools/call",
        json!({"inputResponses": {"mcpdiff.unrequested": {"action": "decline"}}}),
    );
    // (an `Mcp-Name` with no `name` in the body to mirror: tolerated, D-08; without the header
    // the call is SHTTP-HDR-MISSING-400's MUST defect and no benign input is judged)
    nameless.set_header("Mcp-Name", Some(fixture::PLAIN_TOOL.as_bytes()));
    assert!(judge(&nameless, &s).triggers(mcpdiff_oracle::rules::MRTR_IGNORE_EXTRA));
    assert!(rules_of(&nameless, &s, &common::rpc_error(200, &id, -32602)).is_empty());
    // `{}`, entries that are no objects, and objects no result type is sure to fit (an
    // empty one fits none: each of the three requires a member) are not this rule's stimulus
    for other in [
        json!({}),
        json!({"k": 7}),
        json!({"k": {}}),
        json!({"k": {"roots": []}}),
    ] {
        let c = weather_with(other);
        assert!(!judge(&c, &s).triggers(mcpdiff_oracle::rules::MRTR_IGNORE_EXTRA));
    }
}

/// D-194: a well-formed clientInfo naming another client is a benign input: the request is
/// answered as mcpdiff's is; a refusal is the SHOULD NOT finding, alone. A malformed one
/// stays D-47's.
#[test]
fn d194_client_info_not_behaviour() {
    let s = fixture::surface();
    let id = json!(1);
    let with_info = |info: Value| {
        let mut c = call(
            "tools/call",
            json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "Oslo"}}),
        );
        let mut body: Value = serde_json::from_slice(&c.body).unwrap();
        body["params"]["_meta"]["io.modelcontextprotocol/clientInfo"] = info;
        c.body = serde_json::to_vec(&body).unwrap();
        c
    };
    let other = with_info(json!({"name": "other-client", "version": "0.1.0"}));
    assert!(broken(&other, &s, |_| {}).is_empty());
    assert_eq!(
        rules_of(&other, &s, &common::rpc_error(400, &id, -32600)),
        ["BASE-INFO-NOT-BEHAVIOR"]
    );
    // what the call admits without it (D-30's -32602) it admits with it
    assert!(rules_of(&other, &s, &common::rpc_error(200, &id, -32602)).is_empty());
    let ours = with_info(json!({"name": "mcpdiff", "version": "9"}));
    assert!(!judge(&ours, &s).triggers(mcpdiff_oracle::rules::INFO_NOT_BEHAVIOR));
    let malformed = with_info(json!({"name": "other-client"}));
    assert!(!judge(&malformed, &s).triggers(mcpdiff_oracle::rules::INFO_NOT_BEHAVIOR));
}
