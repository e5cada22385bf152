//! The reference server with a generated tool set (`serve --tools`): it publishes every
//! publishable tool and no invalid one (TOOLS-XMCP-CONSTRAINTS, D-37), answers each conformant
//! call with its arguments (an invalid tool's as an unknown tool's), is judged clean
//! on all of them, and the `Mcp-Param-*` mutants are caught on generated tools alone.

use mcpdiff_oracle::annotations::{publishable, tool_header_params};
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::content::tool_inputs_invalid;
use mcpdiff_oracle::reference::{
    mutants, respond, respond_mutant, to_observation, Response, ResponseBody,
};
use mcpdiff_oracle::toolset::{GeneratedTool, ToolCall};
use mcpdiff_oracle::{check, fixture, judge, Case, Surface};
use mcpdiff_props::toolgen::generate_toolset;
use serde_json::{json, Value};

fn surface_and_tools(seed: u64, count: usize) -> (Surface, Vec<GeneratedTool>) {
    let set = generate_toolset(seed, count);
    let mut surface = set
        .extend_surface(fixture::surface())
        .expect("generated names do not clash with the fixture");
    // as `serve --tools` declares them (`serve::tools::fixture_with`)
    surface.tools.retain(|t| publishable(&t.header_params));
    (surface, set.tools)
}

fn call_case(surface: &Surface, tool: &GeneratedTool, call: &ToolCall, id: i64) -> Case {
    let mut params = json!({"name": tool.name()});
    if let Some(a) = &call.arguments {
        params["arguments"] = a.clone();
    }
    conformant_case(surface, json!(id), "tools/call", params)
}

fn json_body(r: &Response) -> &Value {
    match &r.body {
        ResponseBody::Json(v) => v,
        other => panic!("not a JSON answer: {other:?}"),
    }
}

#[test]
fn tools_list_publishes_every_generated_tool() {
    let (surface, tools) = surface_and_tools(21, 40);
    let case = conformant_case(&surface, json!(1), "tools/list", json!({}));
    let r = respond(&case, &surface);
    let listed = json_body(&r)["result"]["tools"]
        .as_array()
        .expect("a tools array")
        .clone();
    let kept = |t: &GeneratedTool| publishable(&tool_header_params(t.input_schema()));
    let published = tools.iter().filter(|t| kept(t)).count();
    assert_eq!(listed.len(), fixture::tools().len() + published);
    assert!(tools.iter().any(|t| !kept(t)), "the set has invalid tools");
    for t in &tools {
        let found = listed.iter().find(|l| l["name"] == json!(t.name()));
        match found {
            Some(found) => assert_eq!(&found["inputSchema"], t.input_schema(), "{}", t.name()),
            None => assert!(!kept(t), "{} not listed", t.name()),
        }
    }
    let findings = check(&judge(&case, &surface), &to_observation(&r));
    assert!(findings.is_empty(), "{findings:?}");
    // what it publishes passes the content rules (TOOLS-INPUTSCHEMA-VALID among them)
    for seed in 21..41 {
        let (surface, _) = surface_and_tools(seed, 40);
        let case = conformant_case(&surface, json!(1), "tools/list", json!({}));
        let findings = check(
            &judge(&case, &surface),
            &to_observation(&respond(&case, &surface)),
        );
        assert!(findings.is_empty(), "seed {seed}: {findings:?}");
    }
}

#[test]
fn every_generated_call_is_answered_with_its_arguments_and_judged_clean() {
    let (surface, tools) = surface_and_tools(22, 60);
    let mut answered = 0;
    let mut refused = 0;
    for (i, t) in tools.iter().enumerate() {
        for (j, c) in t.calls.iter().enumerate() {
            let case = call_case(&surface, t, c, (i * 100 + j) as i64);
            let r = respond(&case, &surface);
            let findings = check(&judge(&case, &surface), &to_observation(&r));
            assert!(
                findings.is_empty(),
                "{} {:?}: {findings:?}",
                t.name(),
                c.note
            );
            // arguments that break the tool's inputSchema (a null for a typed parameter, sent
            // to exercise the header rules) are refused as an execution error
            // (TOOLS-VALIDATE-INPUTS, D-120)
            let invalid = tool_inputs_invalid(c.arguments.as_ref(), t.input_schema());
            if r.status == 200 && surface.tool(t.name()).is_some() && invalid {
                assert_eq!(
                    json_body(&r)["result"]["isError"],
                    json!(true),
                    "{}",
                    t.name()
                );
                refused += 1;
                continue;
            }
            // (a tool not declared is answered as an unknown one)
            if r.status == 200 && surface.tool(t.name()).is_some() {
                let echoed = &json_body(&r)["result"]["structuredContent"]["arguments"];
                let sent = c.arguments.clone().unwrap_or(json!({}));
                assert_eq!(echoed, &sent, "{} {:?}", t.name(), c.note);
                answered += 1;
            }
        }
    }
    assert!(
        answered > 100,
        "only {answered} calls answered ({refused} refused)"
    );
}

/// Each of these mutants breaks one `Mcp-Param-*` rule; the generated calls alone (no
/// fixture tool) must catch it.
#[test]
fn param_mutants_are_caught_on_generated_tools() {
    let (surface, tools) = surface_and_tools(23, 80);
    for mutant in [
        &mutants::NO_BASE64_DECODE,
        &mutants::PARAM_NULL_EXPECTED,
        &mutants::PARAM_OPTIONAL,
        &mutants::PARAM_ERR_32602,
    ] {
        let caught = tools.iter().enumerate().any(|(i, t)| {
            t.calls.iter().enumerate().any(|(j, c)| {
                let mut case = call_case(&surface, t, c, (i * 100 + j) as i64);
                if mutant == &mutants::PARAM_OPTIONAL || mutant == &mutants::PARAM_ERR_32602 {
                    // these rules need a client that leaves a mirrored header out
                    case.headers
                        .retain(|(n, _)| !n.to_ascii_lowercase().starts_with(b"mcp-param-"));
                }
                let r = respond_mutant(mutant, &case, &surface);
                !check(&judge(&case, &surface), &to_observation(&r)).is_empty()
            })
        });
        assert!(
            caught,
            "mutant {} not caught by generated calls",
            mutant.name
        );
    }
}
