//! The standard mirrored headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), the
//! version in `_meta`, the other required `_meta` fields, and the benign inputs that must
//! not change anything (session ids, `Last-Event-ID`, header-name case, padding).

use super::envelope::Request;
use super::{header_mismatch, Findings};
use crate::case::{
    trim_ows, Case, HeaderField, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION,
};
use crate::encoding::{decode_header_value, field_value_class, DecodedValue, FieldValueClass};
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, DataRule, StatusSet};
use serde_json::Value;

/// Published revisions before 2026-07-28 (the initialize-handshake era).
pub const LEGACY_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The headers whose values the server validates against the body.
pub(crate) const MIRRORED: [&str; 3] = ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"];

pub(crate) fn mismatch_answer() -> Answer {
    Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32020,
        data: DataRule::None,
    }
}

/// A refusal an HTTP parser makes before MCP code runs (control bytes in a field value):
/// accepted in place of 400/-32020 (DEVIATIONS.md D-05).
pub(crate) fn parser_refusal() -> Answer {
    // RFC 9110 §5.5 ("a recipient of CR, LF, or NUL within a field value MUST either reject
    // the message or replace each of those characters with SP"; other CTLs "are also
    // invalid") and §15.5.1 (400: "malformed request syntax"): 400, any body (D-05)
    Answer::HttpStatus {
        status: StatusSet::Exact(400),
    }
}

/// Header value classes that make a field invalid; records the defect and returns true.
pub(crate) fn invalid_chars(
    raw: &[u8],
    rule: RuleId,
    shape: RuleId,
    what: &str,
    id: &Value,
    f: &mut Findings,
) -> bool {
    match field_value_class(raw) {
        FieldValueClass::Valid => false,
        FieldValueClass::InternalTab => {
            // AMB-03: a valid field character that clients must nevertheless encode
            f.tolerate(mismatch_answer());
            false
        }
        class => {
            let msg = format!("{what} contains invalid characters");
            f.defect(rule, shape, 4, header_mismatch(id, &msg));
            if class == FieldValueClass::Control {
                if let Some(d) = f.defects.last_mut() {
                    d.answers.push(parser_refusal());
                }
            }
            true
        }
    }
}

pub(crate) fn check(case: &Case, surface: &Surface, req: &Request, f: &mut Findings) {
    benign_inputs(case, f);
    let id = &req.id;
    let meta = req
        .params
        .as_ref()
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object);
    let body_version = meta
        .and_then(|m| m.get(META_PROTOCOL_VERSION))
        .and_then(Value::as_str);
    let caps_ok = meta
        .and_then(|m| m.get(META_CLIENT_CAPABILITIES))
        .is_some_and(Value::is_object);

    protocol_version(case, surface, id, body_version, f);
    if meta
        .and_then(|m| m.get(META_CLIENT_INFO))
        .is_some_and(|info| !is_implementation(info))
    {
        // optional, but an `Implementation` requires `name` and `version`: refusing a
        // malformed one as invalid params is as right as ignoring it (DEVIATIONS.md D-47)
        f.tolerate(Answer::RpcError {
            status: StatusSet::Exact(400),
            code: -32602,
            data: DataRule::None,
        });
    }
    if body_version.is_none() || !caps_ok || req.params_malformed {
        f.defect(
            rules::META_REQUIRED,
            rules::META_REQUIRED,
            5,
            Canonical::Reject {
                status: 400,
                code: Some(-32602),
                id: Some(id.clone()),
                data: None,
                message: "Invalid params: _meta lacks a required io.modelcontextprotocol field"
                    .to_string(),
            },
        );
    }
    mcp_method(case, req, f);
    mcp_name(case, req, f);
}

/// The schema's `Implementation`: an object with string `name` and `version`.
fn is_implementation(v: &Value) -> bool {
    v.get("name").is_some_and(Value::is_string) && v.get("version").is_some_and(Value::is_string)
}

