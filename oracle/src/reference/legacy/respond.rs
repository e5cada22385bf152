//! The legacy reference's answers (2025-11-25 `basic/transports.mdx` and
//! `basic/lifecycle.mdx`; each branch names the `L-*` rule it meets).

use super::mutants::LegacyFault;
use super::state::LegacyState;
use super::streams;
use super::LEGACY_VERSIONS;
use crate::case::{Case, HeaderField};
use crate::reference::{error_body, Response, ResponseBody, SERVER_NAME, SERVER_VERSION};
use crate::surface::Surface;
use serde_json::{json, Value};

/// The legacy reference's answer to `case`, and the session table after it.
pub fn respond(state: LegacyState, case: &Case, surface: &Surface) -> (Response, LegacyState) {
    respond_with(None, state, case, surface)
}

/// [`respond`] with one rule broken (`fault`), for the mutants.
pub(super) fn respond_with(
    fault: Option<LegacyFault>,
    mut state: LegacyState,
    case: &Case,
    surface: &Surface,
) -> (Response, LegacyState) {
    let r = answer(fault, &mut state, case, surface);
    (r, state)
}

fn answer(
    fault: Option<LegacyFault>,
    state: &mut LegacyState,
    case: &Case,
    surface: &Surface,
) -> Response {
    // L-SHTTP-ORIGIN-403: a present Origin that is neither listed nor a loopback origin
    let checked = match fault {
        Some(LegacyFault::OriginUnchecked) => false,
        Some(LegacyFault::OriginPostOnly) => case.method == "POST",
        _ => true,
    };
    if checked && origin_invalid(case, surface) {
        let status = if fault == Some(LegacyFault::OriginRefused400) {
            400
        } else {
            403
        };
        return Response::json(status, error_body(None, -32600, "Forbidden origin", None));
    }
    match case.method.as_str() {
        "POST" => post(fault, state, case, surface),
        "GET" => get(fault, state, case),
        "DELETE" => delete(fault, state, case),
        _ => {
            let mut r = Response::empty(405);
            r.set_header("Allow", Some("GET, POST, DELETE"));
            r
        }
    }
}

/// The session a request names, checked: `Ok(id)` for a live session, else the refusal
/// (L-SHTTP-SESSION-MISSING-400: 400 without one; L-SHTTP-SESSION-404: 404 for an id the
/// reference did not mint, forgot, or terminated).
fn live_session(
    fault: Option<LegacyFault>,
    state: &LegacyState,
    case: &Case,
    request: Option<&Value>,
) -> Result<String, Response> {
    let session = match case.header("Mcp-Session-Id") {
        HeaderField::Absent => {
            let status = if fault == Some(LegacyFault::MissingSession404) {
                404
            } else {
                400
            };
            return Err(refusal(
                status,
                request,
                "Bad Request: Mcp-Session-Id required",
            ));
        }
        HeaderField::Repeated { .. } => {
            return Err(refusal(400, request, "Bad Request: one Mcp-Session-Id"))
        }
        HeaderField::One(v) => String::from_utf8_lossy(v).into_owned(),
    };
    match state.session(&session) {
        Some(s) if !s.terminated => Ok(session),
        Some(_) if fault == Some(LegacyFault::KeepsDeletedSession) => Ok(session),
        None if fault == Some(LegacyFault::ServesUnknownSession) => Ok(session),
        _ => Err(refusal(404, request, "Session not found")),
    }
}

/// A transport-level refusal: a JSON-RPC error echoing the request's id when the refused
/// message is a request (errors echo the id in every era), else no body at all (a
/// notification, a GET, a DELETE have no id to echo). -32600 is JSON-RPC's own code, outside
/// the ranges the modern lints flag.
fn refusal(status: u16, request: Option<&Value>, message: &str) -> Response {
    match request {
        Some(id) => Response::json(status, error_body(Some(id), -32600, message, None)),
        None => Response::empty(status),
    }
}

/// L-SHTTP-PV-UNSUPPORTED-400: a header naming a version the reference does not implement.
/// An absent header is the negotiated version (L-SHTTP-PV-ASSUME: the negotiated version is
/// the "other way to identify the version").
fn version_refusal(
    fault: Option<LegacyFault>,
    case: &Case,
    request: Option<&Value>,
) -> Option<Response> {
    if fault == Some(LegacyFault::ServesUnsupportedVersion) {
        return None;
    }
    match case.header("MCP-Protocol-Version") {
        HeaderField::Absent => None,
        HeaderField::One(v) if LEGACY_VERSIONS.iter().any(|l| l.as_bytes() == v) => None,
        _ => Some(refusal(
            400,
            request,
            "Bad Request: unsupported MCP-Protocol-Version",
        )),
    }
}

