//! «`inputRequests` keys are server assigned identifiers and MUST be unique within the scope
//! of the request.» (basic/patterns/mrtr.mdx § Server Requirements (Basic Workflow);
//! MRTR-KEYS-UNIQUE), read as DEVIATIONS.md D-171 says: the scope of a request is the one
//! `InputRequiredResult` that answers it (a retry is an independent request), so the rule is
//! broken by an `inputRequests` object whose text names one member twice. A parsed JSON value
//! keeps one member per name, so the check reads the message's text: the transport (and the
//! reference's raw bodies) record the finding in `WireFields::duplicate_input_keys`.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Whether the JSON text of one message holds a `result.inputRequests` object that names a
/// member twice (names compared after unescaping). Text that is not JSON holds none.
pub fn duplicate_input_request_keys(text: &[u8]) -> bool {
    // nearly every message has no `inputRequests`: skip the second parse
    if !contains(text, b"inputRequests") {
        return false;
    }
    let mut de = serde_json::Deserializer::from_slice(text);
    Scan(Level::Message).deserialize(&mut de).unwrap_or(false)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Where the scan is: the message, its `result`, or the `inputRequests` object.
#[derive(Clone, Copy)]
enum Level {
    Message,
    Result,
    Keys,
}

/// Reads one value and says whether a duplicate `inputRequests` member was found in it.
struct Scan(Level);

impl<'de> DeserializeSeed<'de> for Scan {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scan {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut found = false;
        let mut seen: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let next = match (self.0, key.as_str()) {
                (Level::Message, "result") => Some(Level::Result),
                (Level::Result, "inputRequests") => Some(Level::Keys),
                _ => None,
            };
            match next {
                Some(level) => found |= map.next_value_seed(Scan(level))?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            if let Level::Keys = self.0 {
                found |= seen.contains(&key);
                seen.push(key);
            }
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(false)
    }

    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_twice_in_input_requests_is_found() {
        let dup = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",
            "inputRequests":{"a":{"method":"roots/list"},"a":{"method":"roots/list"}}}}"#;
        assert!(duplicate_input_request_keys(dup));
        // the same name spelled with an escape is the same name
        let escaped = br#"{"result":{"inputRequests":{"a":{},"\u0061":{}}}}"#;
        assert!(duplicate_input_request_keys(escaped));
    }

    #[test]
    fn distinct_names_and_other_places_pass() {
        for ok in [
            &br#"{"result":{"inputRequests":{"a":{},"b":{"a":1,"a":2}}}}"#[..],
            br#"{"result":{"x":{"a":1,"a":2}},"inputRequests":{"a":1,"a":2}}"#,
            br#"{"result":{"inputRequests":[1,2]}}"#,
            br#"{"result":5}"#,
            br#"[{"result":{"inputRequests":{"a":1,"a":2}}}]"#,
            b"not json inputRequests",
            br#"{"result":{"resultType":"complete"}}"#,
        ] {
            assert!(
                !duplicate_input_request_keys(ok),
                "{}",
                String::from_utf8_lossy(ok)
            );
        }
    }
}
