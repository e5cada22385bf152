//! `Mcp-Param-{Name}` validation for a `tools/call` of a declared tool
//! (streamable-http.mdx § Server Behavior for Custom Headers, § Server Validation).

use super::envelope::{Arguments, Request};
use super::header_index::{is_param_name, is_param_named, param_field};
use super::headers::{invalid_chars, mismatch_answer, read_header_value, HeaderValue};
use super::scan::{self, Kind};
use super::Findings;
use crate::annotations::{extract, Extracted, HeaderParam};
use crate::case::{Case, HeaderField};
use crate::encoding::{compare_param, ParamMatch};
use crate::rules::{self, RuleId};
use crate::surface::ToolDecl;
use serde_json::Value;
use std::borrow::Cow;

/// Check every annotated parameter of `tool`; return the rule that carries the success
/// expectation when the call mirrors at least one value correctly.
pub(crate) fn check(
    case: &Case,
    tool: &ToolDecl,
    req: &Request<'_>,
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
    let arguments = req.params.and_then(|p| p.arguments());
    // the members of the arguments, read once for all the parameters
    let index = match arguments {
        Some(Arguments::Raw(text)) => ArgIndex::new(text),
        _ => ArgIndex::new("null"),
    };
    if !version_ok {
        // the header rules of an unsupported version are unknown (AMB-38), but nothing
        // mandates checking the version first: a refusal this revision's rules would give
        // is acceptable too (PRECEDENCE.md row 15, D-20)
        let mut as_if = Findings::default();
        for p in params {
            with_body(arguments, &index, p, |body| {
                one(case, p, body, &req.id, &mut as_if)
            });
        }
        let answers = as_if.defects.into_iter().flat_map(|d| d.answers);
        for a in answers.chain(as_if.tolerated) {
            f.tolerate(a);
        }
        return None;
    }
    let mut carrier = None;
    for p in params {
        let rule = with_body(arguments, &index, p, |body| one(case, p, body, &req.id, f));
        if let Some(rule) = rule {
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
    let declared = |n: &[u8]| params.iter().any(|p| is_param_named(n, &p.header));
    if case
        .headers
        .iter()
        .any(|(n, _)| is_param_name(n) && !declared(n))
    {
        f.tolerate(mismatch_answer());
    }
    carrier
}

/// Call `k` with the body value of parameter `p`, read from the parsed tree or the text.
fn with_body<R>(
    arguments: Option<Arguments<'_>>,
    index: &ArgIndex<'_>,
    p: &HeaderParam,
    k: impl FnOnce(Extracted<'_>) -> R,
) -> R {
    match arguments {
        None => k(Extracted::Absent),
        Some(Arguments::Parsed(v)) => k(extract(Some(v), &p.path)),
        Some(Arguments::Raw(_)) => match raw_extract(index, &p.path) {
            RawLeaf::Absent => k(Extracted::Absent),
            RawLeaf::Null => k(Extracted::Null),
            RawLeaf::Value(v) => k(Extracted::Value(&v)),
        },
    }
}

fn one(
    case: &Case,
    p: &HeaderParam,
    body: Extracted<'_>,
    id: &Value,
    f: &mut Findings,
) -> Option<RuleId> {
    // the full header name, written out only into the message of a defect
    let name = ParamName(&p.header);
    let header = param_field(case, &p.header);
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
            f.mismatch(rules::PARAM_OMITTED, rules::PARAM_ERR, 8, id, || {
                format!("{name} header is missing but arguments carry a value")
            });
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
        f.mismatch(rule, rules::PARAM_ERR, 8, id, || {
            format!(
                "{name} header '{}' does not match body value {body}",
                String::from_utf8_lossy(raw)
            )
        });
    };
    let (text, decoded): (Cow<'_, str>, bool) = match read_header_value(raw) {
        HeaderValue::Plain(b) => (String::from_utf8_lossy(b), false),
        HeaderValue::Decoded(s) => (Cow::Owned(s), true),
        HeaderValue::Lenient(s) => {
            // AMB-15: unpadded / URL-safe payloads may be accepted or refused
            if compare_param(&s, body) != ParamMatch::Mismatch {
                f.tolerate(mismatch_answer());
            } else {
                mismatch(rules::PARAM_VALIDATE, f);
            }
            return None;
        }
        HeaderValue::Malformed => {
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
            super::headers::overlap(raw, f);
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

/// `extract` over validated JSON text: the value at `path` as an owned `Value` (only the
/// leaf is parsed).
enum RawLeaf {
    Absent,
    Null,
    Value(Value),
}

fn raw_extract(arguments: &ArgIndex<'_>, path: &[String]) -> RawLeaf {
    let Some((first, rest)) = path.split_first() else {
        return leaf(arguments.text);
    };
    let Some(mut cur) = arguments.get(first) else {
        return RawLeaf::Absent;
    };
    for key in rest {
        // `Value::get` with a key finds members of objects only
        match scan::get(cur, key) {
            Some(v) => cur = v,
            None => return RawLeaf::Absent,
        }
    }
    leaf(cur)
}

/// A validated value as `extract` sees it.
fn leaf(text: &str) -> RawLeaf {
    let value = match scan::kind(text) {
        Kind::Null => return RawLeaf::Null,
        Kind::Bool => Value::Bool(text == "true"),
        Kind::String => match scan::as_str(text) {
            Some(s) => Value::String(s.into_owned()),
            None => return RawLeaf::Absent,
        },
        // validated text of the scanner's subset: serde_json parses it the same way it
        // would inside the whole body; a failure cannot happen, but would read as absent
        _ => match serde_json::from_str(text) {
            Ok(v) => v,
            Err(_) => return RawLeaf::Absent,
        },
    };
    RawLeaf::Value(value)
}

/// The members of a validated arguments object, read once (at most `ARG_SLOTS`; a larger
/// object is searched in place).
struct ArgIndex<'a> {
    text: &'a str,
    members: [(&'a str, &'a str); ARG_SLOTS],
    len: usize,
    overflow: bool,
}

const ARG_SLOTS: usize = 16;

impl<'a> ArgIndex<'a> {
    fn new(text: &'a str) -> ArgIndex<'a> {
        let mut index = ArgIndex {
            text,
            members: [("", ""); ARG_SLOTS],
            len: 0,
            overflow: false,
        };
        for m in scan::members(text) {
            if index.len == ARG_SLOTS {
                index.overflow = true;
                break;
            }
            index.members[index.len] = m;
            index.len += 1;
        }
        index
    }

    /// Like `scan::get`: the last member named `key`.
    fn get(&self, key: &str) -> Option<&'a str> {
        if self.overflow {
            return scan::get(self.text, key);
        }
        self.members[..self.len]
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }
}

/// `Mcp-Param-{header}` as text, for messages.
struct ParamName<'a>(&'a str);

impl std::fmt::Display for ParamName<'_> {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(out, "Mcp-Param-{}", self.0)
    }
}
