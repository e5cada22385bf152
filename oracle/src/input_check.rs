//! `InputCheck`: a tool's `inputSchema` compiled once, when its `ToolDecl` is built, into the
//! keywords the judge's text reading of `tools/call` arguments checks (TOOLS-VALIDATE-INPUTS,
//! `judge::read::arg_schema`). The judge asks on every call of the tool; reading the schema's
//! `serde_json` maps there (a pass over every subschema's members per call) was a tenth of
//! its time (docs/PERFORMANCE.md).
//!
//! The compiled form keeps exactly what `content::output::valid` reads of the keywords the
//! text reading decides (`type`, `minimum`, `maximum`, `required`, `properties`,
//! `patternProperties`, `additionalProperties`, and whether `items` applies), and marks a
//! subschema holding one it leaves to the tree (`enum`, `const`, `allOf`, `anyOf`) as
//! `Node::Unread`: the caller then parses the arguments and asks the tree reading. Pure.

use serde_json::{Map, Value};

/// Subschemas deeper than this are not checked (as `content::output`).
pub(crate) const DEPTH_LIMIT: usize = 32;

/// A tool's compiled `inputSchema`; `None` when it was not compiled (a `ToolDecl` read back
/// from JSON): the judge reads such a tool's arguments through the tree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputCheck(pub(crate) Option<Node>);

impl InputCheck {
    /// `schema` compiled.
    pub fn of(schema: &Value) -> InputCheck {
        InputCheck(Some(Node::of(schema, 0)))
    }
}

/// One subschema.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    /// Every value passes (`true`, a schema that is no object, or one nested beyond
    /// `DEPTH_LIMIT`) or none does (`false`).
    Always(bool),
    /// A keyword the text reading leaves to the tree.
    Unread,
    Keywords(Box<Keywords>),
}

/// Bits of the JSON types a `type` keyword admits (`Keywords::types`).
pub(crate) mod types {
    pub const NULL: u8 = 1;
    pub const BOOLEAN: u8 = 2;
    pub const OBJECT: u8 = 4;
    pub const ARRAY: u8 = 8;
    pub const STRING: u8 = 16;
    pub const NUMBER: u8 = 32;
    /// A number without a fraction (`content::output::type_matches`).
    pub const INTEGER: u8 = 64;
    /// No `type`, or one naming something else than a JSON type: every value passes it.
    pub const ANY: u8 = 128;
}

/// The keywords of an object subschema the text reading checks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Keywords {
    /// `types` bits.
    pub types: u8,
    /// `items` is an object or a boolean: an array value is left to the tree.
    pub items_unread: bool,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    /// Bit `p` set: `required` names `properties[p]` (the first 64 properties).
    pub required_properties: u64,
    /// The string entries of `required` that name none of the first 64 properties.
    pub required_others: Box<[Box<str>]>,
    /// `properties`, when it is an object.
    pub properties: Box<[(Box<str>, Node)]>,
    pub pattern_properties: bool,
    pub additional: Option<Node>,
}

impl Node {
    fn of(schema: &Value, depth: usize) -> Node {
        let s = match schema {
            Value::Bool(b) => return Node::Always(*b),
            Value::Object(s) => s,
            _ => return Node::Always(true),
        };
        if depth > DEPTH_LIMIT {
            return Node::Always(true);
        }
        if ["enum", "const", "allOf", "anyOf"]
            .iter()
            .any(|k| s.contains_key(*k))
        {
            return Node::Unread;
        }
        Node::Keywords(Box::new(Keywords::of(s, depth)))
    }
}

impl Keywords {
    fn of(s: &Map<String, Value>, depth: usize) -> Keywords {
        let strings = |v: Option<&Value>| -> Box<[Box<str>]> {
            v.and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(Box::from)
                .collect()
        };
        let properties: Box<[(Box<str>, Node)]> = s
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, sub)| (Box::from(k.as_str()), Node::of(sub, depth + 1)))
            .collect();
        let mut required_properties = 0u64;
        let mut required_others = Vec::new();
        for r in strings(s.get("required")).into_vec() {
            match properties
                .iter()
                .position(|(p, _)| *p == r)
                .filter(|&p| p < 64)
            {
                Some(p) => required_properties |= 1 << p,
                None => required_others.push(r),
            }
        }
        Keywords {
            types: types_of(s.get("type")),
            items_unread: s
                .get("items")
                .is_some_and(|i| i.is_object() || i.is_boolean()),
            minimum: s.get("minimum").and_then(Value::as_f64),
            maximum: s.get("maximum").and_then(Value::as_f64),
            required_properties,
            required_others: required_others.into(),
            properties,
            pattern_properties: s.contains_key("patternProperties"),
            additional: s
                .get("additionalProperties")
                .map(|a| Node::of(a, depth + 1)),
        }
    }
}

/// The bits of a `type` keyword: a name, or an array of them, any of which may match; an
/// entry that is no JSON type's name (or no string) matches every value, as no `type` does.
fn types_of(t: Option<&Value>) -> u8 {
    let bit = |name: &Value| match name.as_str() {
        Some("null") => types::NULL,
        Some("boolean") => types::BOOLEAN,
        Some("object") => types::OBJECT,
        Some("array") => types::ARRAY,
        Some("string") => types::STRING,
        Some("number") => types::NUMBER,
        Some("integer") => types::INTEGER,
        _ => types::ANY,
    };
    match t {
        Some(name @ Value::String(_)) => bit(name),
        Some(Value::Array(names)) => names.iter().fold(0, |bits, n| bits | bit(n)),
        _ => types::ANY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn types_as_bits() {
        assert_eq!(types_of(None), types::ANY);
        assert_eq!(types_of(Some(&json!("integer"))), types::INTEGER);
        assert_eq!(types_of(Some(&json!("widget"))), types::ANY);
        assert_eq!(types_of(Some(&json!(7))), types::ANY);
        assert_eq!(
            types_of(Some(&json!(["string", "null"]))),
            types::STRING | types::NULL
        );
        assert_eq!(
            types_of(Some(&json!(["string", 1]))),
            types::STRING | types::ANY
        );
        // an empty list admits no type at all
        assert_eq!(types_of(Some(&json!([]))), 0);
    }

    #[test]
    fn unread_keywords_and_depth() {
        assert_eq!(Node::of(&json!({"enum": [1]}), 0), Node::Unread);
        assert_eq!(Node::of(&json!(false), 0), Node::Always(false));
        assert_eq!(Node::of(&json!(3), 0), Node::Always(true));
        assert_eq!(
            Node::of(&json!({"type": "string"}), DEPTH_LIMIT + 1),
            Node::Always(true)
        );
    }
}