fn protocol_version(
    case: &Case,
    surface: &Surface,
    id: &Value,
    body: Option<&str>,
    f: &mut Findings,
) {
    let unsupported = |v: &str| !surface.supports_version(v);
    let upv = |requested: Vec<String>| Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32022,
        data: DataRule::UnsupportedVersion { requested },
    };
    let upv_canonical = |requested: &str| Canonical::Reject {
        status: 400,
        code: Some(-32022),
        id: Some(id.clone()),
        data: Some(serde_json::json!({
            "supported": surface.supported_versions,
            "requested": requested,
        })),
        message: "Unsupported protocol version".to_string(),
    };
    // a dual-era server serves a request that names a legacy version on its legacy path,
    // where this oracle's modern rules do not apply (D-33)
    let legacy = |v: &str| LEGACY_VERSIONS.contains(&v);
    let header_value = match case.header("MCP-Protocol-Version") {
        HeaderField::One(raw) => std::str::from_utf8(raw).ok(),
        _ => None,
    };
    // "A request carrying modern per-request `_meta` is served statelessly according to
    // this revision" (versioning.mdx): a body naming any other version keeps every header
    // rule, whatever the header says (D-36, narrowed 2026-12-03)
    let legacy_path = match body {
        Some(v) => legacy(v),
        None => header_value.is_some_and(legacy),
    };
    if surface.is_dual_era() && legacy_path {
        f.anything_goes = true;
        return;
    }
    let header = match case.header("MCP-Protocol-Version") {
        HeaderField::Absent => {
            if surface.supports_headerless_clients() && body.is_none() {
                // MAY treat as 2025-03-26: the legacy path may answer anything (AMB-21);
                // not when the body's `_meta` names a version (D-18, D-36, 2026-12-03)
                f.anything_goes = true;
                return;
            }
            f.defect(
                rules::PV_MISSING,
                rules::HDR_ERR,
                3,
                header_mismatch(id, "MCP-Protocol-Version header is missing"),
            );
            if let Some(b) = body.filter(|b| unsupported(b)) {
                // PRECEDENCE.md row 8
                f.tolerate(upv(vec![b.to_string()]));
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
    let supported = || std::str::from_utf8(header).is_ok_and(|v| !unsupported(v));
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
        "MCP-Protocol-Version",
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
                f.tolerate(upv(vec![h.to_string()]));
            }
        }
        Some(b) if b == h => {
            if unsupported(h) {
                let d = super::Defect {
                    reject: rules::PV_UNSUPPORTED,
                    shape: rules::PV_UNSUPPORTED,
                    answers: vec![upv(vec![h.to_string()])],
                    priority: 3,
                    canonical: upv_canonical(h),
                };
                f.defects.push(d);
            }
        }
        Some(b) => {
            let mut requested = Vec::new();
            for v in [h, b] {
                if unsupported(v) {
                    requested.push(v.to_string());
                }
            }
            let msg = format!("MCP-Protocol-Version header '{h}' does not match _meta '{b}'");
            let mut d = super::Defect {
                reject: rules::PV_MISMATCH,
                shape: rules::HDR_ERR,
                answers: vec![mismatch_answer()],
                priority: 4,
                canonical: header_mismatch(id, &msg),
            };
            if unsupported(h) {
                // P-VERSION-FIRST: an unsupported header version goes first
                d.priority = 3;
                d.canonical = upv_canonical(h);
                d.answers.insert(0, upv(requested.clone()));
            } else if !requested.is_empty() {
                d.answers.push(upv(requested));
            }
            f.defects.push(d);
        }
    }
}

/// A required mirrored header (`Mcp-Method`, `Mcp-Name`) as the server must read it: missing
/// is a defect, repeated is tolerated (AMB-20), invalid characters are a defect; otherwise
/// the value to compare with the body.
fn required_field<'c>(
    case: &'c Case,
    name: &str,
    id: &Value,
    f: &mut Findings,
) -> Option<&'c [u8]> {
    let raw = match case.header(name) {
        HeaderField::Absent => {
            let msg = format!("{name} header is missing");
            f.defect(
                rules::HDR_MISSING,
                rules::HDR_ERR,
                4,
                header_mismatch(id, &msg),
            );
            return None;
        }
        HeaderField::Repeated => {
            f.tolerate(mismatch_answer());
            return None;
        }
        HeaderField::One(raw) => raw,
    };
    let invalid = invalid_chars(raw, rules::HDR_INVALID_CHARS, rules::HDR_ERR, name, id, f);
    (!invalid).then_some(raw)
}

