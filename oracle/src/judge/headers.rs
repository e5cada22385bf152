//! The standard mirrored headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), the
//! version in `_meta`, the other required `_meta` fields, and the benign inputs that must
//! not change anything (session ids, `Last-Event-ID`, header-name case, padding). The
//! version rule is `version`; each rule's common case (a conformant request) runs inline and
//! every departure is a cold function of its own.

mod version;

use super::answers::mismatch_answer;
use super::findings::Findings;
use super::header_values::{
    decodes_to, invalid_chars, lossy, overlap, read_header_value, strict_malformed, HeaderValue,
};
use super::view::{HeaderQuirk, HeaderView, RequestBody};
use crate::case::{combined, Combined, HeaderField};
use crate::encoding::field_words::same_bytes;
use crate::encoding::sentinel::looks_like_sentinel;
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules;
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, DataRule, StatusSet};
use std::borrow::Cow;

/// Published revisions before 2026-07-28 (the initialize-handshake era): the era module's
/// list, so the judge and the dual-era reference name the same versions legacy.
pub use crate::legacy::LEGACY_ERA_VERSIONS as LEGACY_VERSIONS;

/// `dual_era`: `surface.is_dual_era()`, asked once by the caller.
pub(crate) fn check(
    h: &HeaderView<'_>,
    surface: &Surface,
    dual_era: bool,
    req: &RequestBody<'_>,
    f: &mut Findings,
) {
    if h.session_id != HeaderField::Absent
        || h.last_event_id != HeaderField::Absent
        || !h.quirks.is_empty()
    {
        benign_inputs(h, f);
    }
    let id = &req.id;
    let params = req.params.as_ref();
    let body_version = params.and_then(|p| p.version.as_deref());
    let caps_ok = params.is_some_and(|p| p.capabilities);

    version::protocol_version(h, surface, dual_era, id, body_version, f);
    if params.is_some_and(|p| p.client_info_malformed) {
        client_info_malformed(f);
    } else if params.is_some_and(|p| p.client_info_foreign) {
        // «`io.modelcontextprotocol/clientInfo` … Implementations SHOULD NOT use them to
        // change the behavior of the client or server»: another client's name must not
        // change the outcome (P-BENIGN; D-194)
        f.benign(rules::INFO_NOT_BEHAVIOR);
    }
    if body_version.is_none() || !caps_ok || req.params_malformed {
        meta_required(id, f);
    }
    mcp_method(h, req, f);
    mcp_name(h, req, f);
}

/// Optional, but an `Implementation` requires `name` and `version`: refusing a malformed one
/// as invalid params is as right as ignoring it (DEVIATIONS.md D-47).
#[cold]
#[inline(never)]
fn client_info_malformed(f: &mut Findings) {
    f.tolerate(Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32602,
        data: DataRule::None,
    });
}

#[cold]
#[inline(never)]
fn meta_required(id: &RequestId, f: &mut Findings) {
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

/// A required mirrored header (`Mcp-Method`, `Mcp-Name`) as the server must read it: missing
/// is a defect, invalid characters are a defect; otherwise the value to compare with the
/// body value `body` (`None`: nothing to compare). A repeated field's value is its copies
/// joined (RFC 9110 §5.2; DEVIATIONS.md D-09).
#[inline(always)]
fn required_field<'c>(
    field: HeaderField<'c>,
    visible: bool,
    name: &'static str,
    missing: &'static str,
    body: Option<&str>,
    id: &RequestId,
    f: &mut Findings,
) -> Option<Cow<'c, [u8]>> {
    let raw = match field {
        HeaderField::One(raw) => Cow::Borrowed(raw),
        HeaderField::Repeated {
            first,
            other,
            count,
        } => Cow::Owned(repeated(first, other, count, body, f)?),
        HeaderField::Absent => {
            f.mismatch(rules::HDR_MISSING, rules::HDR_ERR, 4, id, || {
                Message::Fixed(missing)
            });
            return None;
        }
    };
    // (`visible`: the reader saw no invalid character in any mirrored value)
    let invalid =
        !visible && invalid_chars(&raw, rules::HDR_INVALID_CHARS, rules::HDR_ERR, &name, id, f);
    (!invalid).then_some(raw)
}

/// The value of a mirrored field sent more than once, when it is to be compared: "When a
/// field name is repeated within a section, its combined field value consists of the list of
/// corresponding field line values within that section, concatenated in order, with each
/// field line value separated by a comma" (RFC 9110 §5.2). A refusal is always admitted (the
/// sender "MUST NOT generate multiple field lines with the same name" for a field whose
/// definition allows no list, §5.3: a malformed request); serving only when the joined
/// copies are the body's value.
#[cold]
#[inline(never)]
pub(super) fn repeated(
    first: &[u8],
    other: &[u8],
    count: u32,
    body: Option<&str>,
    f: &mut Findings,
) -> Option<Vec<u8>> {
    f.tolerate(mismatch_answer());
    match combined(first, other, count, body.map(str::as_bytes)) {
        Combined::MayMatch => None,
        Combined::Value(v) => Some(v),
    }
}

