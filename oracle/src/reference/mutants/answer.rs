//! The answer rewrites ([`Behaviour::Answer`](super::Behaviour::Answer)): each takes the
//! reference answer and breaks one rule in it (a wrong status or code for one class of
//! refusal, a missing or extra header or field, a wrong id), leaving every other answer as
//! the reference gives it.

use super::super::dispatch::{parse_call, Call};
use super::super::response::{Response, ResponseBody};
use super::super::{error_body, result_body};
use crate::case::Case;
use crate::rules;
use crate::surface::Surface;
use crate::verdict::{Canonical, Verdict};
use serde_json::{json, Value};

/// What an answer rewrite sees besides the answer: the request, the surface and the Verdict
/// the reference rendered.
pub struct Answered<'a> {
    case: &'a Case,
    surface: &'a Surface,
    verdict: &'a Verdict,
    call: Option<Call>,
}

impl<'a> Answered<'a> {
    pub(super) fn new(case: &'a Case, surface: &'a Surface, verdict: &'a Verdict) -> Self {
        Answered {
            case,
            surface,
            verdict,
            call: parse_call(&case.body),
        }
    }

    /// The request as the dispatcher reads it (`None` when the body is no request).
    pub(super) fn call(&self) -> Option<&Call> {
        self.call.as_ref()
    }

    /// The request id, when it is a non-negative integer.
    pub(super) fn id_number(&self) -> Option<u64> {
        self.id().and_then(Value::as_u64)
    }

    /// The surface the reference answered for.
    pub(super) fn surface(&self) -> &Surface {
        self.surface
    }

    /// The JSON-RPC method ("" when the body is no request).
    pub(super) fn method(&self) -> &str {
        self.call.as_ref().map_or("", |c| c.method.as_str())
    }

    fn id(&self) -> Option<&Value> {
        self.call.as_ref().map(|c| &c.id)
    }

    /// Whether the reference ran the method (the Verdict found nothing to refuse).
    pub(super) fn dispatched(&self) -> bool {
        self.verdict.canonical == Canonical::Dispatch
    }

    /// The place in `soft_params::LOG_LEVELS` of the level the request's `_meta` asks for,
    /// when it is one of the eight.
    pub(super) fn log_level(&self) -> Option<u8> {
        let meta = self.call.as_ref()?.params.get("_meta")?;
        let level = meta.get(crate::case::META_LOG_LEVEL)?.as_str()?;
        crate::soft_params::level_rank(level)
    }

    /// The string `params[field]` ("" when absent).
    pub(super) fn param(&self, field: &str) -> &str {
        self.call
            .as_ref()
            .and_then(|c| c.params.get(field))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    fn not_found(&self) -> Response {
        Response::json(404, error_body(self.id(), -32601, "Method not found", None))
    }

    /// A 200 result carrying `result` in place of the reference answer.
    fn result(&self, result: Value) -> Response {
        let id = self.id().cloned().unwrap_or(Value::Null);
        Response::json(200, result_body(&id, result))
    }
}

pub(super) fn list_refused(a: &Answered, r: &mut Response) {
    if a.method() == "resources/templates/list" && a.dispatched() {
        *r = Response::json(500, error_body(a.id(), -32603, "Internal error", None));
    }
}

pub(super) fn notif_body_on_202(_: &Answered, r: &mut Response) {
    if r.status == 202 {
        r.body = ResponseBody::Json(json!({}));
        r.set_header("Content-Type", Some("application/json"));
    }
}

/// Redirects every notification it would accept (a trailing-slash redirect, say): neither
/// the 202 of acceptance nor an error status.
pub(super) fn notif_redirected(a: &Answered, r: &mut Response) {
    if a.verdict.canonical == Canonical::Accepted {
        *r = Response::empty(307);
        r.set_header("Location", Some("/mcp/"));
    }
}

pub(super) fn notif_answered(a: &Answered, r: &mut Response) {
    if a.verdict.canonical == Canonical::Accepted {
        *r = Response::json(
            400,
            error_body(Some(&json!(0)), -32600, "Invalid Request", None),
        );
    }
}

pub(super) fn result_text_plain(_: &Answered, r: &mut Response) {
    if (200..300).contains(&r.status) && matches!(r.body, ResponseBody::Json(_)) {
        r.set_header("Content-Type", Some("text/plain"));
    }
}

pub(super) fn sse_server_request(_: &Answered, r: &mut Response) {
    if let ResponseBody::Sse { events, .. } = &mut r.body {
        let ping = json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"});
        events.insert(events.len().saturating_sub(1), ping);
    }
}

pub(super) fn no_x_accel(_: &Answered, r: &mut Response) {
    r.set_header("X-Accel-Buffering", None);
}

pub(super) fn unknown_method_400(_: &Answered, r: &mut Response) {
    if r.status == 404 && error_code(r) == Some(-32601) {
        r.status = 400;
    }
}

pub(super) fn no_discover(a: &Answered, r: &mut Response) {
    if a.method() == "server/discover" && a.dispatched() {
        *r = a.not_found();
    }
}

pub(super) fn no_listen(a: &Answered, r: &mut Response) {
    if a.method() == "subscriptions/listen" && a.dispatched() {
        *r = a.not_found();
    }
}

pub(super) fn unknown_tool_is_error(a: &Answered, r: &mut Response) {
    let name = a.param("name");
    if a.method() == "tools/call" && error_code(r) == Some(-32602) && a.surface.tool(name).is_none()
    {
        let text = format!("Unknown tool: {name}");
        *r = a.result(json!({"content": [{"type": "text", "text": text}], "isError": true}));
    }
}

pub(super) fn unknown_resource_empty(a: &Answered, r: &mut Response) {
    if a.method() == "resources/read"
        && error_code(r) == Some(-32602)
        && !a.surface.knows_resource(a.param("uri"))
    {
        *r = a.result(json!({"contents": [], "ttlMs": 0, "cacheScope": "public"}));
    }
}

pub(super) fn unknown_resource_32603(a: &Answered, r: &mut Response) {
    if a.method() == "resources/read" && !a.surface.knows_resource(a.param("uri")) {
        recode(r, -32602, -32603);
    }
}

pub(super) fn unknown_prompt_empty(a: &Answered, r: &mut Response) {
    let known = a.surface.prompts.iter().any(|p| p == a.param("name"));
    if a.method() == "prompts/get" && error_code(r) == Some(-32602) && !known {
        *r = a.result(json!({"messages": []}));
    }
}

pub(super) fn mcp_name_from_name(a: &Answered, r: &mut Response) {
    if a.method() == "resources/read" && a.dispatched() {
        let msg = "Header mismatch: Mcp-Name does not match params.name";
        *r = Response::json(400, error_body(a.id(), -32020, msg, None));
    }
}

pub(super) fn hdr_err_32602(a: &Answered, r: &mut Response) {
    if a.verdict.triggers(rules::HDR_ERR) {
        recode(r, -32020, -32602);
    }
}

pub(super) fn param_err_32602(a: &Answered, r: &mut Response) {
    if a.verdict.triggers(rules::PARAM_ERR) {
        recode(r, -32020, -32602);
    }
}

pub(super) fn legacy_code_32000(_: &Answered, r: &mut Response) {
    recode(r, -32700, -32000);
}

pub(super) fn reserved_code_32050(_: &Answered, r: &mut Response) {
    recode(r, -32700, -32050);
}

pub(super) fn retired_code_32002(_: &Answered, r: &mut Response) {
    recode(r, -32700, -32002);
}

pub(super) fn get_200(a: &Answered, r: &mut Response) {
    if r.status == 405 && a.case.method.eq_ignore_ascii_case("GET") {
        *r = Response::json(200, json!({}));
    }
}

pub(super) fn no_allow_405(_: &Answered, r: &mut Response) {
    if r.status == 405 {
        r.set_header("Allow", None);
    }
}

pub(super) fn session_id_header(_: &Answered, r: &mut Response) {
    r.set_header("Mcp-Session-Id", Some("mcpdiff-session-1"));
}

pub(super) fn result_id_string(_: &Answered, r: &mut Response) {
    each(r, "result", |m| {
        if let Some(n) = m.get("id").filter(|i| i.is_number()) {
            m["id"] = json!(n.to_string());
        }
    });
}

pub(super) fn no_result_type(_: &Answered, r: &mut Response) {
    each(r, "result", |m| {
        if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
            res.remove("resultType");
        }
    });
}

