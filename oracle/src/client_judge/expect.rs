//! What a conforming client sends for each annotated parameter of one call: the header text,
//! or no header (streamable-http.mdx § Client Behavior, steps 3 and 4, and the presence table
//! of § Server Behavior for Custom Headers).

use crate::annotations::{extract, header_text, Extracted, HeaderParam, ParamKind};
use serde_json::Value;

/// Whether and what the client sends for one annotation.
#[derive(Clone, Debug, PartialEq)]
pub enum Presence {
    /// No value at the path: the header MUST be omitted (CLIENT-PARAM-ABSENT-OMIT).
    Absent,
    /// The value is `null`: the header MUST be omitted (CLIENT-PARAM-NULL-OMIT).
    Null,
    /// A primitive value: the header MUST be sent carrying `text` (before encoding).
    Value { text: String, body: Value },
    /// An object or array where the schema declares a primitive: the spec defines no text
    /// form, so anything (including no header) is accepted (DEVIATIONS.md D-42); likewise
    /// a non-integral or float-only number beyond the JavaScript safe range for an integer
    /// parameter (no exact "decimal string representation" of what the caller wrote). An
    /// exact integer beyond the range is a present value like any other: "conforming
    /// clients MUST mirror the designated parameter values" (D-46, narrowed).
    Unjudged,
}

/// One annotated parameter of a call and what is expected for it.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamExpectation {
    /// `Mcp-Param-{header}` as the annotation spells it (compared case-insensitively).
    pub header: String,
    /// The declared type (chooses the integer / boolean readings of a sent value).
    pub kind: ParamKind,
    pub presence: Presence,
}

/// The expectations for a call with `arguments` (the body's `params.arguments`, `None` when
/// the member is missing) of a tool whose valid annotations are `params`.
pub fn param_expectations(
    params: &[HeaderParam],
    arguments: Option<&Value>,
) -> Vec<ParamExpectation> {
    params
        .iter()
        .map(|p| ParamExpectation {
            header: p.header_name(),
            kind: p.kind,
            presence: match extract(arguments, &p.path) {
                Extracted::Absent => Presence::Absent,
                Extracted::Null => Presence::Null,
                Extracted::Value(v)
                    if p.kind == ParamKind::Integer && !is_safe_number(v) && !is_exact_int(v) =>
                {
                    Presence::Unjudged
                }
                Extracted::Value(v) => match header_text(v) {
                    Some(text) => Presence::Value {
                        text,
                        body: v.clone(),
                    },
                    None => Presence::Unjudged,
                },
            },
        })
        .collect()
}

/// A JSON integer serde holds exactly (its decimal text is the caller's).
fn is_exact_int(v: &Value) -> bool {
    v.is_i64() || v.is_u64()
}

/// A number within −(2^53−1)..=2^53−1 (non-numbers are judged by their text form).
fn is_safe_number(v: &Value) -> bool {
    let max = crate::annotations::MAX_SAFE_INTEGER;
    match v {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => (-max..=max).contains(&i),
            (_, Some(u), _) => u <= max as u64,
            (_, _, Some(f)) => f.abs() <= max as f64,
            _ => false,
        },
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotations::tool_header_params;
    use serde_json::json;

    #[test]
    fn presence_follows_the_table() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string", "x-mcp-header": "A"},
            "n": {"type": "object", "properties": {"b": {"type": "integer", "x-mcp-header": "B"}}},
            "c": {"type": "boolean", "x-mcp-header": "C"}}});
        let params = tool_header_params(&schema).expect("valid");
        let got = param_expectations(&params, Some(&json!({"a": null, "n": {"b": 7}})));
        let by = |h: &str| {
            got.iter()
                .find(|e| e.header == h)
                .map(|e| e.presence.clone())
        };
        assert_eq!(by("Mcp-Param-A"), Some(Presence::Null));
        assert_eq!(
            by("Mcp-Param-B"),
            Some(Presence::Value {
                text: "7".into(),
                body: json!(7)
            })
        );
        assert_eq!(by("Mcp-Param-C"), Some(Presence::Absent));
        // an exact integer beyond the safe range is still mirrored (D-46); a float is not
        let big = param_expectations(&params, Some(&json!({"n": {"b": 9007199254740992_i64}})));
        assert_eq!(
            big[1].presence,
            Presence::Value {
                text: "9007199254740992".into(),
                body: json!(9007199254740992_i64)
            }
        );
        let float = param_expectations(&params, Some(&json!({"n": {"b": 1.0e300}})));
        assert_eq!(float[1].presence, Presence::Unjudged);
        let none = param_expectations(&params, None);
        assert!(none.iter().all(|e| e.presence == Presence::Absent));
    }
}
