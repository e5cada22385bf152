//! `x-mcp-header` annotations (streamable-http.mdx § Schema Extension): the six constraints
//! on a tool's annotations, header extraction at the exact property path, and the type of
//! each mirrored parameter.
//!
//! This file owns the reading of a tool's `inputSchema` (the walk, the constraints XH-1 to
//! XH-8 of ENCODING.md §1.2) and of call arguments (`extract`, `header_text`). Encoding the
//! text for the wire is `encoding::sentinel`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The schema keyword.
pub const KEYWORD: &str = "x-mcp-header";

/// The primitive type of an annotated parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamKind {
    String,
    Integer,
    Boolean,
}

/// One valid annotation: header `Mcp-Param-{header}` mirrors the argument at `path`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderParam {
    /// The annotation value, the name portion of the header.
    pub header: String,
    /// The chain of `properties` keys from the schema root.
    pub path: Vec<String>,
    pub kind: ParamKind,
}

impl HeaderParam {
    /// The full header name, `Mcp-Param-{header}`.
    pub fn header_name(&self) -> String {
        format!("Mcp-Param-{}", self.header)
    }
}

/// Why a tool's annotations make the tool definition invalid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum AnnotationError {
    /// The annotation value is not a string.
    NotAString { at: String },
    /// The annotation value is empty.
    Empty { at: String },
    /// The value is not `1*tchar` (includes control characters, CR, LF, spaces).
    NotAToken { at: String, value: String },
    /// Two annotations are equal ignoring ASCII case.
    Duplicate { value: String },
    /// The annotated property's type is not exactly `string`, `integer` or `boolean`.
    NotPrimitive { at: String },
    /// An integer parameter whose declared bounds leave the JavaScript safe range.
    UnsafeIntegerBounds { at: String },
    /// The annotation is not reached through a chain of `properties` keys alone.
    NotStaticallyReachable { at: String },
}

/// The largest integer a JavaScript number represents exactly, 2^53 - 1.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// Whether `input_schema` holds an `x-mcp-header` key that is not one of its valid
/// annotations: one inside instance data (`examples`, `const`, `default`, ...), which this
/// oracle reads as data. A reader that scans the whole document for the key instead calls
/// the tool invalid, and the spec does not settle which is right (DEVIATIONS.md D-49).
pub fn has_annotation_lookalike(input_schema: &Value) -> bool {
    tool_header_params(input_schema).is_ok_and(|params| lookalike_beside(input_schema, &params))
}

/// [`has_annotation_lookalike`] for a schema whose valid annotations are `params` (already
/// found): more `x-mcp-header` keys than annotations means some sit in instance data.
pub fn lookalike_beside(input_schema: &Value, params: &[HeaderParam]) -> bool {
    fn count(v: &Value) -> usize {
        match v {
            Value::Object(m) => m
                .iter()
                .map(|(k, x)| usize::from(k == KEYWORD) + count(x))
                .sum(),
            Value::Array(a) => a.iter().map(count).sum(),
            _ => 0,
        }
    }
    count(input_schema) > params.len()
}

/// Whether a tool labelled `label` may be published: its annotations meet the constraints
/// ("Constraints on `x-mcp-header` values", server/tools.mdx), or its only defect is a
/// declared integer bound beyond the safe range, which "Integer values MUST be within the
/// safe range" (a constraint on values) does not clearly forbid (DEVIATIONS.md D-45, D-37).
pub fn publishable(label: &Result<Vec<HeaderParam>, AnnotationError>) -> bool {
    matches!(
        label,
        Ok(_) | Err(AnnotationError::UnsafeIntegerBounds { .. })
    )
}

/// Every valid annotation of `input_schema`, or the first constraint it breaks.
pub fn tool_header_params(input_schema: &Value) -> Result<Vec<HeaderParam>, AnnotationError> {
    let mut found = Vec::new();
    walk(input_schema, &mut Vec::new(), Reach::Root, &mut found)?;
    for (i, a) in found.iter().enumerate() {
        if found[..i]
            .iter()
            .any(|b: &HeaderParam| b.header.eq_ignore_ascii_case(&a.header))
        {
            return Err(AnnotationError::Duplicate {
                value: a.header.clone(),
            });
        }
    }
    Ok(found)
}

