//! Whether a JSON value is a valid JSON Schema: the keywords whose values the 2020-12
//! meta-schema constrains structurally (types, subschemas, arrays of strings, counts),
//! checked recursively. Formats and regular expressions are not checked, and where drafts
//! differ (`items` as an array, draft 4's boolean `exclusiveMinimum`) either form is
//! accepted (DEVIATIONS.md D-84).

use serde_json::Value;

/// Subschemas deeper than this are not checked (the answer is read, never trusted to be
/// shallow).
const DEPTH_LIMIT: usize = 32;

const SIMPLE_TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// Keywords whose value is one schema.
const ONE_SCHEMA: [&str; 11] = [
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "contentSchema",
];

/// Keywords whose value is a non-empty array of schemas.
const SCHEMA_ARRAYS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];

/// Keywords whose value is an object of schemas.
const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is a non-negative integer.
const COUNTS: [&str; 8] = [
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];

/// Keywords whose value is a number.
const NUMBERS: [&str; 2] = ["minimum", "maximum"];

fn is_schema(v: &Value, depth: usize) -> bool {
    v.is_boolean() || (v.is_object() && valid_schema(v, depth + 1))
}

fn is_count(v: &Value) -> bool {
    v.as_f64().is_some_and(|n| n >= 0.0 && n.fract() == 0.0)
}

fn strings(v: &Value) -> bool {
    v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
}

/// Whether object schema `s` breaks none of the structural constraints (`depth`: how deep
/// it sits in the root).
pub(super) fn valid_schema(s: &Value, depth: usize) -> bool {
    let Some(m) = s.as_object() else {
        return s.is_boolean();
    };
    if depth > DEPTH_LIMIT {
        return true;
    }
    let type_ok = m.get("type").is_none_or(|t| match t {
        Value::String(t) => SIMPLE_TYPES.contains(&t.as_str()),
        Value::Array(ts) => {
            !ts.is_empty()
                && ts
                    .iter()
                    .all(|t| t.as_str().is_some_and(|t| SIMPLE_TYPES.contains(&t)))
        }
        _ => false,
    });
    type_ok
        && ONE_SCHEMA
            .iter()
            .all(|k| m.get(*k).is_none_or(|v| is_schema(v, depth)))
        && SCHEMA_ARRAYS.iter().all(|k| {
            m.get(*k).is_none_or(|v| {
                v.as_array()
                    .is_some_and(|a| !a.is_empty() && a.iter().all(|x| is_schema(x, depth)))
            })
        })
        && SCHEMA_MAPS.iter().all(|k| {
            m.get(*k).is_none_or(|v| {
                v.as_object()
                    .is_some_and(|o| o.values().all(|x| is_schema(x, depth)))
            })
        })
        && m.get("items").is_none_or(|v| {
            is_schema(v, depth)
                || v.as_array()
                    .is_some_and(|a| a.iter().all(|x| is_schema(x, depth)))
        })
        && m.get("required").is_none_or(strings)
        && m.get("enum").is_none_or(Value::is_array)
        && COUNTS.iter().all(|k| m.get(*k).is_none_or(is_count))
        && NUMBERS
            .iter()
            .all(|k| m.get(*k).is_none_or(Value::is_number))
        && m.get("multipleOf")
            .is_none_or(|v| v.as_f64().is_some_and(|n| n > 0.0))
        && ["exclusiveMinimum", "exclusiveMaximum"]
            .iter()
            .all(|k| m.get(*k).is_none_or(|v| v.is_number() || v.is_boolean()))
        && ["pattern", "$ref", "$id", "$schema", "$anchor", "format"]
            .iter()
            .all(|k| m.get(*k).is_none_or(Value::is_string))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn structural_validity() {
        for ok in [
            json!({"type": "object"}),
            json!({}),
            json!({"type": ["string", "null"]}),
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": true},
                   "required": ["a"], "additionalProperties": false}),
            json!({"items": [{"type": "string"}]}),
            json!({"anyOf": [{"type": "string"}], "minLength": 1, "maximum": 2.5}),
        ] {
            assert!(valid_schema(&ok, 0), "{ok}");
        }
        for bad in [
            json!({"type": "obj"}),
            json!({"type": []}),
            json!({"properties": {"a": 7}}),
            json!({"properties": []}),
            json!({"required": "a"}),
            json!({"anyOf": []}),
            json!({"minLength": -1}),
            json!({"minLength": "1"}),
            json!({"properties": {"a": {"type": 3}}}),
            json!(null),
        ] {
            assert!(!valid_schema(&bad, 0), "{bad}");
        }
    }
}
