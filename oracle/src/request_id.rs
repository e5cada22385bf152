//! `RequestId`: a JSON-RPC request id as the judge keeps it (an integer or a string, the
//! only ids it reads), without a heap allocation for a short string. It compares with,
//! prints and serializes as the `serde_json::Value` it was read from.

use crate::inline_text::InlineText;
use serde::{Serialize, Serializer};
use serde_json::{Number, Value};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestId {
    /// An integer (`Number::is_i64` or `is_u64`).
    Number(Number),
    Text(InlineText),
}

impl RequestId {
    /// The id `v` stands for, when it is an integer or a string.
    pub fn of(v: &Value) -> Option<RequestId> {
        match v {
            Value::Number(n) if n.is_i64() || n.is_u64() => Some(RequestId::Number(n.clone())),
            Value::String(s) => Some(RequestId::Text(InlineText::new(s))),
            _ => None,
        }
    }

    pub fn text(s: &str) -> RequestId {
        RequestId::Text(InlineText::new(s))
    }

    /// Whether a response's `id` member is this id (same value, same JSON type).
    pub fn is(&self, v: &Value) -> bool {
        match (self, v) {
            (RequestId::Number(n), Value::Number(m)) => n == m,
            (RequestId::Text(s), Value::String(t)) => s.as_str() == t,
            _ => false,
        }
    }

    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Number(n) => Value::Number(n.clone()),
            RequestId::Text(s) => Value::String(s.to_string()),
        }
    }

    /// The integer, when it is one.
    pub fn as_i128(&self) -> Option<i128> {
        match self {
            RequestId::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
            RequestId::Text(_) => None,
        }
    }
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        RequestId::Number(n.into())
    }
}

/// As JSON text (a string quoted and escaped), like `Value`'s `Display`.
impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => fmt::Display::fmt(n, f),
            RequestId::Text(s) => fmt::Display::fmt(&Value::String(s.to_string()), f),
        }
    }
}

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestId::Number(n) => n.serialize(s),
            RequestId::Text(t) => t.serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_compare_print_and_serialize_as_their_values() {
        for v in [
            json!(7),
            json!(-3),
            json!(u64::MAX),
            json!("a\"b"),
            json!(""),
        ] {
            let id = RequestId::of(&v).expect("an id");
            assert!(id.is(&v));
            assert_eq!(id.to_value(), v);
            assert_eq!(id.to_string(), v.to_string());
            assert_eq!(serde_json::to_value(&id).ok(), Some(v));
        }
        assert!(!RequestId::from(1).is(&json!(1.0)));
        assert!(!RequestId::text("1").is(&json!(1)));
        assert_eq!(RequestId::of(&json!(1.5)), None);
        assert_eq!(RequestId::of(&json!(null)), None);
    }
}
