//! D-21 (AMB-24): a method gated behind a capability the target does not advertise may be
//! answered 404/-32601 (not implemented) or as a server that implements it anyway answers:
//! a result, and what the method admits when the capability is declared: its success set and
//! the refusals its own checks would give (-32602 for params its schema refuses or a
//! resource it does not have, -32020 for a tool's header mismatch), none of them mandated.
//! Any other answer is the finding, on SHTTP-EP-POST.

mod common;

use common::{call, result, rpc_error, rules_of};
use mcpdiff_oracle::{fixture, Case, Surface};
use serde_json::json;

fn undeclared(edit: impl FnOnce(&mut Surface)) -> Surface {
    let mut s = fixture::surface();
    edit(&mut s);
    s
}

/// The rules `case` breaks on `s` with each answer: (404/-32601, a result, 400/-32602,
/// 500/-32603).
fn judged(case: &Case, s: &Surface) -> [Vec<String>; 4] {
    let id = json!(1);
    [
        rules_of(case, s, &rpc_error(404, &id, -32601)),
        rules_of(case, s, &result(&id, json!({}))),
        rules_of(case, s, &rpc_error(400, &id, -32602)),
        rules_of(case, s, &rpc_error(500, &id, -32603)),
    ]
}

#[test]
fn a_malformed_request_for_an_unadvertised_method_may_get_its_params_refused() {
    let no_completions = undeclared(|s| s.capabilities.completions = false);
    // no `ref`, no `argument`: CompleteRequestParams requires both
    let complete = call("completion/complete", json!({}));
    let [not_found, served, invalid, internal] = judged(&complete, &no_completions);
    assert!(not_found.is_empty(), "{not_found:?}");
    assert!(served.is_empty(), "{served:?}");
    assert!(invalid.is_empty(), "{invalid:?}");
    assert_eq!(internal, ["SHTTP-EP-POST"]);

    // a tools/call with no `name` to a target that advertises no tools
    let no_tools = undeclared(|s| s.capabilities.tools = false);
    let mut nameless = call("tools/call", json!({"arguments": {}}));
    nameless.set_header("Mcp-Name", Some(fixture::PLAIN_TOOL.as_bytes()));
    let [not_found, _, invalid, internal] = judged(&nameless, &no_tools);
    assert!(not_found.is_empty() && invalid.is_empty(), "{invalid:?}");
    // a call that fails the CallToolRequest schema may get any standard JSON-RPC error from
    // a server that implements the method (D-125, amended again): -32603 too, not code 7
    assert!(internal.is_empty(), "{internal:?}");
    let application = rules_of(&nameless, &no_tools, &rpc_error(500, &json!(1), 7));
    assert_eq!(application, ["SHTTP-EP-POST"]);
}

#[test]
fn a_well_formed_call_of_an_unadvertised_method_is_not_refused_as_invalid() {
    let no_tools = undeclared(|s| s.capabilities.tools = false);
    let c = call(
        "tools/call",
        json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "Oslo"}}),
    );
    let [not_found, served, invalid, internal] = judged(&c, &no_tools);
    assert!(not_found.is_empty() && served.is_empty(), "{served:?}");
    // D-30 admits -32602 for a tools/call of a declared tool: the same call of an
    // implemented, unadvertised one is admitted it too
    assert!(invalid.is_empty(), "{invalid:?}");
    assert_eq!(internal, ["SHTTP-EP-POST"]);
    // a header the implementing server checks: its -32020 for a missing Mcp-Param field
    let mut unmirrored = call(
        "tools/call",
        json!({"name": "execute_sql", "arguments": {"region": "us-west1", "query": "select 1"}}),
    );
    unmirrored.set_header("Mcp-Param-Region", None);
    let id = json!(1);
    assert!(rules_of(&unmirrored, &no_tools, &rpc_error(400, &id, -32020)).is_empty());
    assert_eq!(
        rules_of(&unmirrored, &no_tools, &rpc_error(500, &id, -32603)),
        ["SHTTP-EP-POST"]
    );
    // the -32602 an implementing server gives a resource it does not have (RES-NOTFOUND)
    let no_resources = undeclared(|s| s.capabilities.resources = false);
    let missing = call("resources/read", json!({"uri": "file:///nope/missing.txt"}));
    assert!(rules_of(&missing, &no_resources, &rpc_error(200, &id, -32602)).is_empty());
    // a resources/read with its uri: no -32602 beside -32601 and a result
    let read = call("resources/read", json!({"uri": fixture::RESOURCE}));
    let [not_found, _, invalid, _] = judged(&read, &no_resources);
    assert!(not_found.is_empty(), "{not_found:?}");
    assert_eq!(invalid, ["SHTTP-EP-POST"]);
}
