//! The request rewrites on the standard mirrored headers (`MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name`): how a server that compares them wrongly, or not at all, would
//! read the request.

use super::super::dispatch::parse_call;
use super::super::response::Response;
use super::request::{
    conformant_value, is_mirrored, mismatch, one, reread_as, strip_non_ascii, MIRRORED,
};
use crate::case::{trim_ows, Case, HeaderField};
use crate::encoding::{decode_header_value, DecodedValue};
use crate::isolation::readings::{is_name_header, is_param_header, Reading};
use crate::surface::Surface;

pub(super) fn mcp_method_prefix(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let call = parse_call(&case.body);
    if let (HeaderField::One(raw), Some(c)) = (case.header("Mcp-Method"), &call) {
        let ns = |s: &[u8]| s.split(|b| *b == b'/').next().map(<[u8]>::to_vec);
        if raw != c.method.as_bytes() && ns(raw) == ns(c.method.as_bytes()) {
            case.set_header("Mcp-Method", Some(c.method.as_bytes()));
        }
    }
    None
}

pub(super) fn mcp_name_optional(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    if case.header("Mcp-Name") == HeaderField::Absent {
        if let Some(v) = conformant_value(case, surface, "Mcp-Name") {
            case.set_header("Mcp-Name", Some(&v));
        }
    }
    None
}

pub(super) fn hdr_non_ascii_stripped(case: &mut Case, _: &mut Surface) -> Option<Response> {
    strip_non_ascii(case, is_mirrored);
    None
}

pub(super) fn hdr_chars_unchecked(case: &mut Case, _: &mut Surface) -> Option<Response> {
    reread_as(case, Reading::Utf8, is_name_header);
    None
}

pub(super) fn hdr_latin1(case: &mut Case, _: &mut Surface) -> Option<Response> {
    reread_as(case, Reading::Latin1, is_name_header);
    None
}

pub(super) fn header_names_case_sensitive(case: &mut Case, _: &mut Surface) -> Option<Response> {
    case.headers.retain(|(n, _)| {
        let exact = MIRRORED.iter().any(|m| n.as_slice() == m.as_bytes());
        let odd_param = is_param_header(n) && !n.starts_with(b"Mcp-Param-");
        exact || !is_mirrored(n) && !odd_param
    });
    None
}

pub(super) fn mcp_name_case_insensitive(
    case: &mut Case,
    surface: &mut Surface,
) -> Option<Response> {
    if let (HeaderField::One(raw), Some(v)) = (
        case.header("Mcp-Name"),
        conformant_value(case, surface, "Mcp-Name"),
    ) {
        if raw != v.as_slice() && raw.eq_ignore_ascii_case(&v) {
            case.set_header("Mcp-Name", Some(&v));
        }
    }
    None
}

pub(super) fn ows_not_trimmed(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let padded = case
        .headers
        .iter()
        .any(|(n, v)| (is_mirrored(n) || is_param_header(n)) && trim_ows(v).len() != v.len());
    padded.then(|| mismatch(case, "header value has surrounding whitespace"))
}

pub(super) fn base64_method_decoded(case: &mut Case, _: &mut Surface) -> Option<Response> {
    if let Some(DecodedValue::Decoded(s)) = one(case, "Mcp-Method").map(|r| decode_header_value(&r))
    {
        case.set_header("Mcp-Method", Some(s.as_bytes()));
    }
    None
}

/// Keeps only the first field of each name `pick` selects, as a server reading headers into
/// a map that ignores later copies would.
fn first_copy_only(case: &mut Case, pick: impl Fn(&[u8]) -> bool) {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    case.headers.retain(|(n, _)| {
        if !pick(n) {
            return true;
        }
        let name = n.to_ascii_lowercase();
        let first = !seen.contains(&name);
        seen.push(name);
        first
    });
}

pub(super) fn repeated_name_first_copy(case: &mut Case, _: &mut Surface) -> Option<Response> {
    first_copy_only(case, |n| {
        n.eq_ignore_ascii_case(b"Mcp-Method") || n.eq_ignore_ascii_case(b"Mcp-Name")
    });
    None
}

pub(super) fn repeated_version_first_copy(case: &mut Case, _: &mut Surface) -> Option<Response> {
    first_copy_only(case, |n| n.eq_ignore_ascii_case(b"MCP-Protocol-Version"));
    None
}

pub(super) fn repeated_param_first_copy(case: &mut Case, _: &mut Surface) -> Option<Response> {
    first_copy_only(case, is_param_header);
    None
}
