//! `Mcp-Param-{Name}` validation for a `tools/call` of a declared tool
//! (streamable-http.mdx § Server Behavior for Custom Headers, § Server Validation).

use super::answers::mismatch_answer;
use super::findings::Findings;
use super::header_values::{
    invalid_chars, lossy, overlap, read_header_value, strict_malformed, HeaderValue,
};
use super::param_path::{decoy, Decoy};
use super::read::arguments::{ArgumentReader, Leaf, RawLeaf};
use super::view::{param_suffix_is, HeaderView, RequestBody};
use crate::annotations::HeaderParam;
use crate::case::{combined, Combined, HeaderField};
use crate::encoding::ParamMatch;
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules::{self, RuleId};
use crate::surface::ToolDecl;

/// Check every annotated parameter of `tool`; return the rule that carries the success
/// expectation when the call mirrors at least one value correctly.
pub(crate) fn check(
    h: &HeaderView<'_>,
    tool: &ToolDecl,
    req: &RequestBody<'_>,
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
    // the members of the arguments, read once for all the parameters
    let arguments = ArgumentReader::new(req.params.as_ref().and_then(|p| p.arguments));
    // each parameter's field (as `HeaderView::param` gives it), in one pass over the fields
    // (on the stack for nearly every tool: a `SmallVec` of them was built and then moved)
    let mut inline = [HeaderField::Absent; INLINE_FIELDS];
    let mut spilled = Vec::new();
    let fields: &mut [HeaderField<'_>] = match inline.get_mut(..params.len()) {
        Some(fields) => fields,
        None => {
            spilled.resize(params.len(), HeaderField::Absent);
            &mut spilled
        }
    };
    let undeclared = declared_fields(h, params, fields);
    if !version_ok {
        as_if_supported(params, fields, &arguments, req, h.mirrored_visible, f);
        return None;
    }
    let mut carrier = None;
    for (p, &field) in params.iter().zip(fields.iter()) {
        let mut held = RawLeaf::Absent;
        let body = arguments.value_at(&p.path, &mut held);
        if let Some(rule) = one(field, p, body, &arguments, &req.id, h.mirrored_visible, f) {
            // the most specific stimulus carries the success expectation: a nested value
            // read at its exact path beside a decoy of another value (D-180), then a null or
            // absent argument (header not expected), then a mirrored one
            let rank = |r: RuleId| match r {
                r if r == rules::PARAM_PATH => 0,
                r if r == rules::PARAM_NULL => 1,
                r if r == rules::PARAM_ABSENT => 2,
                _ => 3,
            };
            if carrier.is_none_or(|c| rank(rule) < rank(c)) {
                carrier = Some(rule);
            }
        }
    }
    // Mcp-Param-* headers the tool does not declare: AMB-14 (ignore or reject)
    if undeclared {
        f.tolerate(mismatch_answer());
    }
    carrier
}

/// The fields of the declared parameters are on the stack up to this many (nearly every tool).
const INLINE_FIELDS: usize = 8;

/// Each declared parameter's `Mcp-Param-*` field (as `HeaderView::param` gives it), written
/// into `fields` (one `Absent` per parameter; filled in place, not returned, as it is large),
/// and whether some `Mcp-Param-*` field names no declared parameter.
fn declared_fields<'a>(
    h: &HeaderView<'a>,
    params: &[HeaderParam],
    fields: &mut [HeaderField<'a>],
) -> bool {
    let mut undeclared = false;
    for &(n, v) in &h.params {
        let mut declared = false;
        for (p, field) in params.iter().zip(fields.iter_mut()) {
            // (every name here is `Mcp-Param-*` already: only the rest is compared)
            if param_suffix_is(n, &p.header) {
                declared = true;
                *field = field.and_another(v);
            }
        }
        undeclared |= !declared;
    }
    undeclared
}

