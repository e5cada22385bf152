//! How real HTTP stacks read header bytes the spec calls invalid characters (DEVIATIONS.md
//! D-51): as UTF-8 (most frameworks hand out `str`s), or as ISO-8859-1 (RFC 9110 §5.5's
//! historical reading of obs-text, which `fetch`, Python's `http.client` and Java do). A
//! forbidden-byte case isolates the character rule only when, under one of these readings,
//! the header says exactly what the body says: otherwise a server that skips the character
//! check still refuses it as a mismatch.

use crate::case::{trim_ows, Case};
use crate::encoding::{encode_header_value, field_value_class, FieldValueClass};

/// One way of turning header bytes into text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The bytes as UTF-8 (control bytes included, they are ASCII).
    Utf8,
    /// Each byte is the code point of the same value.
    Latin1,
    /// Bytes outside visible ASCII, space and HTAB dropped (a sanitizing layer; the
    /// `*-non-ascii-stripped` mutants).
    Stripped,
}

pub const READINGS: [Reading; 3] = [Reading::Utf8, Reading::Latin1, Reading::Stripped];

impl Reading {
    /// The text the bytes read as, if they read at all.
    pub fn read(self, bytes: &[u8]) -> Option<String> {
        match self {
            Reading::Utf8 => std::str::from_utf8(bytes).ok().map(str::to_string),
            Reading::Latin1 => Some(bytes.iter().map(|b| char::from(*b)).collect()),
            Reading::Stripped => Some(
                bytes
                    .iter()
                    .filter(|b| matches!(b, 0x20..=0x7e | b'\t'))
                    .map(|b| char::from(*b))
                    .collect(),
            ),
        }
    }

    /// The bytes `text` is sent as under this reading (`None`: not representable).
    pub fn bytes(self, text: &str) -> Option<Vec<u8>> {
        match self {
            Reading::Utf8 => Some(text.as_bytes().to_vec()),
            Reading::Latin1 => text
                .chars()
                .map(|c| u8::try_from(u32::from(c)).ok())
                .collect(),
            // many byte strings strip to one text: no inverse
            Reading::Stripped => None,
        }
    }
}

/// Whether a (trimmed) header value holds bytes the spec calls invalid characters (not the
/// internal HTAB, which AMB-03 leaves open).
pub fn has_invalid_chars(v: &[u8]) -> bool {
    matches!(
        field_value_class(trim_ows(v)),
        FieldValueClass::NonAscii | FieldValueClass::Control
    )
}

/// `case` with every field `which` selects that holds invalid characters replaced by the
/// conformant encoding of its text under `reading` (what a server that reads the bytes that
/// way and skips the character check compares with the body). `None` when no field changed.
pub fn reread(case: &Case, reading: Reading, which: impl Fn(&[u8]) -> bool) -> Option<Case> {
    let mut out = case.clone();
    let mut changed = false;
    for (n, v) in out.headers.iter_mut() {
        if !which(n) || !has_invalid_chars(v) {
            continue;
        }
        if let Some(text) = reading.read(trim_ows(v)) {
            *v = encode_header_value(&text).into_bytes();
            changed = true;
        }
    }
    changed.then_some(out)
}

/// `Mcp-Name` (the one standard header whose body value may hold any character).
pub fn is_name_header(n: &[u8]) -> bool {
    n.eq_ignore_ascii_case(b"Mcp-Name")
}

/// `Mcp-Param-*`.
pub fn is_param_header(n: &[u8]) -> bool {
    n.len() > 10 && n[..10].eq_ignore_ascii_case(b"mcp-param-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_round_trip() {
        assert_eq!(Reading::Latin1.read(b"caf\xe9").as_deref(), Some("café"));
        assert_eq!(Reading::Utf8.read(b"caf\xe9"), None);
        assert_eq!(
            Reading::Utf8.read("café".as_bytes()).as_deref(),
            Some("café")
        );
        assert_eq!(Reading::Latin1.bytes("café"), Some(b"caf\xe9".to_vec()));
        assert_eq!(Reading::Latin1.bytes("世界"), None);
        assert!(has_invalid_chars(b"a\x01b") && !has_invalid_chars(b"a\tb"));
    }
}
