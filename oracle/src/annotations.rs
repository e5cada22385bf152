//! `x-mcp-header` annotations (streamable-http.mdx § Schema Extension): the six constraints
//! on a tool's annotations, header extraction at the exact property path, and the type of
//! each mirrored parameter.

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

fn walk(
    schema: &Value,
    path: &mut Vec<String>,
    reach: Reach,
    found: &mut Vec<HeaderParam>,
) -> Result<(), AnnotationError> {
    match schema {
        Value::Object(map) => {
            if let Some(ann) = map.get(KEYWORD) {
                let at = pointer(path);
                if reach != Reach::Property {
                    return Err(AnnotationError::NotStaticallyReachable { at });
                }
                found.push(check_annotation(ann, map, path, at)?);
            }
            for (key, child) in map {
                if key == KEYWORD {
                    continue;
                }
                if key == "properties" && reach != Reach::Elsewhere {
                    if let Value::Object(props) = child {
                        for (name, sub) in props {
                            path.push(name.clone());
                            walk(sub, path, Reach::Property, found)?;
                            path.pop();
                        }
                        continue;
                    }
                }
                path.push(format!("<{key}>"));
                walk(child, path, Reach::Elsewhere, found)?;
                path.pop();
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(format!("<{i}>"));
                walk(item, path, Reach::Elsewhere, found)?;
                path.pop();
            }
            Ok(())
        }
        _ => Ok(()),
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
    if !value.bytes().all(is_tchar) {
        return Err(AnnotationError::NotAToken {
            at,
            value: value.clone(),
        });
    }
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

/// Declared `minimum`/`maximum` (if any) inside the safe range (AMB-36: the constraint is
/// read as one on the schema; runtime values are compared as they come).
fn bounds_are_safe(schema: &serde_json::Map<String, Value>) -> bool {
    let safe = |k: &str| match schema.get(k) {
        None => true,
        Some(v) => v
            .as_f64()
            .is_some_and(|x| x.abs() <= MAX_SAFE_INTEGER as f64),
    };
    safe("minimum") && safe("maximum")
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
