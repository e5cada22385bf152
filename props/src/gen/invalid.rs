//! Requests a server must refuse for what they carry, drawn from the target's own surface:
//! `tools/call` arguments that break the tool's `inputSchema` (TOOLS-VALIDATE-INPUTS),
//! `prompts/get` arguments that are not strings (PROMPTS-VALIDATE-ARGS), and `file://`
//! reads that climb out of the served tree (RES-TRAVERSAL), built from the target's listed
//! `file://` resources and templates, plus absolute paths (which RES-NOTFOUND-32602 judges).

use crate::choice::{Rng, Source};
use mcpdiff_oracle::content::tool_inputs_invalid;
use mcpdiff_oracle::traversal::{serves_files, traversal_uris};
use mcpdiff_oracle::Surface;
use serde_json::{json, Value};

/// A value of another JSON type than `t` (a JSON Schema `type` name).
fn wrong_type(t: &str) -> Value {
    match t {
        "string" => json!(7),
        "object" | "array" => json!("x"),
        _ => json!("not a number"),
    }
}

/// Arguments that break `schema`, by one of: every required member missing, one declared
/// property of the wrong type, or no object at all (the last when nothing else breaks it).
pub fn invalid_tool_args(schema: &Value, r: &mut Rng) -> Value {
    let typed: Vec<(&String, &str)> = schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, p)| Some((k, p.get("type")?.as_str()?)))
        .collect();
    let mut candidates = Vec::new();
    let required = schema.get("required").and_then(Value::as_array);
    if required.is_some_and(|r| !r.is_empty()) {
        candidates.push(json!({}));
    }
    if !typed.is_empty() {
        let (k, t) = typed[r.below(typed.len())];
        candidates.push(json!({ k.as_str(): wrong_type(t) }));
    }
    let mut args = if candidates.is_empty() {
        json!([])
    } else {
        candidates.swap_remove(r.below(candidates.len()))
    };
    if !tool_inputs_invalid(Some(&args), schema) {
        args = json!([]);
    }
    args
}

/// `prompts/get` arguments whose values are not all strings (or that are no object).
pub fn invalid_prompt_args(r: &mut Rng) -> Value {
    match r.below(5) {
        0 => json!({"code": 7}),
        1 => json!({"code": null}),
        2 => json!({"code": ["fn main() {}"]}),
        3 => json!({"code": "x", "language": {"name": "rust"}}),
        _ => json!("code"),
    }
}

/// The traversal and absolute-path URIs to read on `s`: empty when it serves no
/// `file://` resource.
pub fn file_attack_uris(s: &Surface) -> Vec<String> {
    if !serves_files(s) {
        return Vec::new();
    }
    let files = s
        .resources
        .iter()
        .chain(&s.resource_templates)
        .filter(|u| u.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("file:")))
        .take(4);
    let mut out: Vec<String> = files.flat_map(|b| traversal_uris(b)).collect();
    out.push("file:///etc/passwd".to_string());
    out.push("file:///C:/Windows/win.ini".to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::fixture;
    use mcpdiff_oracle::traversal::is_traversal;

    #[test]
    fn drawn_tool_arguments_break_the_schema() {
        for t in fixture::tools() {
            for i in 0..32 {
                let mut r = Rng::for_case(1, i);
                let args = invalid_tool_args(&t.input_schema, &mut r);
                assert!(
                    tool_inputs_invalid(Some(&args), &t.input_schema),
                    "{}",
                    t.name
                );
            }
        }
    }

    #[test]
    fn prompt_arguments_are_ill_typed_and_file_attacks_climb() {
        for i in 0..16 {
            let args = invalid_prompt_args(&mut Rng::for_case(2, i));
            assert!(mcpdiff_oracle::content::prompt_args_invalid(Some(&args)));
        }
        let uris = file_attack_uris(&fixture::surface());
        assert!(uris.iter().filter(|u| is_traversal(u)).count() >= 10);
        assert!(uris.contains(&"file:///etc/passwd".to_string()));
        assert!(file_attack_uris(&Surface::minimal("/mcp")).is_empty());
    }
}