fn mcp_method(case: &Case, req: &Request, f: &mut Findings) {
    let id = &req.id;
    let Some(raw) = required_field(case, "Mcp-Method", id, f) else {
        return;
    };
    if raw == req.method.as_bytes() {
        return;
    }
    let header = String::from_utf8_lossy(raw);
    // name the most specific sentence the mismatch breaks
    let rule = if raw.eq_ignore_ascii_case(req.method.as_bytes()) {
        rules::HDR_VALUE_CASE
    } else if decode_header_value(raw) == DecodedValue::Decoded(req.method.clone()) {
        // only Mcp-Name and Mcp-Param-* permit the sentinel (AMB-17: literal comparison)
        rules::B64_ONLY_NAME_PARAM
    } else {
        rules::HDR_MISMATCH
    };
    let msg = format!(
        "Mcp-Method header '{header}' does not match body '{}'",
        req.method
    );
    f.defect(rule, rules::HDR_ERR, 4, header_mismatch(id, &msg));
}

/// The body field `Mcp-Name` mirrors for `method`, if the method has one.
pub fn name_source(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

fn mcp_name(case: &Case, req: &Request, f: &mut Findings) {
    let id = &req.id;
    let header = case.header("Mcp-Name");
    let Some(field) = name_source(&req.method) else {
        if header != HeaderField::Absent {
            // AMB-02: Mcp-Name on a method without params.name/uri is undefined
            f.tolerate(mismatch_answer());
        }
        return;
    };
    let body = req
        .params
        .as_ref()
        .and_then(|p| p.get(field))
        .and_then(Value::as_str);
    let Some(raw) = required_field(case, "Mcp-Name", id, f) else {
        return;
    };
    let Some(body) = body else {
        // no body value to compare (the params are invalid anyway): AMB-02
        return f.tolerate(mismatch_answer());
    };
    let msg = || {
        format!(
            "Mcp-Name header '{}' does not match body value '{body}'",
            String::from_utf8_lossy(raw)
        )
    };
    match crate::encoding::sentinel::server_decode(raw) {
        DecodedValue::Plain(v) if v == body.as_bytes() => {
            // the overlap may be refused as a payload-less sentinel (D-12)
            if v == crate::encoding::sentinel::OVERLAP.as_bytes() {
                f.tolerate(mismatch_answer());
            }
        }
        DecodedValue::Plain(v) => {
            let rule = if v.starts_with(b"=?") && v.ends_with(b"?=") {
                rules::B64_MARKERS
            } else if v.eq_ignore_ascii_case(body.as_bytes()) {
                rules::HDR_VALUE_CASE
            } else {
                rules::HDR_MISMATCH
            };
            f.defect(rule, rules::HDR_ERR, 4, header_mismatch(id, &msg()));
        }
        DecodedValue::Decoded(s) if s == body => f.benign(rules::B64_DECODE),
        DecodedValue::Lenient(s) if s == body => f.tolerate(mismatch_answer()),
        DecodedValue::Decoded(_) | DecodedValue::Lenient(_) => f.defect(
            rules::HDR_MISMATCH,
            rules::HDR_ERR,
            4,
            header_mismatch(id, &msg()),
        ),
        DecodedValue::Malformed => f.defect(
            rules::B64_MALFORMED,
            rules::HDR_ERR,
            4,
            header_mismatch(id, "Mcp-Name carries a malformed base64 sentinel"),
        ),
    }
}

/// Inputs that must not change the outcome (P-BENIGN).
fn benign_inputs(case: &Case, f: &mut Findings) {
    if case.header("Mcp-Session-Id") != HeaderField::Absent {
        f.benign(rules::BC_SESSION);
    }
    if case.header("Last-Event-ID") != HeaderField::Absent {
        f.benign(rules::BC_LAST_EVENT_ID);
    }
    for (name, value) in &case.headers {
        let mirrored = MIRRORED
            .iter()
            .find(|m| name.eq_ignore_ascii_case(m.as_bytes()))
            .map(|m| m.as_bytes());
        let is_param = name.len() > 10 && name[..10].eq_ignore_ascii_case(b"mcp-param-");
        if let Some(canonical_name) = mirrored {
            if name.as_slice() != canonical_name {
                f.benign(rules::HDR_NAME_CI);
            }
        } else if is_param && !name.starts_with(b"Mcp-Param-") {
            f.benign(rules::HDR_NAME_CI);
        }
        if (mirrored.is_some() || is_param) && trim_ows(value).len() != value.len() {
            f.benign(rules::HDR_OWS);
        }
    }
}
