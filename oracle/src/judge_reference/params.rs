//! `Mcp-Param-{Name}` validation for a `tools/call` of a declared tool
//! (streamable-http.mdx § Server Behavior for Custom Headers, § Server Validation).

use super::envelope::Request;
use super::headers::{invalid_chars, mismatch_answer};
use super::{header_mismatch, Findings};
use crate::annotations::{extract, Extracted, HeaderParam};
use crate::case::{Case, HeaderField};
use crate::encoding::{compare_param, DecodedValue, ParamMatch};
use crate::rules::{self, RuleId};
use crate::surface::ToolDecl;
use serde_json::Value;

/// Check every annotated parameter of `tool`; return the rule that carries the success
/// expectation when the call mirrors at least one value correctly.
pub(crate) fn check(
    case: &Case,
    tool: &ToolDecl,
    req: &Request,
    version_ok: bool,
    f: &mut Findings,
) -> Option<RuleId> {
    let Ok(params) = &tool.header_params else {
        // an invalid annotation: clients drop the tool; what the server checks is open
        f.tolerate(mismatch_answer());
        return None;
    };
    if tool.annotation_lookalike {
        // an `x-mcp-header` key in instance data: a server that reads it as an annotation
        // holds the tool invalid and may refuse its calls (D-49)
        f.tolerate(mismatch_answer());
    }
    let arguments = req.params.as_ref().and_then(|p| p.get("arguments"));
    if !version_ok {
        // the header rules of an unsupported version are unknown (AMB-38), but nothing
        // mandates checking the version first: a refusal this revision's rules would give
        // is acceptable too (PRECEDENCE.md row 15, D-20)
        let mut as_if = Findings::default();
        for p in params {
            one(case, p, extract(arguments, &p.path), &req.id, &mut as_if);
        }
        let answers = as_if.defects.into_iter().flat_map(|d| d.answers);
        for a in answers.chain(as_if.tolerated) {
            f.tolerate(a);
        }
        return None;
    }
    let mut carrier = None;
    for p in params {
        if let Some(rule) = one(case, p, extract(arguments, &p.path), &req.id, f) {
            // the most specific stimulus carries the success expectation: a null or absent
            // argument (header not expected) before a mirrored one
            let rank = |r: RuleId| match r {
                r if r == rules::PARAM_NULL => 0,
                r if r == rules::PARAM_ABSENT => 1,
                _ => 2,
            };
            if carrier.is_none_or(|c| rank(rule) < rank(c)) {
                carrier = Some(rule);
            }
        }
    }
    // Mcp-Param-* headers the tool does not declare: AMB-14 (ignore or reject)
    let declared = |n: &[u8]| {
        params
            .iter()
            .any(|p| n.eq_ignore_ascii_case(p.header_name().as_bytes()))
    };
    if case
        .headers
        .iter()
        .any(|(n, _)| n.len() > 10 && n[..10].eq_ignore_ascii_case(b"mcp-param-") && !declared(n))
    {
        f.tolerate(mismatch_answer());
    }
    carrier
}

fn one(
    case: &Case,
    p: &HeaderParam,
    body: Extracted<'_>,
    id: &Value,
    f: &mut Findings,
) -> Option<RuleId> {
    let name = p.header_name();
    let header = case.header(&name);
    let value = match (body, header) {
        (Extracted::Absent, HeaderField::Absent) => return Some(rules::PARAM_ABSENT),
        (Extracted::Null, HeaderField::Absent) => return Some(rules::PARAM_NULL),
        (Extracted::Absent | Extracted::Null, _) => {
            // AMB-02: a header with no body value to match
            f.tolerate(mismatch_answer());
            return None;
        }
        (Extracted::Value(v), HeaderField::Absent) if v.is_object() || v.is_array() => {
            // an object or array has no header text form (D-42): the arguments break the
            // schema, so refusing and serving (e.g. an `isError` result) are both right
            f.tolerate(mismatch_answer());
            return None;
        }
        (Extracted::Value(_), HeaderField::Absent) => {
            let msg = format!("{name} header is missing but arguments carry a value");
            f.defect(
                rules::PARAM_OMITTED,
                rules::PARAM_ERR,
                8,
                header_mismatch(id, &msg),
            );
            return None;
        }
        (Extracted::Value(_), HeaderField::Repeated) => {
            f.tolerate(mismatch_answer());
            return None;
        }
        (Extracted::Value(v), HeaderField::One(raw)) => (v, raw),
    };
    let (body, raw) = value;
    if invalid_chars(
        raw,
        rules::PARAM_INVALID_CHARS,
        rules::PARAM_ERR,
        &name,
        id,
        f,
    ) {
        return None;
    }
    let mismatch = |rule: RuleId, f: &mut Findings| {
        let msg = format!(
            "{name} header '{}' does not match body value {body}",
            String::from_utf8_lossy(raw)
        );
        f.defect(rule, rules::PARAM_ERR, 8, header_mismatch(id, &msg));
    };
    let (text, decoded) = match crate::encoding::sentinel::server_decode(raw) {
        DecodedValue::Plain(b) => (String::from_utf8_lossy(&b).into_owned(), false),
        DecodedValue::Decoded(s) => (s, true),
        DecodedValue::Lenient(s) => {
            // AMB-15: unpadded / URL-safe payloads may be accepted or refused
            if compare_param(&s, body) != ParamMatch::Mismatch {
                f.tolerate(mismatch_answer());
            } else {
                mismatch(rules::PARAM_VALIDATE, f);
            }
            return None;
        }
        DecodedValue::Malformed => {
            mismatch(rules::B64_MALFORMED, f);
            return None;
        }
    };
    match compare_param(&text, body) {
        ParamMatch::Equal if decoded => {
            f.benign(rules::B64_DECODE);
            None
        }
        ParamMatch::Equal => {
            // the overlap may be refused as a payload-less sentinel (D-12)
            if raw == crate::encoding::sentinel::OVERLAP.as_bytes() {
                f.tolerate(mismatch_answer());
            }
            Some(rules::PARAM_VALIDATE)
        }
        ParamMatch::NumericEqual => {
            // SHOULD compare numerically: a string comparison's refusal is a SHOULD finding
            f.tolerate(mismatch_answer());
            f.benign(rules::INT_NUMERIC);
            None
        }
        ParamMatch::SyntaxAmbiguous | ParamMatch::NotPrimitive => {
            f.tolerate(mismatch_answer());
            None
        }
        ParamMatch::Mismatch => {
            let rule = if body.is_boolean() && text.eq_ignore_ascii_case(&body.to_string()) {
                rules::BOOL_LOWER
            } else if !decoded && text.starts_with("=?") && text.ends_with("?=") {
                rules::B64_MARKERS
            } else {
                rules::PARAM_VALIDATE
            };
            mismatch(rule, f);
            None
        }
    }
}
