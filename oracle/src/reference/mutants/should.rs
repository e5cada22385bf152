//! The mutants that break one SHOULD-level rule each (issue 23, the SHOULD sweep): a tool
//! schema in another JSON Schema dialect, a completion for a prompt that does not exist,
//! `inputResponses` read without checking or refused for entries nobody asked for, a
//! server that changes its answer on the client's self-reported `clientInfo`, and a server
//! without resources that embeds one in its tool results.

use super::super::error_body;
use super::super::response::Response;
use super::answer::Answered;
use super::content::{each_result, on};
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

/// The methods whose params take `inputResponses` (schema.json `InputResponseRequestParams`).
const RETRIED: [&str; 3] = ["tools/call", "resources/read", "prompts/get"];

/// Reads `inputResponses` without checking it: one that is no object is dropped and the
/// request served as if none were given (MRTR-VALIDATE-INPUTS).
pub(super) fn input_responses_unchecked(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let mut body: Value = serde_json::from_slice(&case.body).ok()?;
    let method = body.get("method").and_then(Value::as_str)?;
    if !RETRIED.contains(&method) {
        return None;
    }
    let params = body.get_mut("params").and_then(Value::as_object_mut)?;
    if params
        .get("inputResponses")
        .is_some_and(|v| !v.is_object() && !v.is_null())
    {
        params.remove("inputResponses");
        // serializing a Value cannot fail (all keys are strings)
        case.body = serde_json::to_vec(&body).unwrap_or_default();
    }
    None
}

/// Refuses, -32602, a request whose `inputResponses` holds entries it never asked for
/// (MRTR-IGNORE-EXTRA).
pub(super) fn input_responses_extra_refused(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let call = super::super::dispatch::parse_call(&case.body)?;
    let entries = call.params.get("inputResponses").and_then(Value::as_object);
    if !RETRIED.contains(&call.method.as_str()) || entries.is_none_or(|e| e.is_empty()) {
        return None;
    }
    let message = "Invalid params: unexpected inputResponses";
    Some(Response::json(
        200,
        super::super::error_body(Some(&call.id), -32602, message, None),
    ))
}

/// Serves only the clients it knows: a request whose `clientInfo` names another client than
/// mcpdiff is refused 400 / -32600 (BASE-INFO-NOT-BEHAVIOR).
pub(super) fn client_info_gated(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let call = super::super::dispatch::parse_call(&case.body)?;
    let info = call
        .params
        .get("_meta")?
        .get(crate::case::META_CLIENT_INFO)?;
    let name = info.get("name").and_then(Value::as_str)?;
    if !info.get("version").is_some_and(Value::is_string) || name == "mcpdiff" {
        return None;
    }
    Some(Response::json(
        400,
        super::super::error_body(Some(&call.id), -32600, "Unsupported client", None),
    ))
}

/// A server without resources that still embeds one in its tool results
/// (TOOLS-EMBEDDED-RESCAP), served on `fixture::without_resources` (its discover declares no
/// `resources` capability): every `resources/*` request it would serve gets 404 / -32601,
/// AMB-24's answer for an unadvertised capability, and every `tools/call` result also
/// carries the project configuration as an embedded resource.
pub(super) fn embedded_without_resources(a: &Answered, r: &mut Response) {
    if a.method().starts_with("resources/") && a.dispatched() {
        let id = a.call().map(|c| &c.id);
        *r = Response::json(404, error_body(id, -32601, "Method not found", None));
    } else if a.method() == "tools/call" {
        let embedded = json!({"type": "resource", "resource": {
            "uri": crate::fixture::RESOURCE,
            "mimeType": "application/json",
            "text": "{\"name\":\"myapp\"}",
        }});
        each_result(r, |res| {
            if let Some(content) = res.get_mut("content").and_then(Value::as_array_mut) {
                content.push(embedded.clone());
            }
        });
    }
}