fn post(
    fault: Option<LegacyFault>,
    state: &mut LegacyState,
    case: &Case,
    surface: &Surface,
) -> Response {
    let Ok(msg) = serde_json::from_slice::<Value>(&case.body) else {
        return Response::json(400, error_body(None, -32700, "Parse error", None));
    };
    let method = msg.get("method").and_then(Value::as_str);
    let id = msg.get("id").filter(|i| !i.is_null()).cloned();
    if !msg.is_object() {
        return Response::json(400, error_body(None, -32600, "Invalid Request", None));
    }
    if method == Some("initialize") {
        return match id {
            Some(id) => initialize(fault, state, &id, &msg),
            // an `initialize` notification cannot be accepted (L-SHTTP-NOTIF-REJECT)
            None => Response::json(400, error_body(None, -32600, "Invalid Request", None)),
        };
    }
    // the version first: an unsupported one is refused 400 whatever the session (the
    // answer a dual-era judge accepts too, D-50)
    if let Some(r) = version_refusal(fault, case, id.as_ref()) {
        return r;
    }
    let session = match live_session(fault, state, case, id.as_ref()) {
        Ok(s) => s,
        Err(r) => return r,
    };
    match (method, id) {
        // a notification, or a response to a server request: L-SHTTP-NOTIF-202
        (Some(m), None) => {
            if m == "notifications/initialized" {
                if let Some(s) = state.session_mut(&session) {
                    s.initialized = true;
                }
            }
            accepted(fault)
        }
        (None, Some(_)) if msg.get("result").is_some() || msg.get("error").is_some() => {
            if fault == Some(LegacyFault::ResponseRefused200) {
                // refused, but with a success status (L-SHTTP-NOTIF-REJECT)
                return Response::json(200, error_body(None, -32600, "Not accepted", None));
            }
            accepted(fault)
        }
        // the endpoint refuses POSTed requests as an unsupported method (L-SHTTP-EP-POST-GET)
        (Some(_), Some(_)) if fault == Some(LegacyFault::RequestPost405) => {
            let mut r = Response::empty(405);
            r.set_header("Allow", Some("GET, DELETE"));
            r
        }
        (Some(m), Some(id)) => request(fault, state, &session, m, &id, surface),
        _ => Response::json(400, error_body(None, -32600, "Invalid Request", None)),
    }
}

/// 202 with no body (L-SHTTP-NOTIF-202).
fn accepted(fault: Option<LegacyFault>) -> Response {
    if fault == Some(LegacyFault::NotificationOk) {
        Response::empty(200)
    } else {
        Response::empty(202)
    }
}

/// L-LIFE-INIT-RESULT, L-LIFE-VERSION-SAME / -OTHER / -LATEST, L-SHTTP-SESSION-ASSIGN and
/// L-SHTTP-SESSION-ID-CHARS.
fn initialize(
    fault: Option<LegacyFault>,
    state: &mut LegacyState,
    id: &Value,
    msg: &Value,
) -> Response {
    let requested = msg
        .get("params")
        .and_then(|p| p.get("protocolVersion"))
        .and_then(Value::as_str);
    let supported = requested.filter(|r| LEGACY_VERSIONS.contains(r));
    let version = match (fault, supported, requested) {
        (Some(LegacyFault::VersionNotEchoed), Some(_), _) => LEGACY_VERSIONS[0].to_string(),
        (_, Some(v), _) => v.to_string(),
        (Some(LegacyFault::EchoesUnsupported), None, Some(r)) => r.to_string(),
        (Some(LegacyFault::OffersOldest), None, _) => LEGACY_VERSIONS[2].to_string(),
        _ => LEGACY_VERSIONS[0].to_string(),
    };
    let mut session = state.open(&version);
    if fault == Some(LegacyFault::SessionIdWithSpace) {
        let spaced = session.replacen('-', " ", 1);
        if let Some(s) = state.session_mut(&session) {
            s.id = spaced.clone();
        }
        session = spaced;
    }
    let mut result = json!({
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": SERVER_NAME, "version": SERVER_VERSION},
    });
    if fault == Some(LegacyFault::InitNoServerInfo) {
        if let Some(o) = result.as_object_mut() {
            o.remove("serverInfo");
        }
    }
    let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
    let mut r = if fault == Some(LegacyFault::InitSendsRequest) {
        streams::initialize_with_request(answer)
    } else {
        Response::json(200, answer)
    };
    r.set_header("Mcp-Session-Id", Some(&session));
    r
}

