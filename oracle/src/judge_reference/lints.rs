//! Case-level inspections and the per-answer lints: the media headers (Content-Type,
//! Accept), bytes an HTTP parser may refuse before MCP code runs, and the lints every answer
//! to a request must satisfy.

use crate::case::{Case, HeaderField};
use crate::rules::{self, RuleId};
use crate::verdict::Lint;
use serde_json::Value;

/// Whether the request's media headers depart from what a conformant client sends, as
/// (Content-Type off, Accept off): a Content-Type other than `application/json`, and an
/// Accept that does not list both `application/json` and `text/event-stream`
/// (streamable-http.mdx § Sending Messages).
pub(crate) fn media_defects(case: &Case) -> (bool, bool) {
    let media = |v: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(v)
            .split(',')
            .map(|m| {
                m.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
            .collect()
    };
    let ct_ok = match case.header("Content-Type") {
        HeaderField::One(v) => media(v) == ["application/json"],
        _ => false,
    };
    let accept_ok = match case.header("Accept") {
        HeaderField::One(v) => {
            let m = media(v);
            m.iter().any(|x| x == "application/json") && m.iter().any(|x| x == "text/event-stream")
        }
        _ => false,
    };
    (!ct_ok, !accept_ok)
}

/// Whether a header field carries bytes an HTTP parser may refuse on its own: control bytes
/// other than HTAB in a value, or a name that is not a token.
pub(crate) fn has_parser_refusable_bytes(case: &Case) -> bool {
    case.headers.iter().any(|(n, v)| {
        n.is_empty()
            || !n.iter().all(|b| crate::annotations::is_tchar(*b))
            || v.iter().any(|b| (*b < 0x20 && *b != b'\t') || *b == 0x7f)
    })
}

pub(crate) fn error_lints() -> Vec<(RuleId, Lint)> {
    vec![
        (rules::ERRCODE_RESERVED, Lint::NoUndefinedReservedCode),
        (rules::ERRCODE_RETIRED, Lint::NoRetiredCode),
        (rules::ERRCODE_LEGACY, Lint::NoLegacyRangeCode),
        (rules::ERROR_SHAPE, Lint::ErrorShape),
    ]
}

/// The lints every answer to a well-formed request must satisfy; its id was readable, so an
/// error must echo it (DEVIATIONS.md D-32, narrowed 2026-12-03).
pub(crate) fn request_lints(id: &Value) -> Vec<(RuleId, Lint)> {
    let mut v = error_lints();
    v.extend([
        (rules::REQ_CT, Lint::RequestContentType),
        (rules::SSE_XACCEL, Lint::SseXAccel),
        (rules::SSE_NO_REQUESTS, Lint::SseNoRequests),
        (rules::RESULTTYPE, Lint::ResultType),
        (rules::RESULT_ID, Lint::ResultIdEcho(id.clone())),
        (
            rules::ERROR_ID,
            Lint::ErrorIdEcho {
                id: id.clone(),
                may_omit: false,
            },
        ),
        (rules::SERVERINFO, Lint::ServerInfo),
    ]);
    v
}
