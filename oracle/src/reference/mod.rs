//! The reference server as a pure function, its mutants, and the null server.
//!
//! `respond(case, surface)` is what a conformant 2026-07-28 server answers: it judges the case
//! and renders the Verdict's canonical answer, so the oracle stays the single source of truth
//! (a reference that decided on its own could drift from the judge and score itself clean).
//! Only `Canonical::Dispatch` needs more: the fixture methods in [`dispatch`].
//!
//! Files: `response.rs` (the answer type and its conversion to an `Observation`),
//! `dispatch.rs` (the fixture methods), `paged.rs` (list answers in pages), `auth.rs` (the protected reference of `serve --auth`),
//! `mutants/` (the mutant table and each mutant's behaviour), `probes/` (the probe set: one or
//! more requests per judged rule), `legacy/` (the 2025-11-25 reference a dual-era server
//! answers `initialize` sessions with, its session table a value passed in and out).
//! Nothing here does I/O; the HTTP shell lives in the CLI crate (`src/serve/`).

pub mod auth;
pub mod connection;
mod dispatch;
pub mod legacy;
pub mod list_side_effect;
pub mod mutants;
mod paged;
pub mod probes;
mod response;

pub use mutants::{mutant, respond_mutant, Mutant, UnknownMutant, AUTH_MUTANTS, MUTANTS};
pub use probes::{probes, Probe};
pub use response::{to_observation, Response, ResponseBody, SseEvent};

use crate::case::Case;
use crate::judge::judge;
use crate::request_id::RequestId;
use crate::surface::Surface;
use crate::verdict::{Canonical, Verdict};
use serde_json::{json, Map, Value};

/// `serverInfo` name every result carries.
pub const SERVER_NAME: &str = "mcpdiff-reference";
/// `serverInfo` version every result carries.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The reference server's answer to `case`.
pub fn respond(case: &Case, surface: &Surface) -> Response {
    let verdict = judge(case, surface);
    render(&verdict, case, surface)
}

/// The null server: `200 {}` to everything. It breaks nearly every rule, which is the point:
/// a scorer that does not fail it is broken.
pub fn null_response(_case: &Case) -> Response {
    Response::json(200, json!({}))
}

/// Render a Verdict's canonical answer for `case`, meeting the SHOULDs that shape an answer
/// beyond the Verdict's canonical one.
pub(crate) fn render(verdict: &Verdict, case: &Case, surface: &Surface) -> Response {
    let mut r = render_canonical(verdict, case, surface);
    if verdict.triggers(crate::rules::VER_INIT_NAMES) {
        name_versions(&mut r, surface);
    }
    r
}

/// "A server that supports only modern versions SHOULD name the protocol versions it
/// supports in any error it returns to an `initialize` request" (versioning.mdx): the
/// message (what a legacy client shows its user) lists them, and `data.supported` does too
/// when the error has no `data` of its own.
pub(crate) fn name_versions(r: &mut Response, surface: &Surface) {
    let ResponseBody::Json(body) = &mut r.body else {
        return;
    };
    let Some(error) = body.get_mut("error").and_then(Value::as_object_mut) else {
        return;
    };
    let list = surface.supported_versions.join(", ");
    if let Some(Value::String(m)) = error.get_mut("message") {
        m.push_str(&format!(" (supported protocol versions: {list})"));
    }
    if !error.contains_key("data") {
        error.insert(
            "data".into(),
            json!({ "supported": surface.supported_versions }),
        );
    }
}

/// Render a Verdict's canonical answer alone.
pub(crate) fn render_canonical(verdict: &Verdict, case: &Case, surface: &Surface) -> Response {
    match &verdict.canonical {
        Canonical::Reject {
            status,
            code: Some(code),
            id,
            data,
            message,
        } => Response::json(
            *status,
            error_body(
                id.as_ref().map(RequestId::to_value).as_ref(),
                *code,
                &message.to_string(),
                data.as_ref().map(|d| d.to_value(surface)).as_ref(),
            ),
        ),
        Canonical::Reject {
            status, code: None, ..
        } => Response::empty(*status),
        Canonical::Accepted => Response::empty(202),
        Canonical::MethodNotAllowed => {
            let mut r = Response::empty(405);
            r.headers.push(("Allow".to_string(), "POST".to_string()));
            r
        }
        Canonical::Dispatch => dispatch::run(case, surface),
    }
}

/// A JSON-RPC error response; no `id` member when `id` is `None` (an unreadable request).
pub(crate) fn error_body(
    id: Option<&Value>,
    code: i64,
    message: &str,
    data: Option<&Value>,
) -> Value {
    let mut error = Map::new();
    error.insert("code".into(), json!(code));
    error.insert("message".into(), json!(message));
    if let Some(d) = data {
        error.insert("data".into(), d.clone());
    }
    let mut out = Map::new();
    out.insert("jsonrpc".into(), json!("2.0"));
    if let Some(id) = id {
        out.insert("id".into(), id.clone());
    }
    out.insert("error".into(), Value::Object(error));
    Value::Object(out)
}

/// A JSON-RPC success response: `result` gets `resultType: "complete"` and the serverInfo
/// `_meta` entry (kept alongside any `_meta` the method put there).
pub(crate) fn result_body(id: &Value, result: Value) -> Value {
    let mut r = match result {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    r.insert("resultType".into(), json!("complete"));
    let meta = r
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = meta {
        m.insert(
            "io.modelcontextprotocol/serverInfo".into(),
            json!({"name": SERVER_NAME, "version": SERVER_VERSION}),
        );
    }
    json!({"jsonrpc": "2.0", "id": id, "result": r})
}