/// The header rules of an unsupported version are unknown (AMB-38), but nothing mandates
/// checking the version first: a refusal this revision's rules would give is acceptable too
/// (PRECEDENCE.md row 15, D-20).
#[cold]
#[inline(never)]
fn as_if_supported(
    params: &[HeaderParam],
    fields: &[HeaderField<'_>],
    arguments: &ArgumentReader<'_>,
    req: &RequestBody<'_>,
    visible: bool,
    f: &mut Findings,
) {
    let mut as_if = Findings::default();
    for (p, &field) in params.iter().zip(fields) {
        let mut held = RawLeaf::Absent;
        let body = arguments.value_at(&p.path, &mut held);
        one(field, p, body, arguments, &req.id, visible, &mut as_if);
    }
    // (read in place: moving the defects out would copy each whole)
    let answers = as_if.defects.iter().flat_map(|d| &d.answers);
    for a in answers.chain(&as_if.tolerated) {
        f.tolerate(*a);
    }
}

fn one(
    header: HeaderField<'_>,
    p: &HeaderParam,
    body: Leaf<'_>,
    arguments: &ArgumentReader<'_>,
    id: &RequestId,
    visible: bool,
    f: &mut Findings,
) -> Option<RuleId> {
    // the full header name, written out only into the message of a defect
    let name = ParamName(&p.header);
    let value = match (body, header) {
        (Leaf::Absent, HeaderField::Absent) => return Some(rules::PARAM_ABSENT),
        (Leaf::Null, HeaderField::Absent) => return Some(rules::PARAM_NULL),
        (Leaf::Absent | Leaf::Null, _) => {
            // AMB-02: a header with no body value to match
            f.tolerate(mismatch_answer());
            return None;
        }
        (v, HeaderField::Absent) if v.is_container() => {
            // an object or array has no header text form (D-42): the arguments break the
            // schema, so refusing and serving (e.g. an `isError` result) are both right
            f.tolerate(mismatch_answer());
            return None;
        }
        (_, HeaderField::Absent) => {
            f.mismatch(rules::PARAM_OMITTED, rules::PARAM_ERR, 8, id, || {
                Message::texts(
                    &[
                        "Header mismatch: Mcp-Param-",
                        " header is missing but arguments carry a value",
                    ],
                    &[name.0],
                )
            });
            return None;
        }
        (
            v,
            HeaderField::Repeated {
                first,
                other,
                count,
            },
        ) => {
            // the copies joined, as RFC 9110 §5.2 defines the field's value, compared as if
            // sent once; a refusal is always admitted (DEVIATIONS.md D-09)
            f.tolerate(mismatch_answer());
            let text = match v {
                Leaf::Text(t) => Some(t.as_bytes()),
                _ => None,
            };
            return match combined(first, other, count, text) {
                Combined::MayMatch => None,
                Combined::Value(joined) => {
                    one(HeaderField::One(&joined), p, v, arguments, id, visible, f)
                }
            };
        }
        (v, HeaderField::One(raw)) => (v, raw),
    };
    let (body, raw) = value;
    // (`visible`: the reader saw no invalid character in any `Mcp-Param-*` value)
    if !visible
        && invalid_chars(
            raw,
            rules::PARAM_INVALID_CHARS,
            rules::PARAM_ERR,
            &name,
            id,
            f,
        )
    {
        return None;
    }
    let mismatch = |rule: RuleId, f: &mut Findings| {
        f.mismatch(rule, rules::PARAM_ERR, 8, id, || {
            Message::parts(
                &[
                    "Header mismatch: ",
                    " header '",
                    "' does not match body value ",
                    "",
                ],
                &[&name, &lossy(raw), &body],
            )
        });
    };
    let mut buf = [0; 96];
    let value = read_header_value(raw, &mut buf);
    // the header's bytes as the server compares them (a plain value passed `invalid_chars`,
    // so it is ASCII, and its bytes are its text)
    let (header, decoded): (&[u8], bool) = match &value {
        HeaderValue::Plain(b) => (b, false),
        HeaderValue::Strict(b) => (b, true),
        HeaderValue::Decoded(s) => (s.as_bytes(), true),
        HeaderValue::Lenient(s) => {
            // AMB-15: unpadded / URL-safe payloads may be accepted or refused
            if body.compare(s.as_bytes()) != ParamMatch::Mismatch {
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
    let found = body.compare(header);
    // (bytes equal to the body value's text are UTF-8: only the others are looked at)
    if found != ParamMatch::Equal && matches!(value, HeaderValue::Strict(b) if strict_malformed(b))
    {
        mismatch(rules::B64_MALFORMED, f);
        return None;
    }
    match found {
        ParamMatch::Equal if decoded => {
            f.benign(rules::B64_DECODE);
            None
        }
        ParamMatch::Equal => {
            overlap(raw, f);
            // a nested value whose decoy differs: a server reading the wrong path refuses
            // this call (D-180)
            if decoy(arguments, &p.path, header) == Decoy::Differs {
                Some(rules::PARAM_PATH)
            } else {
                Some(rules::PARAM_VALIDATE)
            }
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
            let rule = if body
                .boolean_text()
                .is_some_and(|b| header.eq_ignore_ascii_case(b.as_bytes()))
            {
                rules::BOOL_LOWER
            } else if !decoded && header.starts_with(b"=?") && header.ends_with(b"?=") {
                rules::B64_MARKERS
            } else if decoy(arguments, &p.path, header) == Decoy::Equal {
                // the value at a shorter path of the same keys: read at the wrong path (D-180)
                rules::PARAM_PATH
            } else {
                rules::PARAM_VALIDATE
            };
            mismatch(rule, f);
            None
        }
    }
}

/// `Mcp-Param-{header}` as text, for messages.
struct ParamName<'a>(&'a str);

impl std::fmt::Display for ParamName<'_> {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (as `write!(out, "Mcp-Param-{}", ..)` writes it, without the formatting machinery)
        out.write_str("Mcp-Param-")?;
        out.write_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotations::ParamKind;
    use crate::case::Case;
    use crate::judge::read::read_fast;

    /// `declared_fields` (one pass for all parameters) gives each parameter the field
    /// `HeaderView::param` (one lookup per parameter) gives it, and says whether a field names
    /// no declared parameter.
    #[test]
    fn declared_fields_agree_with_one_lookup_per_parameter() {
        let param = |header: &str| HeaderParam {
            header: header.into(),
            path: vec![header.into()],
            kind: ParamKind::String,
        };
        let params = [param("Region"), param("flag"), param("Opt"), param("X")];
        let cases = [
            vec![("Mcp-Param-Region", "r"), ("mcp-param-FLAG", "f")],
            vec![
                ("Mcp-Param-Region", "a"),
                ("MCP-PARAM-region", "b"),
                ("Mcp-Param-X", "x"),
            ],
            vec![("Mcp-Param-Other", "o"), ("Mcp-Param-Opt", "")],
            vec![("Mcp-Param-Flags", "f"), ("Mcp-Param-", "nothing")],
            vec![],
        ];
        for headers in cases {
            let case = Case::post("/mcp", &headers, "");
            let mut parsed = None;
            let view = read_fast(&case, &mut parsed);
            let h = &view.headers;
            let mut fields = vec![HeaderField::Absent; params.len()];
            let undeclared = declared_fields(h, &params, &mut fields);
            for (p, field) in params.iter().zip(&fields) {
                assert_eq!(*field, h.param(&p.header), "{} in {headers:?}", p.header);
            }
            let names_other = h
                .params
                .iter()
                .any(|(n, _)| !params.iter().any(|p| param_suffix_is(n, &p.header)));
            assert_eq!(undeclared, names_other, "{headers:?}");
        }
    }
}
