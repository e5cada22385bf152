//! The standard mirrored headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), the
//! version in `_meta`, the other required `_meta` fields, and the benign inputs that must
//! not change anything (session ids, `Last-Event-ID`, header-name case, padding).

use super::findings::{header_mismatch, is_blocking, Defect, Findings};
use super::header_values::{
    invalid_chars, mismatch_answer, overlap, read_header_value, HeaderValue,
};
use super::view::{HeaderQuirk, HeaderView, RequestBody};
use crate::case::HeaderField;
use crate::encoding::{decode_header_value, sentinel::looks_like_sentinel, DecodedValue};
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules;
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, DataRule, RejectData, Requested, StatusSet};

/// Published revisions before 2026-07-28 (the initialize-handshake era).
pub const LEGACY_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

pub(crate) fn check(
    h: &HeaderView<'_>,
    surface: &Surface,
    req: &RequestBody<'_>,
    f: &mut Findings,
) {
    benign_inputs(h, f);
    let id = &req.id;
    let params = req.params.as_ref();
    let body_version = params.and_then(|p| p.version.as_deref());
    let caps_ok = params.is_some_and(|p| p.capabilities);

    protocol_version(h, surface, id, body_version, f);
    if params.is_some_and(|p| p.client_info_malformed) {
        // optional, but an `Implementation` requires `name` and `version`: refusing a
        // malformed one as invalid params is as right as ignoring it (DEVIATIONS.md D-47)
        f.tolerate(Answer::RpcError {
            status: StatusSet::Exact(400),
            code: -32602,
            data: DataRule::None,
        });
    }
    if body_version.is_none() || !caps_ok || req.params_malformed {
        let answer = Answer::RpcError {
            status: StatusSet::Exact(400),
            code: -32602,
            data: DataRule::None,
        };
        f.defect_lazy(
            rules::META_REQUIRED,
            rules::META_REQUIRED,
            5,
            answer,
            || Canonical::Reject {
                status: 400,
                code: Some(-32602),
                id: Some(id.clone()),
                data: None,
                message: Message::Fixed(
                    "Invalid params: _meta lacks a required io.modelcontextprotocol field",
                ),
            },
        );
    }
    mcp_method(h, req, f);
    mcp_name(h, req, f);
}

