//! Properties of the Base64 sentinel codec (streamable-http.mdx § Value Encoding).

use mcpdiff_oracle::encoding::sentinel::{decoded_text, matches_sentinel_pattern};
use mcpdiff_oracle::encoding::{
    decode_header_value, encode_header_value, field_value_class, needs_encoding, DecodedValue,
    FieldValueClass,
};
use mcpdiff_props::strategies::values::{
    header_string, header_text, plain_ascii, raw_header_bytes,
};
use proptest::prelude::*;

/// The spec's encoding table, verbatim (original value, header line).
const SPEC_TABLE: [(&str, &str); 5] = [
    ("us-west1", "Mcp-Param-Region: us-west1"),
    (
        "Hello, 世界",
        "Mcp-Param-Greeting: =?base64?SGVsbG8sIOS4lueVjA==?=",
    ),
    (" padded ", "Mcp-Param-Text: =?base64?IHBhZGRlZCA=?="),
    (
        "line1\nline2",
        "Mcp-Param-Text: =?base64?bGluZTEKbGluZTI=?=",
    ),
    (
        "=?base64?literal?=",
        "Mcp-Param-Val: =?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
    ),
];

#[test]
fn every_row_of_the_spec_table_is_reproduced() {
    for (original, line) in SPEC_TABLE {
        let (name, value) = line.split_once(": ").expect("header line");
        assert_eq!(
            encode_header_value(original),
            value,
            "{name} for {original:?}"
        );
        let expected = if value == original {
            DecodedValue::Plain(original.as_bytes().to_vec())
        } else {
            DecodedValue::Decoded(original.to_string())
        };
        assert_eq!(decode_header_value(value.as_bytes()), expected);
    }
}

proptest! {
    /// encode then decode gives the value back, and strictly (never `Lenient`).
    #[test]
    fn sentinel_round_trip(s in header_string()) {
        let header = encode_header_value(&s);
        let decoded = decode_header_value(header.as_bytes());
        prop_assert!(
            matches!(decoded, DecodedValue::Plain(_) | DecodedValue::Decoded(_)),
            "{:?}", decoded
        );
        prop_assert_eq!(decoded_text(&decoded), Some(s.as_str()));
    }

    /// A value that needs no encoding is sent as-is and read back as plain.
    #[test]
    fn plain_values_stay_plain(
        s in prop_oneof![3 => plain_ascii(), 1 => Just(String::new()), 1 => header_string()]
    ) {
        if needs_encoding(&s) {
            return Ok(());
        }
        prop_assert_eq!(encode_header_value(&s), s.clone());
        prop_assert_eq!(decode_header_value(s.as_bytes()), DecodedValue::Plain(s.into_bytes()));
    }

    /// Encoding happens exactly when the spec says it must (non-ASCII, control characters,
    /// leading/trailing whitespace, sentinel look-alike), per generated family and per the
    /// character-level definition.
    #[test]
    fn encoded_exactly_when_required((s, kind) in header_text()) {
        prop_assert_eq!(needs_encoding(&s), kind.must_encode(), "{:?} {:?}", s, kind);
        let required = s.chars().any(|c| !(' '..='~').contains(&c))
            || s.starts_with([' ', '\t'])
            || s.ends_with([' ', '\t'])
            || (s.starts_with("=?base64?") && s.ends_with("?="));
        prop_assert_eq!(needs_encoding(&s), required);
        let header = encode_header_value(&s);
        prop_assert_eq!(header != s, required);
        // what goes on the wire is always a valid, plain-ASCII field value
        prop_assert!(header.bytes().all(|b| (0x20..=0x7e).contains(&b)));
        prop_assert!(!header.starts_with(' ') && !header.ends_with(' '));
        prop_assert_eq!(field_value_class(header.as_bytes()), FieldValueClass::Valid);
        if required {
            prop_assert!(header.starts_with("=?base64?") && header.ends_with("?="));
        }
    }

    #[test]
    fn any_string_round_trips(s in any::<String>()) {
        let header = encode_header_value(&s);
        let decoded = decode_header_value(header.as_bytes());
        prop_assert_eq!(decoded_text(&decoded), Some(s.as_str()));
    }

    /// Decoding never panics, and is consistent with the sentinel shape.
    #[test]
    fn decode_is_total(raw in raw_header_bytes()) {
        let d = decode_header_value(&raw);
        let shaped = raw.len() >= 11 && matches_sentinel_pattern(&raw);
        prop_assert_eq!(matches!(d, DecodedValue::Plain(_)), !shaped);
        if let DecodedValue::Plain(b) = &d {
            prop_assert_eq!(b, &raw);
        }
        let _ = field_value_class(&raw);
    }

    #[test]
    fn decode_is_total_on_sentinel_payloads(payload in prop::collection::vec(any::<u8>(), 0..40)) {
        let raw = [b"=?base64?".as_slice(), &payload, b"?="].concat();
        let d = decode_header_value(&raw);
        prop_assert!(!matches!(d, DecodedValue::Plain(_)));
    }
}
