//! The mutant driver and the mutants that act *after* the judge, rewriting the reference
//! answer (a wrong status or code for one class of refusal, a missing header or field, an
//! extra header, a wrong id). Request rewrites live in `mutate_case.rs`.

use super::dispatch::parse_call;
use super::mutate_case::before;
use super::response::{Response, ResponseBody};
use super::{error_body, render, render_canonical, result_body};
use crate::case::Case;
use crate::judge::judge;
use crate::rules;
use crate::surface::Surface;
use crate::verdict::{Canonical, Verdict};
use serde_json::{json, Value};

/// The answer of mutant `name` (the reference answer for an unknown name).
pub(crate) fn respond(name: &str, original: &Case, surface: &Surface) -> Response {
    let mut case = original.clone();
    let mut seen = surface.clone();
    if let Some(r) = before(name, &mut case, &mut seen) {
        return r;
    }
    let verdict = judge(&case, &seen);
    let mut r = if name == "init-versions-unnamed" {
        // the canonical error alone: the supported versions go unnamed
        render_canonical(&verdict, &case, &seen)
    } else {
        render(&verdict, &case, &seen)
    };
    after(name, original, surface, &verdict, &mut r);
    r
}

fn after(name: &str, case: &Case, surface: &Surface, verdict: &Verdict, r: &mut Response) {
    let call = parse_call(&case.body);
    let method = call.as_ref().map_or("", |c| c.method.as_str());
    let id = call.as_ref().map(|c| c.id.clone());
    let dispatched = verdict.canonical == Canonical::Dispatch;
    let code = error_code(r);
    let not_found = || {
        Response::json(
            404,
            error_body(id.as_ref(), -32601, "Method not found", None),
        )
    };
    let name_param = |field: &str| {
        call.as_ref()
            .and_then(|c| c.params.get(field))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    match name {
        "list-refused" if method == "resources/templates/list" && dispatched => {
            *r = Response::json(500, error_body(id.as_ref(), -32603, "Internal error", None));
        }
        "notif-body-on-202" if r.status == 202 => {
            r.body = ResponseBody::Json(json!({}));
            r.set_header("Content-Type", Some("application/json"));
        }
        "notif-answered" if verdict.canonical == Canonical::Accepted => {
            *r = Response::json(
                400,
                error_body(Some(&json!(0)), -32600, "Invalid Request", None),
            );
        }
        "result-text-plain" if (200..300).contains(&r.status) => {
            if matches!(r.body, ResponseBody::Json(_)) {
                r.set_header("Content-Type", Some("text/plain"));
            }
        }
        "sse-server-request" => {
            if let ResponseBody::Sse { events, .. } = &mut r.body {
                let ping = json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"});
                events.insert(events.len().saturating_sub(1), ping);
            }
        }
        "no-x-accel" => r.set_header("X-Accel-Buffering", None),
        "unknown-method-400" if r.status == 404 && code == Some(-32601) => r.status = 400,
        "no-discover" if method == "server/discover" && dispatched => *r = not_found(),
        "no-listen" if method == "subscriptions/listen" && dispatched => *r = not_found(),
        "unknown-tool-is-error"
            if method == "tools/call"
                && code == Some(-32602)
                && surface.tool(&name_param("name")).is_none() =>
        {
            let text = format!("Unknown tool: {}", name_param("name"));
            let res = json!({"content": [{"type": "text", "text": text}], "isError": true});
            *r = Response::json(200, result_body(&id.unwrap_or(Value::Null), res));
        }
        "unknown-resource-empty"
            if method == "resources/read"
                && code == Some(-32602)
                && !surface.knows_resource(&name_param("uri")) =>
        {
            let res = json!({"contents": [], "ttlMs": 0, "cacheScope": "public"});
            *r = Response::json(200, result_body(&id.unwrap_or(Value::Null), res));
        }
        "unknown-prompt-empty" if method == "prompts/get" && code == Some(-32602) => {
            let res = json!({"messages": []});
            *r = Response::json(200, result_body(&id.unwrap_or(Value::Null), res));
        }
        "mcp-name-from-name" if method == "resources/read" && dispatched => {
            let msg = "Header mismatch: Mcp-Name does not match params.name";
            *r = Response::json(400, error_body(id.as_ref(), -32020, msg, None));
        }
        "hdr-err-32602" if verdict.triggers(rules::HDR_ERR) => recode(r, -32020, -32602),
        "param-err-32602" if verdict.triggers(rules::PARAM_ERR) => recode(r, -32020, -32602),
        "legacy-code-32000" => recode(r, -32700, -32000),
        "reserved-code-32050" => recode(r, -32700, -32050),
        "retired-code-32002" => recode(r, -32700, -32002),
        "get-200" if r.status == 405 && case.method.eq_ignore_ascii_case("GET") => {
            *r = Response::json(200, json!({}));
        }
        "405-no-allow" if r.status == 405 => r.set_header("Allow", None),
        "session-id-header" => r.set_header("Mcp-Session-Id", Some("mcpdiff-session-1")),
        "result-id-string" => each(r, "result", |m| {
            if let Some(n) = m.get("id").filter(|i| i.is_number()) {
                m["id"] = json!(n.to_string());
            }
        }),
        "no-result-type" => each(r, "result", |m| {
            if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
                res.remove("resultType");
            }
        }),
        "serverinfo-dropped" => each(r, "result", |m| {
            if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
                res.remove("_meta");
            }
        }),
        "error-id-null" => each(r, "error", |m| {
            if m.get("id").is_some_and(|i| !i.is_null()) {
                m["id"] = Value::Null;
            }
        }),
        "error-no-message" => each(r, "error", |m| {
            if let Some(e) = m.get_mut("error").and_then(Value::as_object_mut) {
                e.remove("message");
            }
        }),
        _ => {}
    }
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
fn each(r: &mut Response, key: &str, f: impl Fn(&mut Value)) {
    for m in r.messages_mut() {
        if m.get(key).is_some() {
            f(m);
        }
    }
}
