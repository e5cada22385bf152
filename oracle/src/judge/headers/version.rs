//! `MCP-Protocol-Version` against the version in `_meta` and the surface's versions: the
//! common case (the header repeats a listed version the body names) inline, every other
//! reading in a cold function.

use super::super::answers::{header_mismatch, mismatch_answer};
use super::super::findings::{is_blocking, Defect, Findings};
use super::super::header_values::invalid_chars;
use super::super::view::HeaderView;
use crate::case::HeaderField;
use crate::encoding::field_words::same_bytes;
use crate::legacy::{select_era, EraReason};
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules;
use crate::surface::Surface;
use crate::verdict::{
    Answer, Canonical, DataRule, NamedVersions, RejectData, Requested, StatusSet,
};

/// Whether `surface` lists `version` (compared as bytes: a listed version is text, so a
/// header value equal to one is that text).
fn supported(surface: &Surface, version: &[u8]) -> bool {
    surface
        .supported_versions
        .iter()
        .any(|v| same_bytes(v.as_bytes(), version))
}

/// The -32022 refusal naming `requested` of the request's versions, `header` and `body`
/// (empty when the request names none there), which become the Verdict's (`NamedVersions`).
fn upv(f: &mut Findings, requested: Requested, header: &str, body: &str) -> Answer {
    f.versions = Some(Box::new(NamedVersions {
        header: header.into(),
        body: body.into(),
    }));
    Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32022,
        data: DataRule::UnsupportedVersion { requested },
    }
}

fn upv_canonical(id: &RequestId, requested: &str) -> Canonical {
    Canonical::Reject {
        status: 400,
        code: Some(-32022),
        id: Some(id.clone()),
        data: Some(RejectData::UnsupportedVersion {
            requested: requested.into(),
        }),
        message: Message::Fixed("Unsupported protocol version"),
    }
}

pub(super) fn protocol_version(
    h: &HeaderView<'_>,
    surface: &Surface,
    dual_era: bool,
    id: &RequestId,
    body: Option<&str>,
    f: &mut Findings,
) {
    // a dual-era server serves a request that names a legacy version on its legacy path,
    // where this oracle's modern rules do not apply (D-33); «A request carrying modern
    // per-request `_meta` is served statelessly according to this revision»
    // (versioning.mdx): a body naming any other version keeps every header rule, whatever
    // the header says (D-36, narrowed). The decision is the dual-era reference's too
    // (`crate::legacy::select_era`, D-L10); an absent or unknown header is read below
    // (D-18, D-50), so only a named legacy version is the legacy path here.
    let legacy_path = || {
        select_era(false, body.map(str::as_bytes), &h.protocol_version, false)
            == EraReason::NamesLegacy
    };
    if dual_era && legacy_path() {
        f.anything_goes = true;
        return;
    }
    match h.protocol_version {
        HeaderField::One(raw) => one_version(raw, h, surface, dual_era, id, body, f),
        HeaderField::Absent => version_absent(surface, id, body, f),
        HeaderField::Repeated {
            first,
            other,
            count,
        } => {
            // the copies joined, as RFC 9110 §5.2 defines the field's value (D-09)
            if let Some(v) = super::repeated(first, other, count, body, f) {
                one_version(&v, h, surface, dual_era, id, body, f);
            }
        }
    }
}

/// The checks on one value of `MCP-Protocol-Version`.
fn one_version(
    header: &[u8],
    h: &HeaderView<'_>,
    surface: &Surface,
    dual_era: bool,
    id: &RequestId,
    body: Option<&str>,
    f: &mut Findings,
) {
    if dual_era && body.is_none() && !supported(surface, header) {
        // nothing in the body names a modern version: a dual-era server may answer an
        // "invalid or unsupported" version as 2025-11-25 does, 400 with any body (D-50)
        f.tolerate(Answer::HttpStatus {
            status: StatusSet::Exact(400),
        });
    }
    // (`mirrored_visible`: the reader saw no invalid character in any mirrored value)
    if !h.mirrored_visible
        && invalid_chars(
            header,
            rules::HDR_INVALID_CHARS,
            rules::HDR_ERR,
            &"MCP-Protocol-Version",
            id,
            f,
        )
    {
        return;
    }
    // (from here the header is ASCII, `invalid_chars` having refused every other byte, and
    // so its text; it is read as text only off the common path)
    match body {
        Some(b) if same_bytes(b.as_bytes(), header) => {
            if !supported(surface, header) {
                // (the body's text is the header's)
                version_unsupported(b, id, f);
            }
        }
        _ => version_not_in_body(header, surface, id, body, f),
    }
}

