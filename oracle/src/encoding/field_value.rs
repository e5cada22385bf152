//! RFC 9110 §5.5 field-value validity, as the spec's Value Encoding section restates it:
//! visible ASCII (0x21-0x7E), space (0x20) and horizontal tab (0x09).

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

/// Classify `v` (the value after leading/trailing whitespace was removed).
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
