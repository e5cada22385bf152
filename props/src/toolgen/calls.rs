//! Call arguments for a generated tool: a plain call, then variations of the annotated
//! parameters where clients and servers disagree (absent, `null`, integers at and beyond
//! the JavaScript safe-integer bounds, strings that need the Base64 sentinel, strings that
//! look like a sentinel), plus a call with no `arguments` member at all.
//!
//! The candidates are a pure function of the schema; the strategy only picks which of the
//! variations a tool keeps, so each tool gets a handful of calls, not dozens.

use mcpdiff_oracle::annotations::{KEYWORD, MAX_SAFE_INTEGER};
use mcpdiff_oracle::toolset::ToolCall;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// How deep `properties` chains are followed when filling arguments.
const MAX_DEPTH: usize = 5;
/// How many variations of the plain call a tool keeps at most.
const MAX_VARIATIONS: usize = 8;
/// How many annotated leaves get varied (the rest keep their plain value).
const MAX_VARIED_LEAVES: usize = 4;

/// A property reached by a chain of `properties` keys.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaLeaf {
    pub path: Vec<String>,
    /// The `type` keyword when it is a single string.
    pub ty: Option<String>,
    /// Whether the property carries an `x-mcp-header` key.
    pub annotated: bool,
}

/// Every non-object property on a `properties` chain of `schema` (depth-limited).
pub fn leaves(schema: &Value) -> Vec<SchemaLeaf> {
    let mut out = Vec::new();
    collect(schema, &mut Vec::new(), &mut out);
    out
}

fn collect(schema: &Value, path: &mut Vec<String>, out: &mut Vec<SchemaLeaf>) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    if path.len() >= MAX_DEPTH {
        return;
    }
    for (name, sub) in props {
        path.push(name.clone());
        let ty = sub.get("type").and_then(Value::as_str).map(str::to_string);
        if ty.as_deref() == Some("object") && sub.get(KEYWORD).is_none() {
            collect(sub, path, out);
        } else {
            out.push(SchemaLeaf {
                path: path.clone(),
                ty,
                annotated: sub.get(KEYWORD).is_some(),
            });
        }
        path.pop();
    }
}

/// The plain value of a leaf of type `ty` (`None`: leave it out).
fn plain(ty: Option<&str>) -> Option<Value> {
    match ty? {
        "string" => Some(json!("plain-value")),
        "integer" => Some(json!(42)),
        "boolean" => Some(json!(true)),
        "number" => Some(json!(1.5)),
        _ => None,
    }
}

/// The edge values of a parameter of type `ty`, each with what it exercises.
pub fn edge_values(ty: Option<&str>) -> Vec<(Value, &'static str)> {
    let max = MAX_SAFE_INTEGER;
    match ty {
        Some("integer") => vec![
            (json!(0), "integer 0"),
            (json!(max), "integer 2^53-1 (largest safe)"),
            (json!(-max), "integer -(2^53-1) (smallest safe)"),
            (json!(max + 1), "integer 2^53 (beyond the safe range)"),
            (json!(-max - 1), "integer -2^53 (beyond the safe range)"),
            (json!(u64::MAX), "integer 2^64-1"),
            (json!(42.0), "integer written 42.0"),
        ],
        Some("string") => vec![
            (json!("café"), "non-ASCII string (needs the sentinel)"),
            (json!(" padded"), "leading space (needs the sentinel)"),
            (json!("trailing\t"), "trailing tab (needs the sentinel)"),
            (json!("a\r\nX-Injected: 1"), "CR/LF (needs the sentinel)"),
            (json!(""), "empty string"),
            (
                json!("=?base64?SGVsbG8=?="),
                "plain string shaped like a sentinel",
            ),
            (
                json!("=?base64?not base64!?="),
                "sentinel shape, invalid Base64",
            ),
            (json!("us-west1"), "plain ASCII"),
        ],
        Some("boolean") => vec![(json!(false), "boolean false")],
        _ => Vec::new(),
    }
}

fn set(args: &mut Value, path: &[String], value: Option<Value>) {
    let Some((last, prefix)) = path.split_last() else {
        return;
    };
    let mut node = args;
    for key in prefix {
        if !node.is_object() {
            *node = Value::Object(Map::new());
        }
        // made an object just above
        let Some(obj) = node.as_object_mut() else {
            return;
        };
        node = obj
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if let Value::Object(obj) = node {
        match value {
            Some(v) => obj.insert(last.clone(), v),
            None => obj.remove(last),
        };
    }
}

/// The plain arguments: every leaf of a known primitive type set to its plain value.
pub fn plain_arguments(schema: &Value) -> Value {
    let mut args = Value::Object(Map::new());
    for leaf in leaves(schema) {
        if let Some(v) = plain(leaf.ty.as_deref()) {
            set(&mut args, &leaf.path, Some(v));
        }
    }
    args
}

/// Every variation of the plain call (one annotated leaf changed at a time).
pub fn variations(schema: &Value) -> Vec<ToolCall> {
    let base = plain_arguments(schema);
    let mut out = Vec::new();
    for leaf in leaves(schema)
        .into_iter()
        .filter(|l| l.annotated)
        .take(MAX_VARIED_LEAVES)
    {
        let at = leaf.path.join(".");
        let mut changes: Vec<(Option<Value>, String)> = vec![
            (Some(Value::Null), format!("{at}: null (header omitted)")),
            (None, format!("{at}: absent (header omitted)")),
        ];
        for (v, what) in edge_values(leaf.ty.as_deref()) {
            changes.push((Some(v), format!("{at}: {what}")));
        }
        for (value, note) in changes {
            let mut args = base.clone();
            set(&mut args, &leaf.path, value);
            out.push(ToolCall {
                arguments: Some(args),
                note: Some(note),
            });
        }
    }
    out
}

/// The calls of a tool: the plain call, a call without `arguments`, and up to
/// [`MAX_VARIATIONS`] variations.
pub fn calls_for(schema: &Value) -> BoxedStrategy<Vec<ToolCall>> {
    let fixed = [
        ToolCall {
            arguments: Some(plain_arguments(schema)),
            note: Some("plain values".into()),
        },
        ToolCall {
            arguments: None,
            note: Some("no arguments member".into()),
        },
    ];
    let all = variations(schema);
    let keep = all.len().min(MAX_VARIATIONS);
    prop::sample::subsequence(all, keep)
        .prop_map(move |picked| fixed.iter().cloned().chain(picked).collect())
        .boxed()
}
