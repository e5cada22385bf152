//! The conformant request a case starts from: a method the surface offers (or an unknown
//! one), with parameters drawn from what the surface declares, built by the oracle's
//! conformant client so every mirrored header is right.
//!
//! `BasePlan::compile` turns a surface into weighted choices once; a draw is then a weighted
//! pick, an id and (for tools) arguments from the compiled schema, rendered by `Renderer`
//! (byte for byte what `client::conformant_case` builds).

use super::args::ObjectPlan;
use super::render::Renderer;
use crate::choice::{Draw, Rng, Source};
use crate::strategies::values::MAX_SAFE;
use mcpdiff_oracle::{Case, Surface};
use serde_json::{json, Map, Value};

/// Tools that get a choice of their own; the rest of a large surface share one.
const TOOLS_EACH: usize = 32;

/// One kind of call, with its parameters or how to draw them.
#[derive(Clone, Debug)]
enum PlannedCall {
    /// A fixed method and params.
    Fixed(&'static str, Map<String, Value>),
    /// `tools/call` of a declared tool, arguments drawn from its schema.
    Tool(String, ObjectPlan),
    /// `tools/call` of one of these tools, picked uniformly (the tools of a large surface past
    /// the first `TOOLS_EACH`).
    AnyTool(Vec<(String, ObjectPlan)>),
    /// `tools/call` of an undeclared tool named `[a-z_]{1,10}`.
    UnknownTool,
    /// `resources/read` of a template instantiated with `[a-z0-9]{1,6}`.
    Template(String),
    /// `resources/read` of a URI that is not declared.
    OddResource,
    /// A method outside the surface (or outside the revision).
    OddMethod,
    /// `tools/call` of one of these tools (name, `inputSchema`) with arguments breaking the
    /// schema (`invalid::invalid_tool_args`).
    BadToolArgs(Vec<(String, Value)>),
    /// `prompts/get` of one of these prompts with arguments that are not strings.
    BadPromptArgs(Vec<String>),
    /// `resources/read` of one of these traversal or absolute `file://` URIs.
    FileAttack(Vec<String>),
}

/// The weighted calls of one surface.
#[derive(Clone, Debug)]
pub struct BasePlan {
    renderer: Renderer,
    calls: Vec<PlannedCall>,
    weights: Vec<u32>,
}

impl BasePlan {
    pub fn compile(s: &Surface) -> BasePlan {
        let mut calls: Vec<(u32, PlannedCall)> = Vec::new();
        calls.push((2, PlannedCall::Fixed("server/discover", obj(json!({})))));
        calls.push((1, PlannedCall::Fixed("tools/list", obj(json!({})))));
        // the message pattern every server must support (BASE-ALL-SUPPORT)
        calls.push((
            1,
            PlannedCall::Fixed(
                "subscriptions/listen",
                obj(json!({"notifications": {"toolsListChanged": true}})),
            ),
        ));
        if s.capabilities.resources || !s.resources.is_empty() {
            calls.push((1, PlannedCall::Fixed("resources/list", obj(json!({})))));
            calls.push((
                1,
                PlannedCall::Fixed("resources/templates/list", obj(json!({}))),
            ));
        }
        if s.capabilities.prompts || !s.prompts.is_empty() {
            calls.push((1, PlannedCall::Fixed("prompts/list", obj(json!({})))));
        }
        for t in s.tools.iter().take(TOOLS_EACH) {
            // annotated tools are where header bugs hide: weight them up
            let annotated = t.header_params.as_ref().is_ok_and(|p| !p.is_empty());
            let w = if annotated { 12 } else { 3 };
            calls.push((
                w,
                PlannedCall::Tool(t.name.clone(), ObjectPlan::compile(&t.input_schema)),
            ));
        }
        // a large surface (`run --tools FILE`: a generated tool set): the tools past the first
        // TOOLS_EACH share one choice, weighted like that many annotated tools
        let rest: Vec<(String, ObjectPlan)> = s
            .tools
            .iter()
            .skip(TOOLS_EACH)
            .map(|t| (t.name.clone(), ObjectPlan::compile(&t.input_schema)))
            .collect();
        if !rest.is_empty() {
            let w = 12 * rest.len().min(TOOLS_EACH) as u32;
            calls.push((w, PlannedCall::AnyTool(rest)));
        }
        calls.push((1, PlannedCall::UnknownTool));
        for r in s.resources.iter().take(8) {
            calls.push((
                2,
                PlannedCall::Fixed("resources/read", obj(json!({"uri": r}))),
            ));
        }
        for t in s.resource_templates.iter().take(8) {
            calls.push((1, PlannedCall::Template(t.clone())));
        }
        if s.capabilities.resources {
            calls.push((1, PlannedCall::OddResource));
        }
        for p in s.prompts.iter().take(8) {
            calls.push((
                2,
                PlannedCall::Fixed("prompts/get", obj(json!({"name": p, "arguments": {}}))),
            ));
        }
        if s.capabilities.prompts {
            calls.push((
                1,
                PlannedCall::Fixed("prompts/get", obj(json!({"name": "no_such_prompt"}))),
            ));
        }
        calls.push((1, PlannedCall::OddMethod));
        // H2: inputs a server must refuse, drawn from what the surface publishes
        let tools: Vec<(String, Value)> = s
            .tools
            .iter()
            .take(TOOLS_EACH)
            .map(|t| (t.name.clone(), t.input_schema.clone()))
            .collect();
        if !tools.is_empty() {
            calls.push((2, PlannedCall::BadToolArgs(tools)));
        }
        if !s.prompts.is_empty() {
            let prompts = s.prompts.iter().take(8).cloned().collect();
            calls.push((1, PlannedCall::BadPromptArgs(prompts)));
        }
        let attacks = super::invalid::file_attack_uris(s);
        if !attacks.is_empty() {
            calls.push((1, PlannedCall::FileAttack(attacks)));
        }
        let (weights, calls) = calls.into_iter().unzip();
        BasePlan {
            renderer: Renderer::new(s),
            calls,
            weights,
        }
    }

