//! The mutants of pagination, caching across pages, completion and logging: each breaks one
//! of PAGE-INVALID-CURSOR, PAGE-STABLE, CACHE-SCOPE-PAGES, COMPL-CAP-DECLARE,
//! LOG-CAP-DECLARE and LOG-INVALID-LEVEL, leaving every other answer as the reference gives
//! it. PAGE-STABLE's and CACHE-SCOPE-PAGES's show only on a paged surface (`serve
//! --page-size`, [`needs_pages`]).

use super::answer::Answered;
use super::Mutant;
use crate::case::{Case, META_LOG_LEVEL};
use crate::reference::error_body;
use crate::reference::response::{Response, ResponseBody};
use crate::soft_params::{level_at, LOG_LEVELS};
use crate::surface::Surface;
use serde_json::{json, Value};

/// Mutants whose rule shows only when the reference lists in pages: the HTTP calibrations
/// serve them with `fixture::paged_surface()`.
pub fn needs_pages(m: &Mutant) -> bool {
    [super::CURSORS_REFUSED, super::PAGE_SCOPE_PRIVATE].contains(m)
}

/// Whether the request is a list method carrying a `cursor`.
fn paging(a: &Answered) -> bool {
    let listing = crate::pages::LIST_METHODS
        .iter()
        .any(|(m, _)| *m == a.method());
    listing && a.call().is_some_and(|c| c.params.contains_key("cursor"))
}

/// The `result` object of a JSON answer, if it is a success.
fn result_of(r: &mut Response) -> Option<&mut serde_json::Map<String, Value>> {
    match &mut r.body {
        ResponseBody::Json(v) => v.get_mut("result")?.as_object_mut(),
        _ => None,
    }
}

/// Remove `params[key]` (or `params._meta[key]` with `meta`) from the body, if present.
fn strip(case: &mut Case, key: &str, meta: bool) {
    let Ok(mut body) = serde_json::from_slice::<Value>(&case.body) else {
        return;
    };
    let mut target = body.get_mut("params");
    if meta {
        target = target.and_then(|p| p.get_mut("_meta"));
    }
    let removed = target
        .and_then(Value::as_object_mut)
        .and_then(|m| m.remove(key));
    if removed.is_some() {
        // serializing a Value cannot fail (all keys are strings)
        case.body = serde_json::to_vec(&body).unwrap_or_default();
    }
}

/// `cursor-unchecked`: a list request's cursor it never issued is read as no cursor (the
/// first page is served).
pub(super) fn cursor_unchecked(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    let call = super::super::dispatch::parse_call(&case.body)?;
    let issued = match call.params.get("cursor") {
        Some(Value::String(c)) => surface.pagination.issued(&call.method, c),
        Some(Value::Null) | None => return None,
        Some(_) => false,
    };
    let listing = crate::pages::LIST_METHODS
        .iter()
        .any(|(m, _)| *m == call.method);
    if listing && !issued {
        strip(case, "cursor", false);
    }
    None
}

/// `cursors-refused`: every page opened by a cursor is refused -32602, as if the cursor had
/// expired.
pub(super) fn cursors_refused(a: &Answered, r: &mut Response) {
    if paging(a) && result_of(r).is_some() {
        let id = a.call().map(|c| c.id.clone());
        *r = Response::json(
            200,
            error_body(id.as_ref(), -32602, "Invalid params: cursor expired", None),
        );
    }
}

/// `page-scope-private`: every page after the first says `cacheScope: "private"`.
pub(super) fn page_scope_private(a: &Answered, r: &mut Response) {
    if !paging(a) {
        return;
    }
    if let Some(result) = result_of(r) {
        result.insert("cacheScope".into(), json!("private"));
    }
}

/// `completions-undeclared`: its discover result leaves out `completions` (it still answers
/// completion/complete).
pub(super) fn completions_undeclared(a: &Answered, r: &mut Response) {
    if a.method() != "server/discover" {
        return;
    }
    if let Some(caps) = result_of(r)
        .and_then(|res| res.get_mut("capabilities"))
        .and_then(Value::as_object_mut)
    {
        caps.remove("completions");
    }
}

/// `log-undeclared`: a request that set a recognized log level gets one `notifications/message`
/// at that level on its stream, before the response, from a server that declares no
/// `logging`.
pub(super) fn log_undeclared(a: &Answered, r: &mut Response) {
    let Some(call) = a.call() else { return };
    if call.method == "subscriptions/listen" || a.surface().capabilities.logging {
        return;
    }
    let Some(level) = a.log_level().and_then(level_at) else {
        return;
    };
    if let ResponseBody::Sse { events, .. } = &mut r.body {
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": level, "logger": "mutant", "data": "undeclared"}});
        events.insert(events.len().saturating_sub(1), log);
    }
}

/// `log-level-unchecked`: a log level that is not one of the eight is ignored (the request is
/// served as if it set none).
pub(super) fn log_level_unchecked(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let call = super::super::dispatch::parse_call(&case.body)?;
    let level = call
        .params
        .get("_meta")
        .and_then(|m| m.get(META_LOG_LEVEL))?;
    if !level.as_str().is_some_and(|l| LOG_LEVELS.contains(&l)) {
        strip(case, META_LOG_LEVEL, true);
    }
    None
}
