//! Tool-call arguments drawn from a tool's `inputSchema`: every declared property present,
//! null or absent (required ones always present), values of the declared type with edge
//! values (strings that need the sentinel, integers at the safe-integer bounds).
//!
//! The schema is compiled once per surface into an `ObjectPlan`, so a draw walks a small
//! tree instead of looking keys up in JSON.

use super::text::{header_string, integer};
use crate::choice::{Draw, Rng, Source};
use serde_json::{Map, Value};

/// How to draw one value.
#[derive(Clone, Debug)]
enum ValuePlan {
    Enum(Vec<Value>),
    Text,
    IntRange(i64, i64),
    Int,
    Number,
    Bool,
    Object(ObjectPlan),
    EmptyArray,
    Placeholder,
}

/// How to draw an object: each property with whether it is required.
#[derive(Clone, Debug, Default)]
pub struct ObjectPlan {
    fields: Vec<(String, bool, ValuePlan)>,
}

impl ObjectPlan {
    /// The plan for an object `schema` (nested objects up to depth 3, 16 properties each).
    pub fn compile(schema: &Value) -> ObjectPlan {
        object(schema, 0)
    }

    /// Arguments: required properties always, optional ones 6 present : 1 null : 3 absent.
    pub fn draw(&self, r: &mut Rng) -> Value {
        let mut m = Map::new();
        for (name, required, plan) in &self.fields {
            if *required {
                m.insert(name.clone(), plan.draw(r));
                continue;
            }
            match r.weighted(&[6, 1, 3]) {
                0 => {
                    m.insert(name.clone(), plan.draw(r));
                }
                1 => {
                    m.insert(name.clone(), Value::Null);
                }
                _ => {}
            }
        }
        Value::Object(m)
    }
}

fn object(schema: &Value, depth: u32) -> ObjectPlan {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return ObjectPlan::default();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let fields = props
        .iter()
        .take(16)
        .map(|(name, sub)| {
            (
                name.clone(),
                required.contains(&name.as_str()),
                value_plan(sub, depth),
            )
        })
        .collect();
    ObjectPlan { fields }
}

fn value_plan(schema: &Value, depth: u32) -> ValuePlan {
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => match schema.get("enum").and_then(Value::as_array) {
            Some(e) if !e.is_empty() => ValuePlan::Enum(e.clone()),
            _ => ValuePlan::Text,
        },
        Some("integer") => {
            let lo = schema.get("minimum").and_then(Value::as_i64);
            let hi = schema.get("maximum").and_then(Value::as_i64);
            match (lo, hi) {
                (Some(lo), Some(hi)) if lo <= hi => ValuePlan::IntRange(lo, hi),
                _ => ValuePlan::Int,
            }
        }
        Some("number") => ValuePlan::Number,
        Some("boolean") => ValuePlan::Bool,
        Some("object") if depth < 3 => ValuePlan::Object(object(schema, depth + 1)),
        Some("array") => ValuePlan::EmptyArray,
        _ => ValuePlan::Placeholder,
    }
}

impl ValuePlan {
    fn draw(&self, r: &mut Rng) -> Value {
        match self {
            ValuePlan::Enum(e) => r.pick_ref(e).clone(),
            ValuePlan::Text => Value::String(header_string(r)),
            ValuePlan::IntRange(lo, hi) => Value::from(r.range_i64(*lo, *hi)),
            ValuePlan::Int => Value::from(integer(r)),
            ValuePlan::Number => {
                if r.coin() {
                    Value::from(integer(r))
                } else {
                    Value::from(1.5)
                }
            }
            ValuePlan::Bool => Value::Bool(r.coin()),
            ValuePlan::Object(o) => o.draw(r),
            ValuePlan::EmptyArray => Value::Array(Vec::new()),
            ValuePlan::Placeholder => Value::from("x"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn required_always_present_optional_varies_types_follow_schema() {
        let plan = ObjectPlan::compile(&json!({
            "type": "object",
            "properties": {
                "a": {"type": "string"},
                "n": {"type": "integer", "minimum": 1, "maximum": 5},
                "o": {"type": "object", "properties": {"b": {"type": "boolean"}}},
                "e": {"type": "string", "enum": ["x", "y"]}
            },
            "required": ["a", "n"]
        }));
        let mut r = Rng::for_case(4, 4);
        let (mut absent, mut null) = (0, 0);
        for _ in 0..500 {
            let v = plan.draw(&mut r);
            assert!(v["a"].is_string());
            assert!((1..=5).contains(&v["n"].as_i64().unwrap()));
            match v.get("o") {
                None => absent += 1,
                Some(Value::Null) => null += 1,
                Some(o) => assert!(o.is_object()),
            }
            if let Some(e) = v.get("e").and_then(Value::as_str) {
                assert!(e == "x" || e == "y");
            }
        }
        assert!(absent > 50 && null > 10, "absent {absent}, null {null}");
    }
}
