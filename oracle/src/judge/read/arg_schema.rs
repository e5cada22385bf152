//! Tool arguments against the tool's `inputSchema`, read in the validated text the scanner
//! kept (TOOLS-VALIDATE-INPUTS): the judge asks on every `tools/call`, and building a tree
//! of the arguments cost it more allocations than all its rules. This reads the keywords
//! `content`'s validator implements the way it does, and gives up (`None`: the caller parses
//! and asks `content::tool_inputs_invalid`) on the ones it does not read here (`enum`,
//! `const`, `allOf`, `anyOf`, `items`, escaped or repeated keys), so both readings agree.

use super::validated::{kind, members, Kind};
use serde_json::Value;

/// Subschemas deeper than this are not checked (as `content::output`).
const DEPTH_LIMIT: usize = 32;

/// Whether the arguments text (validated JSON; `None`: no `arguments`, read as `{}`) breaks
/// `schema`; `None` when a keyword it does not read here decides.
pub(crate) fn inputs_invalid(text: Option<&str>, schema: &Value) -> Option<bool> {
    let text = text.unwrap_or("{}");
    if kind(text) != Kind::Object {
        return Some(true);
    }
    valid(text, schema, 0).map(|ok| !ok)
}

/// `content::output::type_matches` on a validated value's text.
fn type_matches(v: &str, t: &str) -> bool {
    match (t, kind(v)) {
        ("null", k) => k == Kind::Null,
        ("boolean", k) => k == Kind::Bool,
        ("object", k) => k == Kind::Object,
        ("array", k) => k == Kind::Array,
        ("string", k) => k == Kind::String,
        ("number", k) => k == Kind::Number,
        ("integer", Kind::Number) => {
            !v.contains(['.', 'e', 'E']) || v.parse::<f64>().is_ok_and(|f| f.fract() == 0.0)
        }
        ("integer", _) => false,
        _ => true,
    }
}

/// The keywords this reader looks at, found in one pass over a schema's members: a schema
/// has a handful, and a dozen hashed look-ups per subschema (serde_json's map hashes every
/// key) were a third of the judge's time on `tools/call` (docs/PERFORMANCE.md).
#[derive(Default)]
struct Keywords<'a> {
    /// `enum`, `const`, `allOf` or `anyOf`: decided by the tree reading.
    unread: bool,
    ty: Option<&'a Value>,
    items: Option<&'a Value>,
    minimum: Option<&'a Value>,
    maximum: Option<&'a Value>,
    required: Option<&'a Value>,
    properties: Option<&'a Value>,
    pattern_properties: bool,
    additional: Option<&'a Value>,
}

impl<'a> Keywords<'a> {
    fn of(s: &'a serde_json::Map<String, Value>) -> Self {
        let mut k = Keywords::default();
        for (name, v) in s {
            match name.as_str() {
                "enum" | "const" | "allOf" | "anyOf" => k.unread = true,
                "type" => k.ty = Some(v),
                "items" => k.items = Some(v),
                "minimum" => k.minimum = Some(v),
                "maximum" => k.maximum = Some(v),
                "required" => k.required = Some(v),
                "properties" => k.properties = Some(v),
                "patternProperties" => k.pattern_properties = true,
                "additionalProperties" => k.additional = Some(v),
                _ => {}
            }
        }
        k
    }
}

/// `props.get(key)` by a linear pass for the small maps schemas have (no hashing).
fn property<'a>(props: &'a serde_json::Map<String, Value>, key: &str) -> Option<&'a Value> {
    if props.len() <= 16 {
        props
            .iter()
            .find(|(k, _)| k.as_str() == key)
            .map(|(_, v)| v)
    } else {
        props.get(key)
    }
}

fn valid(v: &str, schema: &Value, depth: usize) -> Option<bool> {
    let s = match schema {
        Value::Bool(b) => return Some(*b),
        Value::Object(s) => s,
        _ => return Some(true),
    };
    if depth > DEPTH_LIMIT {
        return Some(true);
    }
    let k = Keywords::of(s);
    if k.unread {
        return None;
    }
    let type_ok = match k.ty {
        Some(Value::String(t)) => type_matches(v, t),
        Some(Value::Array(ts)) => ts
            .iter()
            .any(|t| t.as_str().is_none_or(|t| type_matches(v, t))),
        _ => true,
    };
    let object_ok = match kind(v) {
        Kind::Object => object_valid(v, &k, depth)?,
        Kind::Array if k.items.is_some_and(|i| i.is_object() || i.is_boolean()) => return None,
        _ => true,
    };
    let number_ok = kind(v) != Kind::Number || {
        let n = v.parse::<f64>().ok()?;
        k.minimum.and_then(Value::as_f64).is_none_or(|m| n >= m)
            && k.maximum.and_then(Value::as_f64).is_none_or(|m| n <= m)
    };
    Some(type_ok && object_ok && number_ok)
}