/// No `MCP-Protocol-Version` header.
#[cold]
#[inline(never)]
fn version_absent(surface: &Surface, id: &RequestId, body: Option<&str>, f: &mut Findings) {
    if surface.supports_headerless_clients() && body.is_none() {
        // MAY treat as 2025-03-26: the legacy path may answer anything (AMB-21);
        // not when the body's `_meta` names a version (D-18, D-36)
        f.anything_goes = true;
        return;
    }
    f.mismatch(rules::PV_MISSING, rules::HDR_ERR, 3, id, || {
        Message::Fixed("Header mismatch: MCP-Protocol-Version header is missing")
    });
    if let Some(b) = body.filter(|b| !surface.supports_version(b)) {
        // PRECEDENCE.md row 8
        let answer = upv(f, Requested::new(false, true), "", b);
        f.tolerate(answer);
    }
}

/// The header names a version the body repeats and the surface does not list.
#[cold]
#[inline(never)]
fn version_unsupported(h: &str, id: &RequestId, f: &mut Findings) {
    // (the body's version is the header's)
    let answer = upv(f, Requested::new(true, false), h, h);
    f.defect_lazy(
        rules::PV_UNSUPPORTED,
        rules::PV_UNSUPPORTED,
        3,
        answer,
        || upv_canonical(id, h),
    );
}

/// The header's version (ASCII, with no invalid characters) and a body that names none or
/// another one.
#[cold]
#[inline(never)]
fn version_not_in_body(
    header: &[u8],
    surface: &Surface,
    id: &RequestId,
    body: Option<&str>,
    f: &mut Findings,
) {
    // the header's text: a listed version's own (the common case), or its bytes read as
    // UTF-8 (ASCII: see `protocol_version`)
    let listed = surface
        .supported_versions
        .iter()
        .find(|v| same_bytes(v.as_bytes(), header));
    let (h, h_unsupported) = match listed {
        Some(v) => (v.as_str(), false),
        None => match std::str::from_utf8(header) {
            Ok(h) => (h, true),
            Err(_) => return,
        },
    };
    let Some(b) = body else {
        // AMB-02: no body value to compare with; -32602 (missing field) or -32020
        f.tolerate(mismatch_answer());
        if h_unsupported {
            let answer = upv(f, Requested::new(true, false), h, "");
            f.tolerate(answer);
        }
        return;
    };
    let b_unsupported = !surface.supports_version(b);
    // the unsupported ones of (header, body), in that order (named only when some is)
    let requested = Requested::new(h_unsupported, b_unsupported);
    // P-VERSION-FIRST: an unsupported header version goes first
    let priority = if h_unsupported { 3 } else { 4 };
    let mut d = Defect {
        reject: rules::PV_MISMATCH,
        shape: rules::HDR_ERR,
        blocking: is_blocking(rules::PV_MISMATCH),
        answers: smallvec::smallvec![mismatch_answer()],
        priority,
    };
    if h_unsupported {
        d.answers.insert(0, upv(f, requested, h, b));
    } else if b_unsupported {
        d.answers.push(upv(f, requested, h, b));
    }
    f.push(d, || {
        if h_unsupported {
            upv_canonical(id, h)
        } else {
            let msg = Message::texts(
                &[
                    "Header mismatch: MCP-Protocol-Version header '",
                    "' does not match _meta '",
                    "'",
                ],
                &[h, b],
            );
            header_mismatch(id, msg)
        }
    });
}
