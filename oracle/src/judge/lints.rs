//! Case-level inspections and the per-answer lints: the media headers (Content-Type,
//! Accept), bytes an HTTP parser may refuse before MCP code runs, and the lints every answer
//! to a request must satisfy.

use super::view::HeaderView;
use super::view::{Modern, RequestBody};
use crate::case::HeaderField;
use crate::encoding::field_words::equals;
use crate::soft_params::{level_rank, LogLevel};
use crate::verdict::{LintKind, LintSet};

/// Whether the request's media headers depart from what a conformant client sends, as
/// (Content-Type off, Accept off): a Content-Type other than `application/json`, and an
/// Accept that does not list both `application/json` and `text/event-stream`
/// (streamable-http.mdx § Sending Messages).
pub(crate) fn media_defects(h: &HeaderView<'_>) -> (bool, bool) {
    // the values a conformant client sends, recognised before any parsing
    let ct_ok = match h.content_type {
        HeaderField::One(v) => equals(v, b"application/json") || content_type_ok(v),
        _ => false,
    };
    let accept_ok = match h.accept {
        HeaderField::One(v) => equals(v, b"application/json, text/event-stream") || accept_ok(v),
        _ => false,
    };
    (!ct_ok, !accept_ok)
}

/// Whether a Content-Type other than the conformant spelling is `application/json` alone.
#[cold]
#[inline(never)]
fn content_type_ok(v: &[u8]) -> bool {
    with_media_types(v, |types| {
        types
            .next()
            .is_some_and(|t| t.eq_ignore_ascii_case(b"application/json"))
            && types.next().is_none()
    })
}

/// Whether an Accept other than the conformant spelling lists both types.
#[cold]
#[inline(never)]
fn accept_ok(v: &[u8]) -> bool {
    // both types looked for in one pass over the value
    with_media_types(v, |types| {
        let (mut json, mut sse) = (false, false);
        for t in types {
            json |= t.eq_ignore_ascii_case(b"application/json");
            sse |= t.eq_ignore_ascii_case(b"text/event-stream");
            if json && sse {
                break;
            }
        }
        json && sse
    })
}

/// Whether `b` is one of the bytes `str::trim` strips from ASCII text.
fn is_trim_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Run `f` over the media types of a header value: each comma-separated element without
/// its parameters, trimmed (Unicode whitespace, as `str::trim`). A value that is not UTF-8
/// is read with replacement characters first, as the judge always has. The types are
/// compared as bytes (ASCII case folding reads the same on `str` and on its bytes).
fn with_media_types(v: &[u8], f: impl FnOnce(&mut dyn Iterator<Item = &[u8]>) -> bool) -> bool {
    if v.is_ascii() {
        // ASCII (nearly always): trimming these bytes is exactly `str::trim` on ASCII text,
        // so the elements need no UTF-8 view
        let mut types = v.split(|b| *b == b',').map(|m| {
            let m = m.split(|b| *b == b';').next().unwrap_or(b"");
            let end = m.iter().rposition(|b| !is_trim_ws(*b)).map_or(0, |i| i + 1);
            let start = m.iter().position(|b| !is_trim_ws(*b)).unwrap_or(end);
            &m[start.min(end)..end]
        });
        return f(&mut types);
    }
    let text = String::from_utf8_lossy(v);
    let mut types = text
        .split(',')
        .map(|m| m.split(';').next().unwrap_or("").trim().as_bytes());
    f(&mut types)
}

/// The lints on every error answer: the reserved, retired and legacy code ranges, the
/// error's shape, its integer code and the JSON-RPC reserved range (D-160, D-161).
pub(crate) fn error_lints(out: &mut LintSet) {
    out.insert(LintKind::NoUndefinedReservedCode);
    out.insert(LintKind::NoRetiredCode);
    out.insert(LintKind::NoLegacyRangeCode);
    out.insert(LintKind::ErrorShape);
    out.insert(LintKind::ErrorInt);
    out.insert(LintKind::NoNewReservedCode);
    out.insert(LintKind::JsonRpcVersion);
}

