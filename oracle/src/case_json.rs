//! How a [`Case`](crate::Case)'s bytes (header names, values, body) are written in JSON: as
//! a JSON string when they are UTF-8 text, else as `{"base64": "<RFC 4648 standard alphabet,
//! padded>"}`. Every byte sequence survives: a string carries any UTF-8 (control bytes as
//! `\u00XX` escapes), and the marked form everything else.
//!
//! Reading takes both of those and the form mcpdiff wrote before, an array of byte numbers
//! (`[80, 79, 83, 84]`), so reports and corpus entries written earlier still load.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The key of the marked form of bytes that are not UTF-8.
pub const BASE64_KEY: &str = "base64";

/// One byte sequence in its JSON form.
pub struct Text<'a>(pub &'a [u8]);

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(self.0) {
            Ok(text) => s.serialize_str(text),
            Err(_) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry(BASE64_KEY, &STANDARD.encode(self.0))?;
                m.end()
            }
        }
    }
}

/// A byte sequence read from any of the three forms.
pub struct Bytes(pub Vec<u8>);

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        d.deserialize_any(BytesVisitor).map(Bytes)
    }
}

struct BytesVisitor;

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string, {\"base64\": \"...\"} or an array of bytes")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
        Ok(v.as_bytes().to_vec())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(b) = seq.next_element::<u8>()? {
            out.push(b);
        }
        Ok(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<u8>, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            if key != BASE64_KEY || found.is_some() {
                return Err(de::Error::custom(format!(
                    "bytes that are not text are written {{\"{BASE64_KEY}\": \"...\"}} alone, \
                     not with '{key}'"
                )));
            }
            let text: String = map.next_value()?;
            found = Some(
                STANDARD
                    .decode(text.as_bytes())
                    .map_err(|e| de::Error::custom(format!("not valid Base64: {e}")))?,
            );
        }
        found.ok_or_else(|| {
            de::Error::custom(format!(
                "an empty object, not {{\"{BASE64_KEY}\": \"...\"}}"
            ))
        })
    }
}

/// `#[serde(with = "case_json::bytes")]`: one byte sequence (a body, a header value).
pub mod bytes {
    use super::{Bytes, Text};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        Text(b).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        Bytes::deserialize(d).map(|b| b.0)
    }
}

/// `#[serde(with = "case_json::headers")]`: the header fields as `[name, value]` pairs.
pub mod headers {
    use super::*;

    /// A case's header fields: (name, value) byte pairs.
    type Fields = Vec<(Vec<u8>, Vec<u8>)>;

    struct Pair<'a>(&'a [u8], &'a [u8]);

    impl Serialize for Pair<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple(2)?;
            t.serialize_element(&Text(self.0))?;
            t.serialize_element(&Text(self.1))?;
            t.end()
        }
    }

    pub fn serialize<S: Serializer>(h: &[(Vec<u8>, Vec<u8>)], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(h.len()))?;
        for (n, v) in h {
            seq.serialize_element(&Pair(n, v))?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fields, D::Error> {
        let pairs = Vec::<(Bytes, Bytes)>::deserialize(d)?;
        Ok(pairs.into_iter().map(|(n, v)| (n.0, v.0)).collect())
    }
}

#[cfg(test)]
mod tests {
    use crate::Case;

    fn case(headers: Vec<(Vec<u8>, Vec<u8>)>, body: &[u8]) -> Case {
        Case {
            method: "POST".into(),
            path: "/mcp".into(),
            headers,
            body: body.to_vec(),
            labels: Vec::new(),
        }
    }

    #[test]
    fn text_is_written_as_strings_and_other_bytes_marked() {
        let c = case(
            vec![
                (b"Content-Type".to_vec(), b"application/json".to_vec()),
                (b"X-Bin".to_vec(), vec![0xff, 0x00, b'a']),
                (b"X-Ctl".to_vec(), b"a\r\nb\x01".to_vec()),
            ],
            b"{\"jsonrpc\":\"2.0\"}",
        );
        let json = serde_json::to_value(&c).expect("serializes");
        assert_eq!(
            json["headers"],
            serde_json::json!([
                ["Content-Type", "application/json"],
                ["X-Bin", {"base64": "/wBh"}],
                ["X-Ctl", "a\r\nb\u{1}"],
            ])
        );
        assert_eq!(json["body"], "{\"jsonrpc\":\"2.0\"}");
        let back: Case = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, c);
        let odd = case(Vec::new(), &[0xc3]);
        let json = serde_json::to_value(&odd).expect("serializes");
        assert_eq!(json["body"], serde_json::json!({"base64": "ww=="}));
        assert_eq!(serde_json::from_value::<Case>(json).expect("reads"), odd);
    }

    #[test]
    fn the_byte_array_form_still_reads() {
        let old = r#"{"method":"POST","path":"/mcp","headers":[[[65],[98,255]]],"body":[123,125]}"#;
        let c: Case = serde_json::from_str(old).expect("old form reads");
        assert_eq!(c.headers, vec![(b"A".to_vec(), vec![98, 255])]);
        assert_eq!(c.body, b"{}");
    }

    #[test]
    fn a_malformed_marked_form_is_refused() {
        for bad in [
            r#"{"method":"GET","path":"/","headers":[],"body":{"base64":"%%"}}"#,
            r#"{"method":"GET","path":"/","headers":[],"body":{"hex":"00"}}"#,
            r#"{"method":"GET","path":"/","headers":[],"body":{}}"#,
            r#"{"method":"GET","path":"/","headers":[],"body":[256]}"#,
        ] {
            assert!(serde_json::from_str::<Case>(bad).is_err(), "{bad}");
        }
    }
}
