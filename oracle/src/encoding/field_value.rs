//! RFC 9110 §5.5 field-value validity, as the spec's Value Encoding section restates it:
//! visible ASCII (0x21-0x7E), space (0x20) and horizontal tab (0x09).
//!
//! This file owns only the byte classification of a received value; whether a client had to
//! encode a value is `sentinel::needs_encoding`.

/// How a (OWS-trimmed) header value's bytes classify.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldValueClass {
    /// Only visible ASCII and spaces.
    Valid,
    /// Valid, but with an internal horizontal tab: a valid field character that clients must
    /// nevertheless encode (AMB-03), so either outcome is accepted.
    InternalTab,
    /// Contains a byte >= 0x80 (obs-text): HTTP parsers pass it through, the spec calls it an
    /// invalid character.
    NonAscii,
    /// Contains a control byte (other than HTAB) or DEL: many HTTP parsers refuse these
    /// before the MCP layer sees them.
    Control,
}

/// Classify `v` (the value after leading/trailing whitespace was removed). The worst class
/// wins: `Control` over `NonAscii` over `InternalTab` over `Valid`.
// AMB-03: an internal HTAB is reported separately so the judge can accept either outcome.
pub fn field_value_class(v: &[u8]) -> FieldValueClass {
    let mut class = FieldValueClass::Valid;
    for &b in v {
        match b {
            0x20..=0x7E => {}
            0x09 => {
                if class == FieldValueClass::Valid {
                    class = FieldValueClass::InternalTab
                }
            }
            0x80..=0xFF => {
                if class != FieldValueClass::Control {
                    class = FieldValueClass::NonAscii
                }
            }
            _ => return FieldValueClass::Control,
        }
    }
    class
}

#[cfg(test)]
mod tests {
    use super::*;
    use FieldValueClass::*;

    #[test]
    fn classes() {
        assert_eq!(field_value_class(b""), Valid);
        assert_eq!(field_value_class(b"us west 1"), Valid);
        assert_eq!(field_value_class(b"!~=?base64?x?="), Valid);
        assert_eq!(field_value_class(b"a\tb"), InternalTab);
        assert_eq!(field_value_class("caf\u{e9}".as_bytes()), NonAscii);
        assert_eq!(field_value_class(b"a\x80"), NonAscii);
        assert_eq!(field_value_class(b"a\nb"), Control);
        assert_eq!(field_value_class(b"a\rb"), Control);
        assert_eq!(field_value_class(b"\0"), Control);
        assert_eq!(field_value_class(b"a\x7fb"), Control);
        assert_eq!(field_value_class(b"a\x1fb"), Control);
    }

    #[test]
    fn worst_class_wins_in_any_order() {
        assert_eq!(field_value_class(b"\xff\ta"), NonAscii);
        assert_eq!(field_value_class(b"a\t\xff"), NonAscii);
        assert_eq!(field_value_class(b"\xff\n"), Control);
        assert_eq!(field_value_class(b"\n\xff"), Control);
        assert_eq!(field_value_class(b"\t\x01"), Control);
    }
}