/// Where the walk stands relative to the static `properties` chain.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// The schema root (not itself a property).
    Root,
    /// A property schema reached only through `properties` keys.
    Property,
    /// Anywhere else: an annotation here is invalid.
    Elsewhere,
}

/// Keywords whose value maps names (or patterns) to subschemas: the names are never
/// annotations, the subschemas are walked. `properties` is here when it is not on the chain.
const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
    "$defs",
    "definitions",
];

/// Keywords whose value is instance data or plain strings, never a schema: an
/// `x-mcp-header` key inside them is data, not an annotation.
const DATA_KEYWORDS: &[&str] = &[
    "const",
    "enum",
    "default",
    "examples",
    "required",
    "dependentRequired",
    "type",
    "$ref",
    "$dynamicRef",
    "$id",
    "$schema",
    "$anchor",
    "$dynamicAnchor",
    "$comment",
    "$vocabulary",
    "title",
    "description",
    "format",
    "pattern",
];

/// Walk one schema (an object; booleans and other values carry no annotations).
fn walk(
    schema: &Value,
    path: &mut Vec<String>,
    reach: Reach,
    found: &mut Vec<HeaderParam>,
) -> Result<(), AnnotationError> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    if let Some(ann) = map.get(KEYWORD) {
        let at = pointer(path);
        if reach != Reach::Property {
            return Err(AnnotationError::NotStaticallyReachable { at });
        }
        found.push(check_annotation(ann, map, path, at)?);
    }
    for (key, child) in map {
        let key = key.as_str();
        if key == KEYWORD || DATA_KEYWORDS.contains(&key) {
            continue;
        }
        if key == "properties" && reach != Reach::Elsewhere {
            if let Value::Object(props) = child {
                // the names are property names, whatever they spell ("properties",
                // "x-mcp-header", "items", ...): each value is a property schema
                for (name, sub) in props {
                    path.push(name.clone());
                    walk(sub, path, Reach::Property, found)?;
                    path.pop();
                }
                continue;
            }
        }
        path.push(format!("<{key}>"));
        // Subschema keywords (`items`, `additionalProperties`, `not`, `if`/`then`/`else`,
        // `contains`, `propertyNames`, ...), subschema arrays (`allOf`/`anyOf`/`oneOf`,
        // `prefixItems`) and unknown keywords (vendor extensions, other drafts: their value
        // may hold schemas, XH-8 "anywhere else") are all walked as schemas off the chain.
        let result = if SCHEMA_MAP_KEYWORDS.contains(&key) {
            walk_map(child, path, found)
        } else {
            walk_any(child, path, found)
        };
        path.pop();
        result?;
    }
    Ok(())
}

/// A map of names to subschemas off the `properties` chain.
fn walk_map(
    value: &Value,
    path: &mut Vec<String>,
    found: &mut Vec<HeaderParam>,
) -> Result<(), AnnotationError> {
    match value {
        Value::Object(map) => {
            for (name, sub) in map {
                path.push(format!("<{name}>"));
                let result = walk_any(sub, path, found);
                path.pop();
                result?;
            }
            Ok(())
        }
        other => walk_any(other, path, found),
    }
}

/// A subschema or an array of subschemas, off the `properties` chain.
fn walk_any(
    value: &Value,
    path: &mut Vec<String>,
    found: &mut Vec<HeaderParam>,
) -> Result<(), AnnotationError> {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(format!("<{i}>"));
                let result = walk_any(item, path, found);
                path.pop();
                result?;
            }
            Ok(())
        }
        other => walk(other, path, Reach::Elsewhere, found),
    }
}

