//! `SharedSchema`: a tool's `outputSchema` as one shared value. The surface declares it
//! (discovery reads it) and the content lints demand conformance to it, so it lives apart
//! from both and neither imports the other for it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::sync::Arc;

/// A tool's `outputSchema`, shared by every Verdict that demands it (a clone is a count).
#[derive(Clone, Debug, PartialEq)]
pub struct SharedSchema(pub Arc<Value>);

impl Serialize for SharedSchema {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for SharedSchema {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SharedSchema, D::Error> {
        Value::deserialize(d).map(|v| SharedSchema(Arc::new(v)))
    }
}
