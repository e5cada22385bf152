//! The mutants that break one SHOULD-level rule each (issue 23, the SHOULD sweep): a tool
//! schema in another JSON Schema dialect, a completion for a prompt that does not exist,
//! `inputResponses` read without checking or refused for entries nobody asked for, and a
//! server that changes its answer on the client's self-reported `clientInfo`.

use super::super::response::Response;
use super::answer::Answered;
use super::content::on;
use crate::case::Case;
use crate::surface::Surface;
use serde_json::{json, Value};

/// The meta-schema URI of draft-07, the dialect basic/index.mdx's own example names.
const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// Lists get_weather with an `inputSchema` that declares draft-07 (BASE-SCHEMA-2020-12).
pub(super) fn schema_draft_07(a: &Answered, r: &mut Response) {
    on(a, r, "tools/list", |res| {
        let tools = res.get_mut("tools").and_then(Value::as_array_mut);
        for t in tools.into_iter().flatten() {
            if t.get("name") == Some(&json!(crate::fixture::PLAIN_TOOL)) {
                if let Some(s) = t.get_mut("inputSchema").and_then(Value::as_object_mut) {
                    s.insert("$schema".into(), json!(DRAFT_07));
                }
            }
        }
    });
}

/// Completes an argument of a prompt it does not have: an empty completion, not -32602
/// (COMPL-ERRORS).
pub(super) fn completion_unknown_prompt_served(
    case: &mut Case,
    surface: &mut Surface,
) -> Option<Response> {
    let call = super::super::dispatch::parse_call(&case.body)?;
    if call.method != "completion/complete" {
        return None;
    }
    let r = call.params.get("ref")?;
    let name = r.get("name").and_then(Value::as_str)?;
    if r.get("type") != Some(&json!("ref/prompt")) || surface.prompts.iter().any(|p| p == name) {
        return None;
    }
    let result = json!({"completion": {"values": [], "total": 0, "hasMore": false}});
    Some(Response::json(
        200,
        super::super::result_body(&call.id, result),
    ))
}