pub(super) fn serverinfo_dropped(a: &Answered, r: &mut Response) {
    // on server/discover the omission is DISC-SERVERINFO's (`discover-no-serverinfo`)
    if a.method() == "server/discover" {
        return;
    }
    each(r, "result", |m| {
        if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
            res.remove("_meta");
        }
    });
}

pub(super) fn error_id_null(_: &Answered, r: &mut Response) {
    each(r, "error", |m| {
        if m.get("id").is_some_and(|i| !i.is_null()) {
            m["id"] = Value::Null;
        }
    });
}

/// Lists one more tool in `tools/list`, whose `x-mcp-header` is empty (a constraint broken).
pub(super) fn publishes_invalid_tool(_: &Answered, r: &mut Response) {
    for m in r.messages_mut() {
        if let Some(tools) = m
            .get_mut("result")
            .and_then(|res| res.get_mut("tools"))
            .and_then(Value::as_array_mut)
        {
            tools.push(json!({
                "name": "empty_header",
                "inputSchema": {"type": "object", "properties": {
                    "region": {"type": "string", "x-mcp-header": ""}}}
            }));
        }
    }
}

/// `error_id_null` only where the body was no valid request but its id was read (an object
/// with an integer or string id and, say, `"jsonrpc": "1.0"`): the refusal is `-32600` with
/// the id the reader found.
pub(super) fn error_id_null_malformed(a: &Answered, r: &mut Response) {
    let read_id = matches!(
        &a.verdict.canonical,
        Canonical::Reject {
            code: Some(-32600),
            id: Some(_),
            ..
        }
    );
    if read_id {
        error_id_null(a, r);
    }
}

pub(super) fn error_no_message(_: &Answered, r: &mut Response) {
    each(r, "error", |m| {
        if let Some(e) = m.get_mut("error").and_then(Value::as_object_mut) {
            e.remove("message");
        }
    });
}

/// The JSON-RPC error code of a JSON answer.
fn error_code(r: &Response) -> Option<i64> {
    match &r.body {
        ResponseBody::Json(v) => v.get("error")?.get("code")?.as_i64(),
        _ => None,
    }
}

/// Replace error code `from` by `to` (a wrong code for one class of refusal).
fn recode(r: &mut Response, from: i64, to: i64) {
    each(r, "error", |m| {
        if m["error"]["code"] == json!(from) {
            m["error"]["code"] = json!(to);
        }
    });
}

/// Apply `f` to every message of the answer that has member `key` (`result` or `error`).
pub(super) fn each(r: &mut Response, key: &str, f: impl Fn(&mut Value)) {
    for m in r.messages_mut() {
        if m.get(key).is_some() {
            f(m);
        }
    }
}
