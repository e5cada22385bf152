//! The conformant request a case starts from: a method the surface offers (or an unknown
//! one), with parameters drawn from what the surface declares, built by the oracle's
//! conformant client so every mirrored header is right.

use super::args::arguments;
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::surface::ToolDecl;
use mcpdiff_oracle::{Case, Surface};

/// Tools that get a choice of their own; the rest of a large surface share one.
const TOOLS_EACH: usize = 32;
use proptest::prelude::*;
use serde_json::{json, Value};

fn id() -> BoxedStrategy<Value> {
    prop_oneof![
        6 => (0i64..1000).prop_map(|i| json!(i)),
        2 => super::regex("[a-z0-9-]{1,12}").prop_map(Value::String),
        1 => prop::sample::select(vec![
            json!(0),
            json!(-1),
            json!(9007199254740991i64),
            json!(""),
            json!("1"),
        ]),
    ]
    .boxed()
}

/// (method, params) pairs the surface offers, each with its weight.
fn calls(s: &Surface) -> BoxedStrategy<(String, Value)> {
    let mut choices: Vec<(u32, BoxedStrategy<(String, Value)>)> = Vec::new();
    let fixed = |m: &str, p: Value| Just((m.to_string(), p)).boxed();
    choices.push((2, fixed("server/discover", json!({}))));
    choices.push((1, fixed("tools/list", json!({}))));
    if s.capabilities.resources || !s.resources.is_empty() {
        choices.push((1, fixed("resources/list", json!({}))));
        choices.push((1, fixed("resources/templates/list", json!({}))));
    }
    if s.capabilities.prompts || !s.prompts.is_empty() {
        choices.push((1, fixed("prompts/list", json!({}))));
    }
    for t in s.tools.iter().take(TOOLS_EACH) {
        let name = t.name.clone();
        // annotated tools are where header bugs hide: weight them up
        let annotated = t.header_params.as_ref().is_ok_and(|p| !p.is_empty());
        let w = if annotated { 12 } else { 3 };
        let strat = arguments(&t.input_schema)
            .prop_map(move |a| {
                (
                    "tools/call".to_string(),
                    json!({"name": name, "arguments": a}),
                )
            })
            .boxed();
        choices.push((w, strat));
    }
    // a large surface (`run --tools FILE`: a generated tool set): the tools past the first
    // TOOLS_EACH share one choice, picked uniformly, weighted like that many annotated tools
    let rest: Vec<ToolDecl> = s.tools.iter().skip(TOOLS_EACH).cloned().collect();
    if !rest.is_empty() {
        let w = 12 * rest.len().min(TOOLS_EACH) as u32;
        let pick = prop::sample::select(rest)
            .prop_flat_map(|t| {
                let name = t.name.clone();
                arguments(&t.input_schema).prop_map(move |a| {
                    (
                        "tools/call".to_string(),
                        json!({"name": name, "arguments": a}),
                    )
                })
            })
            .boxed();
        choices.push((w, pick));
    }
    choices.push((
        1,
        super::regex("[a-z_]{1,10}")
            .prop_map(|n| {
                (
                    "tools/call".to_string(),
                    json!({"name": n, "arguments": {}}),
                )
            })
            .boxed(),
    ));
    for r in s.resources.iter().take(8) {
        choices.push((2, fixed("resources/read", json!({"uri": r}))));
    }
    for t in s.resource_templates.iter().take(8) {
        let t = t.clone();
        choices.push((
            1,
            super::regex("[a-z0-9]{1,6}")
                .prop_map(move |v| {
                    let uri = instantiate(&t, &v);
                    ("resources/read".to_string(), json!({"uri": uri}))
                })
                .boxed(),
        ));
    }
    if s.capabilities.resources {
        choices.push((
            1,
            prop::sample::select(vec![
                "file:///no/such/file",
                "file:///projects/caf\u{e9}.json",
                "https://example.com/a%20b?q=1#f",
            ])
            .prop_map(|u| ("resources/read".to_string(), json!({"uri": u})))
            .boxed(),
        ));
    }
    for p in s.prompts.iter().take(8) {
        choices.push((2, fixed("prompts/get", json!({"name": p, "arguments": {}}))));
    }
    if s.capabilities.prompts {
        choices.push((1, fixed("prompts/get", json!({"name": "no_such_prompt"}))));
    }
    choices.push((
        1,
        prop::sample::select(vec![
            "ping",
            "initialize",
            "logging/setLevel",
            "resources/subscribe",
            "x-probe/unknown",
            "Tools/List",
        ])
        .prop_map(|m| (m.to_string(), json!({})))
        .boxed(),
    ));
    proptest::strategy::Union::new_weighted(choices).boxed()
}

/// Replace each `{var}` of an RFC 6570 level-1 template by `value`.
fn instantiate(template: &str, value: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        match rest[open..].find('}') {
            Some(close) => {
                out.push_str(value);
                rest = &rest[open + close + 1..];
            }
            None => {
                rest = &rest[open..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A conformant request for `surface`.
pub fn request(surface: &Surface) -> BoxedStrategy<Case> {
    let s = surface.clone();
    (id(), calls(surface))
        .prop_map(move |(id, (method, params))| conformant_case(&s, id, &method, params))
        .boxed()
}
