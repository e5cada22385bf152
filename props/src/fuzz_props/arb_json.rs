//! Arbitrary JSON from fuzz bytes: small, depth-bounded values, and tool `inputSchema`s biased
//! toward the keywords the `x-mcp-header` analysis reads (`type`, `properties`,
//! `x-mcp-header`, bounds, and the composition keywords that make an annotation unreachable).
//!
//! Every function here terminates on any input: depth and lengths are bounded, and
//! `Unstructured` answers with defaults once the bytes run out.

use arbitrary::{Result, Unstructured};
use serde_json::{json, Map, Value};

/// Deepest nesting an arbitrary value or schema gets.
const MAX_DEPTH: u32 = 4;
/// Most members an object or array gets.
const MAX_LEN: usize = 4;

/// Strings a property name, annotation or value is drawn from (plus arbitrary ones): the
/// shapes that sit on the edges of the rules (token chars, case duplicates, sentinels).
const WORDS: &[&str] = &[
    "region",
    "Region",
    "REGION",
    "count",
    "flag",
    "a",
    "",
    " ",
    "x y",
    "café",
    "=?base64?",
    "=?base64??=",
    "=?base64?SGk=?=",
    "Mcp-Param-X",
    "tab\t",
    "line\nbreak",
    "properties",
    "x-mcp-header",
];

/// A short string: a known edge word or arbitrary UTF-8.
pub fn word(u: &mut Unstructured) -> Result<String> {
    if u.ratio(2, 3)? {
        Ok((*u.choose(WORDS)?).to_string())
    } else {
        let s: String = u.arbitrary()?;
        Ok(s.chars().take(24).collect())
    }
}

/// A number that tests the integer rules: small, at and beyond ±(2^53-1), or fractional.
pub fn number(u: &mut Unstructured) -> Result<Value> {
    const SAFE: i64 = (1 << 53) - 1;
    Ok(match u.int_in_range(0u8..=6)? {
        0 => json!(u.int_in_range(-3i64..=100)?),
        1 => json!(SAFE),
        2 => json!(-SAFE),
        3 => json!(SAFE + 1),
        4 => json!(u.arbitrary::<i64>()?),
        5 => json!(42.0),
        // finite by construction: a ratio of two small integers
        _ => json!(f64::from(u.arbitrary::<i16>()?) / 7.0),
    })
}

/// Any JSON value, at most `MAX_DEPTH` deep.
pub fn value(u: &mut Unstructured) -> Result<Value> {
    value_at(u, 0)
}

fn value_at(u: &mut Unstructured, depth: u32) -> Result<Value> {
    let leaf_only = depth >= MAX_DEPTH;
    let pick = u.int_in_range(0u8..=if leaf_only { 4 } else { 6 })?;
    Ok(match pick {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => number(u)?,
        3 | 4 => Value::String(word(u)?),
        5 => {
            let n = u.int_in_range(0..=MAX_LEN)?;
            let mut a = Vec::with_capacity(n);
            for _ in 0..n {
                a.push(value_at(u, depth + 1)?);
            }
            Value::Array(a)
        }
        _ => {
            let n = u.int_in_range(0..=MAX_LEN)?;
            let mut m = Map::new();
            for _ in 0..n {
                m.insert(word(u)?, value_at(u, depth + 1)?);
            }
            Value::Object(m)
        }
    })
}

/// A tool `inputSchema`-like value.
pub fn schema(u: &mut Unstructured) -> Result<Value> {
    schema_at(u, 0)
}

fn schema_at(u: &mut Unstructured, depth: u32) -> Result<Value> {
    // one in eight nodes is any JSON at all, so non-object schemas are covered too
    if u.ratio(1, 8)? {
        return value_at(u, depth.max(MAX_DEPTH - 1));
    }
    let mut m = Map::new();
    let ty = match u.int_in_range(0u8..=8)? {
        0..=2 => Some(json!("object")),
        3 => Some(json!("string")),
        4 => Some(json!("integer")),
        5 => Some(json!("boolean")),
        6 => Some(json!(["string", "null"])),
        7 => Some(value_at(u, MAX_DEPTH)?),
        _ => None,
    };
    if let Some(t) = ty {
        m.insert("type".into(), t);
    }
    if u.ratio(1, 3)? {
        let a = if u.ratio(3, 4)? {
            Value::String(word(u)?)
        } else {
            value_at(u, MAX_DEPTH)?
        };
        m.insert("x-mcp-header".into(), a);
    }
    if u.ratio(1, 5)? {
        m.insert("minimum".into(), number(u)?);
    }
    if u.ratio(1, 5)? {
        m.insert("maximum".into(), number(u)?);
    }
    if depth < MAX_DEPTH {
        if u.ratio(2, 3)? {
            let n = u.int_in_range(0..=MAX_LEN)?;
            let mut props = Map::new();
            for _ in 0..n {
                props.insert(word(u)?, schema_at(u, depth + 1)?);
            }
            m.insert("properties".into(), Value::Object(props));
        }
        if u.ratio(1, 6)? {
            let kw = *u.choose(&[
                "anyOf",
                "oneOf",
                "allOf",
                "items",
                "additionalProperties",
                "patternProperties",
                "$defs",
                "not",
            ])?;
            let sub = schema_at(u, depth + 1)?;
            let wrapped = match kw {
                "anyOf" | "oneOf" | "allOf" => json!([sub]),
                "patternProperties" | "$defs" => json!({ "p": sub }),
                _ => sub,
            };
            m.insert(kw.into(), wrapped);
        }
    }
    Ok(Value::Object(m))
}