fn protocol_version(
    h: &HeaderView<'_>,
    surface: &Surface,
    id: &RequestId,
    body: Option<&str>,
    f: &mut Findings,
) {
    let unsupported = |v: &str| !surface.supports_version(v);
    let upv = |requested: Requested| Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32022,
        data: DataRule::UnsupportedVersion { requested },
    };
    let upv_canonical = |requested: &str| Canonical::Reject {
        status: 400,
        code: Some(-32022),
        id: Some(id.clone()),
        data: Some(RejectData::UnsupportedVersion {
            requested: requested.into(),
        }),
        message: Message::Fixed("Unsupported protocol version"),
    };
    // a dual-era server serves a request that names a legacy version on its legacy path,
    // where this oracle's modern rules do not apply (D-33); compared as bytes (the versions
    // are ASCII, so a header value equal to one is that text)
    let legacy = |v: &[u8]| LEGACY_VERSIONS.iter().any(|l| l.as_bytes() == v);
    // "A request carrying modern per-request `_meta` is served statelessly according to
    // this revision" (versioning.mdx): a body naming any other version keeps every header
    // rule, whatever the header says (D-36, narrowed 2026-12-03)
    let legacy_path = match (body, h.protocol_version) {
        (Some(v), _) => legacy(v.as_bytes()),
        (None, HeaderField::One(raw)) => legacy(raw),
        (None, _) => false,
    };
    if surface.is_dual_era() && legacy_path {
        f.anything_goes = true;
        return;
    }
    let header = match h.protocol_version {
        HeaderField::Absent => {
            if surface.supports_headerless_clients() && body.is_none() {
                // MAY treat as 2025-03-26: the legacy path may answer anything (AMB-21);
                // not when the body's `_meta` names a version (D-18, D-36, 2026-12-03)
                f.anything_goes = true;
                return;
            }
            f.mismatch(rules::PV_MISSING, rules::HDR_ERR, 3, id, || {
                Message::Fixed("Header mismatch: MCP-Protocol-Version header is missing")
            });
            if let Some(b) = body.filter(|b| unsupported(b)) {
                // PRECEDENCE.md row 8
                f.tolerate(upv(Requested::new([b])));
            }
            return;
        }
        HeaderField::Repeated => {
            // AMB-20: repeated fields are unspecified
            f.tolerate(mismatch_answer());
            return;
        }
        HeaderField::One(raw) => raw,
    };
    // (a supported version is text, so a header value equal to one is that text)
    let supported = || {
        surface
            .supported_versions
            .iter()
            .any(|v| v.as_bytes() == header)
    };
    if surface.is_dual_era() && body.is_none() && !supported() {
        // nothing in the body names a modern version: a dual-era server may answer an
        // "invalid or unsupported" version as 2025-11-25 does, 400 with any body (D-50)
        f.tolerate(Answer::HttpStatus {
            status: StatusSet::Exact(400),
        });
    }
    if invalid_chars(
        header,
        rules::HDR_INVALID_CHARS,
        rules::HDR_ERR,
        &"MCP-Protocol-Version",
        id,
        f,
    ) {
        return;
    }
    let Ok(h) = std::str::from_utf8(header) else {
        return;
    };
    match body {
        None => {
            // AMB-02: no body value to compare with; -32602 (missing field) or -32020
            f.tolerate(mismatch_answer());
            if unsupported(h) {
                f.tolerate(upv(Requested::new([h])));
            }
        }
        Some(b) if b == h => {
            if unsupported(h) {
                let answer = upv(Requested::new([h]));
                f.defect_lazy(
                    rules::PV_UNSUPPORTED,
                    rules::PV_UNSUPPORTED,
                    3,
                    answer,
                    || upv_canonical(h),
                );
            }
        }
        Some(b) => {
            // (built only when some version is unsupported)
            let requested = || Requested::new([h, b].into_iter().filter(|v| unsupported(v)));
            // P-VERSION-FIRST: an unsupported header version goes first
            let priority = if unsupported(h) { 3 } else { 4 };
            let canonical = if !f.could_lead(rules::PV_MISMATCH, priority) {
                // never read: an earlier defect gives the canonical answer
                Canonical::Dispatch
            } else if unsupported(h) {
                upv_canonical(h)
            } else {
                let msg = Message::parts(
                    &[
                        "Header mismatch: MCP-Protocol-Version header '",
                        "' does not match _meta '",
                        "'",
                    ],
                    &[&h, &b],
                );
                header_mismatch(id, msg)
            };
            let mut d = Defect {
                reject: rules::PV_MISMATCH,
                shape: rules::HDR_ERR,
                blocking: is_blocking(rules::PV_MISMATCH),
                answers: smallvec::smallvec![mismatch_answer()],
                priority,
                canonical,
            };
            if unsupported(h) {
                d.answers.insert(0, upv(requested()));
            } else if unsupported(b) {
                d.answers.push(upv(requested()));
            }
            f.defects.push(d);
        }
    }
}

/// A required mirrored header (`Mcp-Method`, `Mcp-Name`) as the server must read it: missing
/// is a defect, repeated is tolerated (AMB-20), invalid characters are a defect; otherwise
/// the value to compare with the body.
fn required_field<'c>(
    field: HeaderField<'c>,
    name: &str,
    missing: &'static str,
    id: &RequestId,
    f: &mut Findings,
) -> Option<&'c [u8]> {
    let raw = match field {
        HeaderField::Absent => {
            f.mismatch(rules::HDR_MISSING, rules::HDR_ERR, 4, id, || {
                Message::Fixed(missing)
            });
            return None;
        }
        HeaderField::Repeated => {
            f.tolerate(mismatch_answer());
            return None;
        }
        HeaderField::One(raw) => raw,
    };
    let invalid = invalid_chars(raw, rules::HDR_INVALID_CHARS, rules::HDR_ERR, &name, id, f);
    (!invalid).then_some(raw)
}