/// The lints every answer to a well-formed request must satisfy. Its id was readable, so an
/// error must echo it whatever the media headers said (DEVIATIONS.md D-32, narrowed):
/// `may_omit` stays false (the field is kept so stored verdicts keep their shape).
/// `logging`: the target declares the `logging` capability.
pub(crate) fn request_lints(out: &mut LintSet, req: &RequestBody<'_>, logging: bool) {
    error_lints(out);
    out.insert(LintKind::RequestContentType);
    out.insert(LintKind::SseXAccel);
    out.insert(LintKind::SseNoRequests);
    out.insert(LintKind::ResultType);
    out.echo(&req.id);
    out.insert(LintKind::ServerInfo);
    // what the request asked of its stream: the stream rules read it (`crate::stream`)
    let (token, log_level, filter) = match &req.params {
        Some(p) => (
            p.progress_token.clone(),
            p.log_level != LogLevel::Absent,
            p.listen_filter,
        ),
        None => (None, false, 0),
    };
    // LOG-LEVEL-THRESHOLD binds a target that declares `logging` (on another, any log
    // message is LOG-CAP-DECLARE's), for one of the eight levels (D-198)
    let min_level = match req.params.as_ref().map(|p| &p.log_level) {
        Some(LogLevel::Text(l)) if logging => level_rank(l),
        _ => None,
    };
    out.stream(
        token,
        log_level,
        req.kind == Some(Modern::Listen),
        filter,
        min_level,
    );
}

/// The base-protocol shape lints on every answer to a request (`crate::shape`; issue 23):
/// `_meta` keys and trace context, the `resultType` vocabulary (when the target advertises
/// no extension that could add values, D-164), the members of an `InputRequiredResult`, no
/// `InputRequiredResult` on a request that may not get one, no notification with an id, the
/// extension identifiers of a `server/discover` result, and the `result` member of a result
/// response (D-170), unique `inputRequests` keys (D-171), and -32021 used with its meaning
/// (`caps`: the client capabilities the request declared, D-172) with its status and data
/// (D-173), and input requests only for declared capabilities (D-174).
pub(crate) fn shape_lints(out: &mut LintSet, kind: Option<Modern>, extensions: bool, caps: u8) {
    out.insert(LintKind::MetaKeys);
    out.insert(LintKind::TraceContext);
    if !extensions {
        out.insert(LintKind::KnownResultType);
    }
    out.insert(LintKind::InputRequiredCarries);
    out.insert(LintKind::InputRequestTypes);
    if !kind.is_some_and(Modern::may_require_input) {
        out.insert(LintKind::InputRequiredUnsupported);
    }
    out.insert(LintKind::NotificationNoId);
    out.insert(LintKind::ResultField);
    out.insert(LintKind::InputKeysUnique);
    out.declared(caps);
    out.insert(LintKind::CapabilityCodeMeaning);
    out.insert(LintKind::MissingCapabilityShape);
    out.insert(LintKind::NoUndeclaredInput);
    if kind == Some(Modern::Discover) {
        out.insert(LintKind::ExtensionIds);
    }
}

/// Whether the request's client capabilities (`params._meta`
/// `io.modelcontextprotocol/clientCapabilities`) declare some extension: a non-empty
/// `extensions` object. A body that does not parse is said to declare one (nothing is
/// judged on it). Read only on a target that advertises an extension (VER-EXT-FALLBACK,
/// DEVIATIONS.md D-183), so the parse costs nothing on the others.
#[cold]
#[inline(never)]
pub(crate) fn declares_extension(body: &[u8]) -> bool {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
        return true;
    };
    v.get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(crate::case::META_CLIENT_CAPABILITIES))
        .and_then(|c| c.get("extensions"))
        .is_some_and(|e| e.as_object().is_none_or(|o| !o.is_empty()))
}