/// `required`, `properties` and `additionalProperties` on an object's text.
/// Members kept on the stack by [`object_valid`]; an object with more is read by rescanning.
const FEW_MEMBERS: usize = 16;

fn object_valid(v: &str, s: &Keywords<'_>, depth: usize) -> Option<bool> {
    // the members read once into a stack array: each rescan of the text re-reads every value
    let mut few: [(&str, &str); FEW_MEMBERS] = [("", ""); FEW_MEMBERS];
    let mut n = 0;
    for (k, x) in members(v) {
        if n == FEW_MEMBERS {
            return object_valid_rescanning(v, s, depth);
        }
        // a key with an escape, or a key given twice (a tree keeps the last), is read by the tree
        if k.contains('\\') || few[..n].iter().any(|(seen, _)| *seen == k) {
            return None;
        }
        few[n] = (k, x);
        n += 1;
    }
    let few = &few[..n];
    let present = |key: &str| few.iter().any(|(k, _)| *k == key);
    object_members_valid(s, few.iter().copied(), present, depth)
}

/// [`object_valid`] for an object of more than [`FEW_MEMBERS`] members.
fn object_valid_rescanning(v: &str, s: &Keywords<'_>, depth: usize) -> Option<bool> {
    let mut n = 0;
    for (i, (k, _)) in members(v).enumerate() {
        if k.contains('\\') || members(v).skip(i + 1).any(|(later, _)| later == k) {
            return None;
        }
        n += 1;
    }
    let present = |key: &str| members(v).any(|(k, _)| k == key);
    object_members_valid(s, members(v).take(n), present, depth)
}

/// `required`, `properties`, `patternProperties` and `additionalProperties` over an object's
/// members (unique keys without escapes).
fn object_members_valid<'v>(
    s: &Keywords<'_>,
    all: impl Iterator<Item = (&'v str, &'v str)>,
    present: impl Fn(&str) -> bool,
    depth: usize,
) -> Option<bool> {
    let required_ok = s
        .required
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .all(|k| k.as_str().is_none_or(&present));
    let props = s.properties.and_then(Value::as_object);
    let mut members_ok = true;
    for (k, x) in all {
        let ok = match props.and_then(|p| property(p, k)) {
            Some(sub) => valid(x, sub, depth + 1)?,
            None if s.pattern_properties => true,
            None => match s.additional {
                Some(a) => valid(x, a, depth + 1)?,
                None => true,
            },
        };
        members_ok &= ok;
    }
    Some(required_ok && members_ok)
}

/// `content::prompt_args_invalid` on the validated text of `arguments`: no object, or a
/// member whose value is not a string.
pub(crate) fn prompt_args_invalid(text: &str) -> bool {
    kind(text) != Kind::Object || members(text).any(|(_, v)| kind(v) != Kind::String)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Where the text reading decides, it agrees with the tree reading.
    #[test]
    fn the_text_reading_agrees_with_the_tree_reading() {
        let schemas = [
            json!({"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}),
            json!({"type": "object", "properties": {"to": {"type": "integer", "minimum": 1, "maximum": 5}}}),
            json!({"type": "object", "properties": {"t": {"type": "object", "properties": {"r": {"type": "string"}}}}, "additionalProperties": false}),
            json!({"type": "object", "properties": {"e": {"enum": [1, 2]}}}),
            json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}}),
        ];
        let args = [
            "{}",
            r#"{"location":"x"}"#,
            r#"{"location":7}"#,
            r#"{"to":3}"#,
            r#"{"to":3.0}"#,
            r#"{"to":9}"#,
            r#"{"to":"3"}"#,
            r#"{"t":{"r":"x"}}"#,
            r#"{"t":{"r":1}}"#,
            r#"{"x":1}"#,
            r#"{"e":3}"#,
            r#"{"a":["x"]}"#,
            r#"{"a":[1]}"#,
            r#"{"k":1,"k":"x"}"#,
            r#"{"l\u006fcation":"x"}"#,
            "[]",
            "null",
            r#"{"to":1e0}"#,
            r#"{"to":1.5}"#,
        ];
        for s in &schemas {
            for a in args {
                let tree: Value = serde_json::from_str(a).expect("test JSON");
                let by_tree = crate::content::tool_inputs_invalid(Some(&tree), s);
                if let Some(by_text) = inputs_invalid(Some(a), s) {
                    assert_eq!(by_text, by_tree, "{a} against {s}");
                }
            }
        }
        assert_eq!(inputs_invalid(None, &schemas[0]), Some(true));
        assert_eq!(inputs_invalid(Some(r#"{"e":3}"#), &schemas[3]), None);
    }
}