fn mcp_method(h: &HeaderView<'_>, req: &RequestBody<'_>, f: &mut Findings) {
    let id = &req.id;
    let Some(raw) = required_field(
        h.method,
        "Mcp-Method",
        "Header mismatch: Mcp-Method header is missing",
        id,
        f,
    ) else {
        return;
    };
    if raw == req.method.as_bytes() {
        return;
    }
    // name the most specific sentence the mismatch breaks
    let rule = if raw.eq_ignore_ascii_case(req.method.as_bytes()) {
        rules::HDR_VALUE_CASE
    } else if looks_like_sentinel(raw)
        && matches!(decode_header_value(raw), DecodedValue::Decoded(m) if m == *req.method)
    {
        // only Mcp-Name and Mcp-Param-* permit the sentinel (AMB-17: literal comparison)
        rules::B64_ONLY_NAME_PARAM
    } else {
        rules::HDR_MISMATCH
    };
    f.mismatch(rule, rules::HDR_ERR, 4, id, || {
        Message::parts(
            &[
                "Header mismatch: Mcp-Method header '",
                "' does not match body '",
                "'",
            ],
            &[&String::from_utf8_lossy(raw), &req.method],
        )
    });
}

/// The body field `Mcp-Name` mirrors for `method`, if the method has one.
pub fn name_source(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

fn mcp_name(h: &HeaderView<'_>, req: &RequestBody<'_>, f: &mut Findings) {
    let id = &req.id;
    let header = h.name;
    let Some(field) = name_source(&req.method) else {
        if header != HeaderField::Absent {
            // AMB-02: Mcp-Name on a method without params.name/uri is undefined
            f.tolerate(mismatch_answer());
        }
        return;
    };
    let body = req.params.as_ref().and_then(|p| p.get_str(field));
    let Some(raw) = required_field(
        h.name,
        "Mcp-Name",
        "Header mismatch: Mcp-Name header is missing",
        id,
        f,
    ) else {
        return;
    };
    let Some(body) = body else {
        // no body value to compare (the params are invalid anyway): AMB-02
        return f.tolerate(mismatch_answer());
    };
    let msg = || {
        Message::parts(
            &[
                "Header mismatch: Mcp-Name header '",
                "' does not match body value '",
                "'",
            ],
            &[&String::from_utf8_lossy(raw), &body],
        )
    };
    let mut buf = [0; 96];
    match read_header_value(raw, &mut buf) {
        HeaderValue::Plain(v) if v == body.as_bytes() => overlap(v, f),
        HeaderValue::Plain(v) => {
            let rule = if v.starts_with(b"=?") && v.ends_with(b"?=") {
                rules::B64_MARKERS
            } else if v.eq_ignore_ascii_case(body.as_bytes()) {
                rules::HDR_VALUE_CASE
            } else {
                rules::HDR_MISMATCH
            };
            f.mismatch(rule, rules::HDR_ERR, 4, id, msg);
        }
        HeaderValue::Decoded(s) if s == body => f.benign(rules::B64_DECODE),
        HeaderValue::Lenient(s) if s == body => f.tolerate(mismatch_answer()),
        HeaderValue::Decoded(_) | HeaderValue::Lenient(_) => {
            f.mismatch(rules::HDR_MISMATCH, rules::HDR_ERR, 4, id, msg)
        }
        HeaderValue::Malformed => f.mismatch(rules::B64_MALFORMED, rules::HDR_ERR, 4, id, || {
            Message::Fixed("Header mismatch: Mcp-Name carries a malformed base64 sentinel")
        }),
    }
}

/// Inputs that must not change the outcome (P-BENIGN).
fn benign_inputs(h: &HeaderView<'_>, f: &mut Findings) {
    if h.session_id != HeaderField::Absent {
        f.benign(rules::BC_SESSION);
    }
    if h.last_event_id != HeaderField::Absent {
        f.benign(rules::BC_LAST_EVENT_ID);
    }
    for q in &h.quirks {
        f.benign(match q {
            HeaderQuirk::NameCase => rules::HDR_NAME_CI,
            HeaderQuirk::Padding => rules::HDR_OWS,
        });
    }
}