    /// A conformant request: a weighted call, a drawn id.
    pub fn draw(&self, r: &mut Rng) -> Case {
        let (id, method, params) = self.draw_call(r);
        self.renderer.render(&id, method, &params)
    }

    /// The conformant request `method(params)` with id `id`, `extra` members appended to its
    /// `_meta`.
    pub fn render(
        &self,
        id: &Value,
        method: &str,
        params: &Map<String, Value>,
        extra: &[(&str, Value)],
    ) -> Case {
        self.renderer.render_with(id, method, params, extra)
    }

    /// The id, method and params of a conformant request.
    pub fn draw_call(&self, r: &mut Rng) -> (Value, &'static str, Map<String, Value>) {
        let id = id(r);
        let (method, params) = match &self.calls[r.weighted(&self.weights)] {
            PlannedCall::Fixed(m, p) => return (id, m, p.clone()),
            PlannedCall::Tool(name, plan) => (
                "tools/call",
                json!({"name": name, "arguments": plan.draw(r)}),
            ),
            PlannedCall::AnyTool(tools) => {
                let (name, plan) = &tools[r.below(tools.len())];
                (
                    "tools/call",
                    json!({"name": name, "arguments": plan.draw(r)}),
                )
            }
            PlannedCall::UnknownTool => {
                let mut n = String::new();
                let len = r.len(1, 10);
                r.push_from(&mut n, len, b"abcdefghijklmnopqrstuvwxyz_");
                ("tools/call", json!({"name": n, "arguments": {}}))
            }
            PlannedCall::Template(t) => {
                let mut v = String::new();
                let len = r.len(1, 6);
                r.push_from(&mut v, len, b"abcdefghijklmnopqrstuvwxyz0123456789");
                ("resources/read", json!({"uri": instantiate(t, &v)}))
            }
            PlannedCall::OddResource => {
                let uri = r.pick(&[
                    "file:///no/such/file",
                    "file:///projects/caf\u{e9}.json",
                    "https://example.com/a%20b?q=1#f",
                ]);
                ("resources/read", json!({"uri": uri}))
            }
            PlannedCall::BadToolArgs(tools) => {
                let (name, schema) = &tools[r.below(tools.len())];
                let args = super::invalid::invalid_tool_args(schema, r);
                ("tools/call", json!({"name": name, "arguments": args}))
            }
            PlannedCall::BadPromptArgs(prompts) => {
                let name = &prompts[r.below(prompts.len())];
                let args = super::invalid::invalid_prompt_args(r);
                ("prompts/get", json!({"name": name, "arguments": args}))
            }
            PlannedCall::FileAttack(uris) => {
                let uri = &uris[r.below(uris.len())];
                ("resources/read", json!({ "uri": uri }))
            }
            PlannedCall::OddMethod => {
                let m = r.pick(&[
                    "ping",
                    "initialize",
                    "logging/setLevel",
                    "resources/subscribe",
                    "x-probe/unknown",
                    "Tools/List",
                ]);
                (m, json!({}))
            }
        };
        let params = match params {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        (id, method, params)
    }
}

/// The members of a JSON object literal.
fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// A request id: mostly small integers, some strings, a few edge values.
fn id(r: &mut Rng) -> Value {
    match r.weighted(&[6, 2, 1]) {
        0 => json!(r.range_i64(0, 999)),
        1 => {
            let mut s = String::new();
            let len = r.len(1, 12);
            r.push_from(&mut s, len, b"abcdefghijklmnopqrstuvwxyz0123456789-");
            Value::String(s)
        }
        _ => match r.below(5) {
            0 => json!(0),
            1 => json!(-1),
            2 => json!(MAX_SAFE),
            3 => json!(""),
            _ => json!("1"),
        },
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_instantiated() {
        assert_eq!(
            instantiate("file:///logs/{day}.log", "x1"),
            "file:///logs/x1.log"
        );
        assert_eq!(instantiate("a{b", "x"), "a{b");
    }
}