fn check_annotation(
    ann: &Value,
    schema: &serde_json::Map<String, Value>,
    path: &[String],
    at: String,
) -> Result<HeaderParam, AnnotationError> {
    let Value::String(value) = ann else {
        return Err(AnnotationError::NotAString { at });
    };
    if value.is_empty() {
        return Err(AnnotationError::Empty { at });
    }
    // XH-2 implies XH-3: no control character is a tchar
    if !value.bytes().all(is_tchar) {
        return Err(AnnotationError::NotAToken {
            at,
            value: value.clone(),
        });
    }
    // AMB-37: only the exact single types count; `["string","null"]`, a missing `type`, or
    // `enum`/`const` alone are not provably primitive and make the tool invalid.
    let kind = match schema.get("type").and_then(Value::as_str) {
        Some("string") => ParamKind::String,
        Some("integer") => ParamKind::Integer,
        Some("boolean") => ParamKind::Boolean,
        _ => return Err(AnnotationError::NotPrimitive { at }),
    };
    if kind == ParamKind::Integer && !bounds_are_safe(schema) {
        return Err(AnnotationError::UnsafeIntegerBounds { at });
    }
    Ok(HeaderParam {
        header: value.clone(),
        path: path.to_vec(),
        kind,
    })
}

/// AMB-36: the safe-range constraint is read as one on the schema: every declared bound
/// (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`) must leave the smallest or
/// largest admitted integer inside −(2^53−1)..=2^53−1. Missing bounds are accepted (runtime
/// values are compared as they come); a bound that is not a number is unsafe; draft-4
/// boolean `exclusive*` flags are ignored (the plain bound is then checked inclusively).
fn bounds_are_safe(schema: &serde_json::Map<String, Value>) -> bool {
    let limit = i128::from(MAX_SAFE_INTEGER);
    let check = |key: &str, to_int: fn(&serde_json::Number) -> Option<i128>| match schema.get(key) {
        None | Some(Value::Bool(_)) if key.starts_with("exclusive") => true,
        None => true,
        Some(Value::Number(n)) => to_int(n).is_some_and(|i| (-limit..=limit).contains(&i)),
        Some(_) => false,
    };
    check("minimum", |n| admitted(n, f64::ceil, 0))
        && check("maximum", |n| admitted(n, f64::floor, 0))
        && check("exclusiveMinimum", |n| admitted(n, |x| x.floor() + 1.0, 1))
        && check("exclusiveMaximum", |n| admitted(n, |x| x.ceil() - 1.0, -1))
}

/// The extreme integer a bound admits: exact for integer bounds (`offset` added), rounded
/// with `round` for fractional ones. `None` for non-finite values.
fn admitted(n: &serde_json::Number, round: fn(f64) -> f64, offset: i128) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i) + offset);
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u) + offset);
    }
    let x = round(n.as_f64()?);
    // beyond ±2^100 the exact value does not matter, only that it is unsafe
    x.is_finite().then(|| x.clamp(-1e30, 1e30) as i128)
}

/// RFC 9110 `tchar`.
pub fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn pointer(path: &[String]) -> String {
    if path.is_empty() {
        "/".to_string()
    } else {
        path.iter().map(|p| format!("/{p}")).collect()
    }
}

/// What the arguments hold at an annotated path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Extracted<'a> {
    /// No value at the path (a missing key, or an intermediate value that is not an object).
    Absent,
    /// The value is JSON `null`.
    Null,
    /// A value to mirror.
    Value(&'a Value),
}

/// Read the instance value at `path` in the call arguments.
pub fn extract<'a>(arguments: Option<&'a Value>, path: &[String]) -> Extracted<'a> {
    let mut cur = match arguments {
        Some(v) => v,
        None => return Extracted::Absent,
    };
    for key in path {
        match cur.get(key.as_str()) {
            Some(v) => cur = v,
            None => return Extracted::Absent,
        }
    }
    if cur.is_null() {
        Extracted::Null
    } else {
        Extracted::Value(cur)
    }
}

/// The header text a client sends for `value` (before sentinel encoding): strings as-is,
/// integers in decimal, booleans lowercase. `None` for values of no primitive type.
pub fn header_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