fn mcp_method(h: &HeaderView<'_>, req: &RequestBody<'_>, f: &mut Findings) {
    let Some(raw) = required_field(
        h.method,
        h.mirrored_visible,
        "Mcp-Method",
        "Header mismatch: Mcp-Method header is missing",
        Some(req.method.as_ref()),
        &req.id,
        f,
    ) else {
        return;
    };
    if !same_bytes(&raw, req.method.as_bytes()) {
        method_mismatch(&raw, req, f);
    }
}

#[cold]
#[inline(never)]
fn method_mismatch(raw: &[u8], req: &RequestBody<'_>, f: &mut Findings) {
    // name the most specific sentence the mismatch breaks
    let rule = if raw.eq_ignore_ascii_case(req.method.as_bytes()) {
        rules::HDR_VALUE_CASE
    } else if looks_like_sentinel(raw) && decodes_to(raw, &req.method) {
        // only Mcp-Name and Mcp-Param-* permit the sentinel (AMB-17: literal comparison)
        rules::B64_ONLY_NAME_PARAM
    } else {
        rules::HDR_MISMATCH
    };
    f.mismatch(rule, rules::HDR_ERR, 4, &req.id, || {
        Message::texts(
            &[
                "Header mismatch: Mcp-Method header '",
                "' does not match body '",
                "'",
            ],
            &[&lossy(raw), &req.method],
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
    let Some(field) = name_source(&req.method) else {
        if h.name != HeaderField::Absent {
            // AMB-02: Mcp-Name on a method without params.name/uri is undefined
            f.tolerate(mismatch_answer());
        }
        return;
    };
    let body = req.params.as_ref().and_then(|p| p.get_str(field));
    let Some(raw) = required_field(
        h.name,
        h.mirrored_visible,
        "Mcp-Name",
        "Header mismatch: Mcp-Name header is missing",
        body,
        &req.id,
        f,
    ) else {
        return;
    };
    let Some(body) = body else {
        // no body value to compare (the params are invalid anyway): AMB-02
        return f.tolerate(mismatch_answer());
    };
    name_value(&raw, body, &req.id, f);
}

/// The value of `Mcp-Name` against the body's.
fn name_value(raw: &[u8], body: &str, id: &RequestId, f: &mut Findings) {
    if looks_like_sentinel(raw) {
        return name_sentinel(raw, body, id, f);
    }
    if same_bytes(raw, body.as_bytes()) {
        overlap(raw, f);
    } else {
        name_mismatch(raw, body, id, f);
    }
}

/// A plain `Mcp-Name` value other than the body's.
#[cold]
#[inline(never)]
fn name_mismatch(raw: &[u8], body: &str, id: &RequestId, f: &mut Findings) {
    let rule = if raw.starts_with(b"=?") && raw.ends_with(b"?=") {
        rules::B64_MARKERS
    } else if raw.eq_ignore_ascii_case(body.as_bytes()) {
        rules::HDR_VALUE_CASE
    } else {
        rules::HDR_MISMATCH
    };
    f.mismatch(rule, rules::HDR_ERR, 4, id, || name_message(raw, body));
}

fn name_message(raw: &[u8], body: &str) -> Message {
    Message::texts(
        &[
            "Header mismatch: Mcp-Name header '",
            "' does not match body value '",
            "'",
        ],
        &[&lossy(raw), body],
    )
}

/// A sentinel `Mcp-Name` value, decoded as the server must (`read_header_value`).
fn name_sentinel(raw: &[u8], body: &str, id: &RequestId, f: &mut Findings) {
    let mut buf = [0; 96];
    let differs = |f: &mut Findings| {
        f.mismatch(rules::HDR_MISMATCH, rules::HDR_ERR, 4, id, || {
            name_message(raw, body)
        })
    };
    let malformed = |f: &mut Findings| {
        f.mismatch(rules::B64_MALFORMED, rules::HDR_ERR, 4, id, || {
            Message::Fixed("Header mismatch: Mcp-Name carries a malformed base64 sentinel")
        })
    };
    match read_header_value(raw, &mut buf) {
        HeaderValue::Plain(v) if v == body.as_bytes() => overlap(v, f),
        HeaderValue::Plain(v) => name_mismatch(v, body, id, f),
        // (bytes equal to the body's text are UTF-8: only other bytes are looked at)
        HeaderValue::Strict(b) if b == body.as_bytes() => f.benign(rules::B64_DECODE),
        HeaderValue::Strict(b) if strict_malformed(b) => malformed(f),
        HeaderValue::Decoded(s) if s == body => f.benign(rules::B64_DECODE),
        HeaderValue::Lenient(s) if s == body => f.tolerate(mismatch_answer()),
        HeaderValue::Strict(_) | HeaderValue::Decoded(_) | HeaderValue::Lenient(_) => differs(f),
        HeaderValue::Malformed => malformed(f),
    }
}

/// Inputs that must not change the outcome (P-BENIGN).
#[cold]
#[inline(never)]
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
