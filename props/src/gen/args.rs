//! Tool-call arguments drawn from a tool's `inputSchema`: every declared property present,
//! null or absent (required ones always present), values of the declared type with edge
//! values (strings that need the sentinel, integers at the safe-integer bounds).

use crate::strategies::values::{header_string, integer};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Arguments for `schema` (depth-limited).
pub fn arguments(schema: &Value) -> BoxedStrategy<Value> {
    object(schema, 0)
}

fn object(schema: &Value, depth: u32) -> BoxedStrategy<Value> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Just(json!({})).boxed();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
    for (name, sub) in props.iter().take(16) {
        let value = value_of(sub, depth);
        let key = name.clone();
        let present = value.clone().prop_map({
            let key = key.clone();
            move |v| Some((key.clone(), v))
        });
        if required.contains(&name.as_str()) {
            fields.push(present.boxed());
        } else {
            let k2 = key.clone();
            fields.push(
                prop_oneof![
                    6 => present,
                    1 => Just(Some((k2, Value::Null))),
                    3 => Just(None),
                ]
                .boxed(),
            );
        }
    }
    fields
        .prop_map(|entries| {
            let m: Map<String, Value> = entries.into_iter().flatten().collect();
            Value::Object(m)
        })
        .boxed()
}

fn value_of(schema: &Value, depth: u32) -> BoxedStrategy<Value> {
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => match schema.get("enum").and_then(Value::as_array) {
            Some(e) if !e.is_empty() => proptest::sample::select(e.clone()).boxed(),
            _ => header_string().prop_map(Value::String).boxed(),
        },
        Some("integer") => {
            let lo = schema.get("minimum").and_then(Value::as_i64);
            let hi = schema.get("maximum").and_then(Value::as_i64);
            match (lo, hi) {
                (Some(lo), Some(hi)) if lo <= hi => (lo..=hi).prop_map(|i| json!(i)).boxed(),
                _ => integer().prop_map(|i| json!(i)).boxed(),
            }
        }
        Some("number") => prop_oneof![integer().prop_map(|i| json!(i)), Just(json!(1.5))].boxed(),
        Some("boolean") => any::<bool>().prop_map(Value::Bool).boxed(),
        Some("object") if depth < 3 => object(schema, depth + 1),
        Some("array") => Just(json!([])).boxed(),
        _ => Just(json!("x")).boxed(),
    }
}