/// A request inside a live session: `ping` (as `application/json`) and `tools/list` (the
/// surface's tools, as an SSE stream: `streams.rs`) are served, other methods get -32601
/// (L-SHTTP-REQ-CT).
fn request(
    fault: Option<LegacyFault>,
    state: &mut LegacyState,
    session: &str,
    method: &str,
    id: &Value,
    surface: &Surface,
) -> Response {
    let body = match method {
        "ping" if fault == Some(LegacyFault::Latin1Answer) => {
            // `é` as the single Latin-1 byte 0xE9: no UTF-8 (L-BASE-UTF8)
            let mut bytes =
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"note":"caf"#).into_bytes();
            bytes.extend_from_slice(b"\xe9\"}}");
            let mut r = Response::json(200, Value::Null);
            r.body = ResponseBody::Raw(bytes);
            return r;
        }
        "ping" => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        "tools/list" => {
            let tools: Vec<Value> = surface
                .tools
                .iter()
                .map(|t| json!({"name": t.name, "inputSchema": t.input_schema}))
                .collect();
            let response = json!({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}});
            return streams::streamed(fault, state, session, response);
        }
        _ => error_body(Some(id), -32601, "Method not found", None),
    };
    let mut r = Response::json(200, body);
    if fault == Some(LegacyFault::PlainTextAnswer) {
        r.set_header("Content-Type", Some("text/plain"));
    }
    r
}

/// L-SHTTP-GET-SSE-OR-405 and L-SHTTP-GET-NO-RESPONSE: a live session's GET opens an SSE
/// stream that carries no response (the reference never sends server requests, so it stays
/// quiet until the client goes away).
fn get(fault: Option<LegacyFault>, state: &LegacyState, case: &Case) -> Response {
    if let Some(r) = version_refusal(fault, case, None) {
        return r;
    }
    let session = match live_session(fault, state, case, None) {
        Ok(s) => s,
        Err(r) => return r,
    };
    // a resumption (L-SHTTP-RESUME-REPLAY, -SAME-STREAM): the stream the id names
    if let HeaderField::One(last) = case.header("Last-Event-ID") {
        let last = String::from_utf8_lossy(last);
        if let Some(r) = streams::resume(fault, state, &session, &last) {
            return r;
        }
    }
    match fault {
        Some(LegacyFault::GetAnswersJson) => Response::json(200, json!({})),
        Some(LegacyFault::GetStreamResponse) => {
            Response::sse(vec![json!({"jsonrpc": "2.0", "id": 1, "result": {}})], true)
        }
        // a request for a capability the client did not declare (L-LIFE-OPERATION); only
        // once the session is initialized, so the mutant breaks no other rule (before it,
        // any request is L-LIFE-NO-REQUESTS-BEFORE-INITIALIZED's)
        Some(LegacyFault::GetSamples) if state.session(&session).is_some_and(|s| s.initialized) => {
            Response::sse(
                vec![json!({"jsonrpc": "2.0", "id": "mcpdiff-ref-sampling",
                "method": "sampling/createMessage",
                "params": {"messages": [], "maxTokens": 1}})],
                true,
            )
        }
        _ => Response::sse(Vec::new(), true),
    }
}

/// A live session's DELETE terminates it (200, no body); later requests carrying the id get
/// 404 (L-SHTTP-SESSION-404).
fn delete(fault: Option<LegacyFault>, state: &mut LegacyState, case: &Case) -> Response {
    let session = match live_session(fault, state, case, None) {
        Ok(s) => s,
        Err(r) => return r,
    };
    if fault != Some(LegacyFault::KeepsDeletedSession) {
        if let Some(s) = state.session_mut(&session) {
            s.terminated = true;
        }
    }
    Response::empty(200)
}

/// An Origin no loopback deployment allows (the same policy as the modern judge, D-04):
/// present, not listed, and not `http(s)` on `localhost`, `127.0.0.1` or `[::1]`.
fn origin_invalid(case: &Case, surface: &Surface) -> bool {
    let raw = match case.header("Origin") {
        HeaderField::Absent | HeaderField::Repeated { .. } => return false,
        HeaderField::One(v) => v,
    };
    let Ok(value) = std::str::from_utf8(raw) else {
        return true;
    };
    if surface.allowed_origins.iter().any(|o| o == value) {
        return false;
    }
    let Some((scheme, rest)) = value.split_once("://") else {
        return true;
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return true;
    }
    let host = match rest.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => rest.split(':').next().unwrap_or(rest),
    };
    !(host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "::1")
}
