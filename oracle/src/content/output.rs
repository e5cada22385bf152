//! Tool results against the tool's `outputSchema` (server/tools.mdx § Structured Content,
//! § Output Schema): conformance, judged by a validator that is sound for what it checks
//! (it ignores what it does not implement, so it never fails a value a full validator would
//! pass), and the serialized copy in a text block.

use serde_json::Value;

/// Subschemas deeper than this are not checked.
const DEPTH_LIMIT: usize = 32;

/// Whether a tool result is an execution error («reported in tool results with
/// `isError: true`»): its structured result is not demanded (DEVIATIONS.md D-85).
fn is_error(result: &Value) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
}

/// "If an output schema is provided: - Servers MUST provide structured results that conform
/// to this schema.": a result that is not an execution error carries `structuredContent`,
/// and the validator finds no keyword it implements broken.
pub fn conforms(result: &Value, schema: &Value) -> bool {
    if is_error(result) {
        return true;
    }
    result
        .get("structuredContent")
        .is_some_and(|v| valid(v, schema, 0))
}

/// "a tool that returns structured content SHOULD also return the serialized JSON in a
/// TextContent block": some `text` block parses to a value equal to `structuredContent`.
pub(super) fn structured_text_holds(result: &Value) -> bool {
    let Some(structured) = result.get("structuredContent") else {
        return true;
    };
    let texts = result.get("content").and_then(Value::as_array);
    texts.into_iter().flatten().any(|b| {
        b.get("type").and_then(Value::as_str) == Some("text")
            && b.get("text")
                .and_then(Value::as_str)
                .and_then(|t| serde_json::from_str::<Value>(t).ok())
                .is_some_and(|v| json_eq(&v, structured))
    })
}

/// JSON Schema equality (`enum`, `const`, and the text copy): numbers by value, so `1` and
/// `1.0` are equal; arrays and objects member by member.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| json_eq(a, b)))
        }
        _ => a == b,
    }
}

fn type_matches(v: &Value, t: &str) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        // an unknown type name: not this validator's to judge
        _ => true,
    }
}

/// Whether `v` passes the keywords of `schema` this validator implements: `type`, `enum`,
/// `const`, `properties`, `required`, `additionalProperties`, `items` (one schema),
/// `minimum`/`maximum`, `allOf`, `anyOf`. `not`, `oneOf`, `$ref`, `if` and every other
/// keyword are left alone (judging them with a partial validator could fail a valid value).
pub(super) fn valid(v: &Value, schema: &Value, depth: usize) -> bool {
    let s = match schema {
        Value::Bool(b) => return *b,
        Value::Object(s) => s,
        _ => return true,
    };
    if depth > DEPTH_LIMIT {
        return true;
    }
    let type_ok = match s.get("type") {
        Some(Value::String(t)) => type_matches(v, t),
        Some(Value::Array(ts)) => ts
            .iter()
            .any(|t| t.as_str().is_none_or(|t| type_matches(v, t))),
        _ => true,
    };
    let enum_ok = s
        .get("enum")
        .and_then(Value::as_array)
        .is_none_or(|e| e.iter().any(|x| json_eq(x, v)));
    let const_ok = s.get("const").is_none_or(|c| json_eq(c, v));
    let object_ok = v.as_object().is_none_or(|o| {
        let props = s.get("properties").and_then(Value::as_object);
        let required = s.get("required").and_then(Value::as_array);
        required
            .into_iter()
            .flatten()
            .all(|k| k.as_str().is_none_or(|k| o.contains_key(k)))
            && o.iter().all(|(k, x)| match props.and_then(|p| p.get(k)) {
                Some(sub) => valid(x, sub, depth + 1),
                // additionalProperties applies to members `properties` does not name; with
                // `patternProperties` present a member may be matched there (not checked)
                None if s.contains_key("patternProperties") => true,
                None => s
                    .get("additionalProperties")
                    .is_none_or(|a| valid(x, a, depth + 1)),
            })
    });
    let array_ok = v.as_array().is_none_or(|a| match s.get("items") {
        Some(items) if items.is_object() || items.is_boolean() => {
            // `prefixItems` exempts the leading elements from `items`
            let skip = s
                .get("prefixItems")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            a.iter().skip(skip).all(|x| valid(x, items, depth + 1))
        }
        _ => true,
    });
    let number_ok = v.as_f64().is_none_or(|n| {
        s.get("minimum")
            .and_then(Value::as_f64)
            .is_none_or(|m| n >= m)
            && s.get("maximum")
                .and_then(Value::as_f64)
                .is_none_or(|m| n <= m)
    });
    let all_ok = s
        .get("allOf")
        .and_then(Value::as_array)
        .is_none_or(|l| l.iter().all(|x| valid(v, x, depth + 1)));
    let any_ok = s
        .get("anyOf")
        .and_then(Value::as_array)
        .is_none_or(|l| l.is_empty() || l.iter().any(|x| valid(v, x, depth + 1)));
    type_ok && enum_ok && const_ok && object_ok && array_ok && number_ok && all_ok && any_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn conformance_of_the_implemented_keywords() {
        let schema = json!({"type": "object",
            "properties": {"arguments": {"type": "object"}, "n": {"type": "integer", "minimum": 0}},
            "required": ["arguments"], "additionalProperties": false});
        let r = |s: Value| json!({"content": [], "structuredContent": s});
        assert!(conforms(&r(json!({"arguments": {}})), &schema));
        assert!(conforms(&r(json!({"arguments": {}, "n": 3})), &schema));
        assert!(!conforms(&r(json!({"n": 3})), &schema), "required");
        assert!(!conforms(&r(json!({"arguments": 1})), &schema), "type");
        assert!(
            !conforms(&r(json!({"arguments": {}, "n": -1})), &schema),
            "minimum"
        );
        assert!(
            !conforms(&r(json!({"arguments": {}, "x": 1})), &schema),
            "additional"
        );
        assert!(
            !conforms(&json!({"content": []}), &schema),
            "no structured result"
        );
        assert!(conforms(&json!({"content": [], "isError": true}), &schema));
        // keywords left alone never fail a value
        let not = json!({"not": {"type": "string"}, "oneOf": [{"type": "string"}]});
        assert!(conforms(&r(json!("x")), &not));
        assert!(conforms(
            &r(json!(3)),
            &json!({"anyOf": [{"type": "string"}, {"minimum": 1}]})
        ));
        assert!(!conforms(
            &r(json!(0)),
            &json!({"anyOf": [{"type": "string"}, {"minimum": 1}]})
        ));
        assert!(!conforms(&r(json!(1)), &json!(false)));
        // numbers compare by value
        assert!(conforms(&r(json!(1.0)), &json!({"enum": [1]})));
        assert!(conforms(&r(json!({"a": 2.0})), &json!({"const": {"a": 2}})));
    }

    #[test]
    fn structured_content_is_also_serialized_as_text() {
        let s = json!({"a": [1, 2]});
        let text =
            |t: &str| json!({"content": [{"type": "text", "text": t}], "structuredContent": s});
        assert!(structured_text_holds(&text("{\"a\": [1,2]}")));
        assert!(!structured_text_holds(&text("done")));
        assert!(!structured_text_holds(&text("{\"a\": [1]}")));
        assert!(structured_text_holds(&json!({"content": []})));
    }
}
