//! Readings of JSON values the spec does not pin down, each held to the words that admit it.
//! D-48: a request object with a member JSON-RPC 2.0 does not list is valid (schema.json
//! `JSONRPCRequest` allows other members), so it must be served, unless the body nests beyond
//! a reader's depth limit, which RFC 8259 §9 allows ("An implementation may set limits on the
//! maximum depth of nesting"); an integer id no double holds exactly may be refused as -32600
//! ("may set limits on the range and precision of numbers"). The id must still be echoed
//! exactly (BASE-ERROR-ID stays a finding when a rounded id comes back). D-42: an object for
//! an annotated primitive has no header text form.

mod common;

use common::{discover_result, result, rpc_error};
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::{check, judge, Case};
use serde_json::{json, Value};

/// The conformant `server/discover` with `extra` spliced in as a top-level member.
fn discover_with(id: Value, extra: &str) -> Case {
    let s = fixture::surface();
    let mut c = conformant_case(&s, id, "server/discover", json!({}));
    let mut body = c.body.clone();
    assert_eq!(body.pop(), Some(b'}'));
    body.extend_from_slice(format!(",{extra}}}").as_bytes());
    c.body = body;
    c
}

#[test]
fn an_undefined_shallow_member_must_be_served() {
    let s = fixture::surface();
    let id = json!(378);
    // the scanner's path and the parsed path (escaped key)
    for extra in ["\"deep\":[1]", "\"d\\u0065ep\":1"] {
        let c = discover_with(id.clone(), extra);
        let v = judge(&c, &s);
        assert!(check(&v, &discover_result(&id)).is_empty(), "{extra}");
        assert!(
            !check(&v, &rpc_error(400, &id, -32600)).is_empty(),
            "{extra}: a refusal is a finding"
        );
    }
}

#[test]
fn a_deeply_nested_member_may_be_refused_as_invalid_request() {
    let s = fixture::surface();
    let id = json!(378);
    // 100 deep (inside the scanner's depth), and just beyond the limit
    let nest = |d: usize| format!("{}1{}", "[".repeat(d), "]".repeat(d));
    for extra in [
        format!("\"deep\":{}", nest(100)),
        format!("\"deep\":{}", nest(mcpdiff_oracle::case::NESTING_LIMIT)),
    ] {
        let c = discover_with(id.clone(), &extra);
        let v = judge(&c, &s);
        assert!(
            check(&v, &discover_result(&id)).is_empty(),
            "{extra}: success"
        );
        assert!(
            check(&v, &rpc_error(400, &id, -32600)).is_empty(),
            "{extra}: a strict refusal"
        );
        assert!(
            !check(&v, &rpc_error(400, &id, -32603)).is_empty(),
            "{extra}: not any error"
        );
    }
}

#[test]
fn defined_members_only_still_demand_success() {
    let s = fixture::surface();
    let id = json!(378);
    let c = conformant_case(&s, id.clone(), "server/discover", json!({}));
    assert!(!check(&judge(&c, &s), &rpc_error(400, &id, -32600)).is_empty());
}

/// The limit sits above every request the probe set sends, so no probe may be refused for
/// its depth.
#[test]
fn probes_nest_within_the_limit() {
    let s = fixture::surface();
    for p in mcpdiff_oracle::reference::probes(&s) {
        assert!(
            !mcpdiff_oracle::case::nesting_beyond(&p.case.body),
            "{}",
            String::from_utf8_lossy(&p.case.body)
        );
    }
}

#[test]
fn an_unsafe_integer_id_may_be_refused_but_must_be_echoed_exactly() {
    let s = fixture::surface();
    for (id, rounded) in [
        (
            json!(9_007_199_254_740_993_u64),
            json!(9_007_199_254_740_992_u64),
        ),
        (
            json!(-9_007_199_254_740_992_i64),
            json!(-9_007_199_254_740_991_i64),
        ),
    ] {
        let c = conformant_case(&s, id.clone(), "server/discover", json!({}));
        let v = judge(&c, &s);
        assert!(check(&v, &rpc_error(400, &id, -32600)).is_empty(), "{id}");
        assert!(check(&v, &discover_result(&id)).is_empty(), "{id}");
        assert!(
            !check(&v, &rpc_error(400, &rounded, -32600)).is_empty(),
            "{id}: a rounded id is BASE-ERROR-ID"
        );
    }
    // the largest safe id is not refusable
    let id = json!(9_007_199_254_740_991_u64);
    let c = conformant_case(&s, id.clone(), "server/discover", json!({}));
    assert!(!check(&judge(&c, &s), &rpc_error(400, &id, -32600)).is_empty());
}

/// `"opt": {}` for the annotated string `opt`, no `Mcp-Param-Opt` header: the client rules
/// define text forms for `string`, `integer` and `boolean` only, so an object has none, and
/// serving it (e.g. with an `isError` result) and refusing it are both right (D-42).
#[test]
fn an_object_for_an_annotated_primitive_may_be_served_without_its_header() {
    use mcpdiff_oracle::fixture::HEADER_TOOL;
    let s = fixture::surface();
    let id = json!("no8fapwdakr");
    let result = result(&id, json!({"content": [], "isError": true}));
    for opt in [json!({}), json!([1])] {
        let c = conformant_case(
            &s,
            id.clone(),
            "tools/call",
            json!({"name": HEADER_TOOL, "arguments": {"region": "K", "query": "q", "opt": opt}}),
        );
        assert!(
            matches!(
                c.header("Mcp-Param-Opt"),
                mcpdiff_oracle::case::HeaderField::Absent
            ),
            "no text form, no header"
        );
        let v = judge(&c, &s);
        assert!(check(&v, &result).is_empty(), "{opt}: served");
        assert!(
            check(&v, &rpc_error(400, &id, -32020)).is_empty(),
            "{opt}: refused"
        );
    }
    // a string value without its header is still a finding
    let mut c = conformant_case(
        &s,
        id.clone(),
        "tools/call",
        json!({"name": HEADER_TOOL, "arguments": {"region": "K", "query": "q", "opt": "x"}}),
    );
    c.set_header("Mcp-Param-Opt", None);
    assert!(!check(&judge(&c, &s), &result).is_empty());
}
