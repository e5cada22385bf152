//! The headers of a case in one pass: every field the rules read (`HeaderView`), by a
//! length-then-name match per field, with the parser-refusable bytes looked for a word at a
//! time.

use super::swar::{has_byte_below, has_zero_byte, ONES};
use crate::case::{trim_ows, Case, HeaderField};
use crate::judge::view::{HeaderQuirk, HeaderView};

fn add<'c>(field: &mut HeaderField<'c>, value: &'c [u8]) {
    *field = match field {
        HeaderField::Absent => HeaderField::One(trim_ows(value)),
        _ => HeaderField::Repeated,
    };
}

/// `is_tchar` as a table (it runs on every byte of every header name).
static TCHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        c += 1;
    }
    t
};

/// Whether `name` is empty or holds a byte outside `tchar`.
fn bad_name(name: &[u8]) -> bool {
    // no early exit: branch-free loops over short fields are faster than `any`
    let bad = name.iter().fold(false, |acc, b| acc | !TCHAR[*b as usize]);
    name.is_empty() || bad
}

/// A control byte other than HTAB, or DEL.
fn bad_value_byte(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7f
}

/// Whether `value` holds a `bad_value_byte`: eight bytes at a time, a chunk looked at byte
/// by byte only when it may hold one (values are the longest part of a case's headers). A
/// value of eight bytes or more ends with one last word that overlaps the chunks before it,
/// so no byte is looked at one by one unless it may be a bad one.
fn bad_value(value: &[u8]) -> bool {
    let maybe_bad = |chunk: &[u8; 8]| {
        let w = u64::from_le_bytes(*chunk);
        has_byte_below(w, 0x20) || has_zero_byte(w ^ (ONES * 0x7f))
    };
    // (a chunk whose only control byte is HTAB is fine)
    let bad = |chunk: &[u8; 8]| maybe_bad(chunk) && chunk.iter().any(|b| bad_value_byte(*b));
    if value.len() < 8 {
        return value.iter().any(|b| bad_value_byte(*b));
    }
    let (chunks, rest) = value.as_chunks::<8>();
    if chunks.iter().any(bad) {
        return true;
    }
    // (the last eight bytes exist: the value is at least eight long)
    !rest.is_empty() && value.last_chunk::<8>().is_some_and(bad)
}

/// How a field name compares with a known one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spelling {
    /// Byte for byte the spec's spelling.
    Exact,
    /// The same name in another ASCII case.
    OtherCase,
    Different,
}

/// `name` against `canonical` (same length known): the spec's spelling, which conformant
/// clients send, is one fixed-length compare; any other case falls back to case folding.
fn spelling(name: &[u8], canonical: &[u8]) -> Spelling {
    if name == canonical {
        Spelling::Exact
    } else if name.eq_ignore_ascii_case(canonical) {
        Spelling::OtherCase
    } else {
        Spelling::Different
    }
}

/// `Mcp-Param-*` (with a non-empty suffix) as spelled: `None` when the name is not one.
fn param_spelling(name: &[u8]) -> Option<Spelling> {
    const CANONICAL: &[u8] = b"Mcp-Param-";
    if name.len() <= CANONICAL.len() {
        return None;
    }
    match spelling(&name[..CANONICAL.len()], CANONICAL) {
        Spelling::Different => None,
        s => Some(s),
    }
}

/// The headers of `case` as the rules read them.
pub(crate) fn read_headers(case: &Case) -> HeaderView<'_> {
    let mut h = HeaderView {
        origin: HeaderField::Absent,
        content_type: HeaderField::Absent,
        accept: HeaderField::Absent,
        protocol_version: HeaderField::Absent,
        method: HeaderField::Absent,
        name: HeaderField::Absent,
        session_id: HeaderField::Absent,
        last_event_id: HeaderField::Absent,
        params: smallvec::SmallVec::new(),
        parser_refusable: false,
        quirks: smallvec::SmallVec::new(),
    };
    for (n, v) in &case.headers {
        let n = n.as_slice();
        let v = v.as_slice();
        // the field this name is, if the rules read it, and how it is spelled
        let (field, spelled, mirrored) = match n.len() {
            6 => match spelling(n, b"Origin") {
                Spelling::Different => (Some(&mut h.accept), spelling(n, b"Accept"), false),
                s => (Some(&mut h.origin), s, false),
            },
            8 => (Some(&mut h.name), spelling(n, b"Mcp-Name"), true),
            10 => (Some(&mut h.method), spelling(n, b"Mcp-Method"), true),
            12 => (
                Some(&mut h.content_type),
                spelling(n, b"Content-Type"),
                false,
            ),
            13 => (
                Some(&mut h.last_event_id),
                spelling(n, b"Last-Event-ID"),
                false,
            ),
            14 => (
                Some(&mut h.session_id),
                spelling(n, b"Mcp-Session-Id"),
                false,
            ),
            20 => (
                Some(&mut h.protocol_version),
                spelling(n, b"MCP-Protocol-Version"),
                true,
            ),
            _ => (None, Spelling::Different, false),
        };
        let known = spelled != Spelling::Different;
        if let (Some(field), true) = (field, known) {
            add(field, v);
        }
        let mirrored = mirrored && known;
        // a name equal (ASCII case aside) to a known one is all `tchar`: no byte to check
        h.parser_refusable = h.parser_refusable || (!known && bad_name(n)) || bad_value(v);
        let param = if known { None } else { param_spelling(n) };
        if param.is_some() {
            h.params.push((n, trim_ows(v)));
        }
        let odd_case = match param {
            Some(s) => s == Spelling::OtherCase,
            None => mirrored && spelled == Spelling::OtherCase,
        };
        if odd_case {
            note(&mut h, HeaderQuirk::NameCase);
        }
        if (mirrored || param.is_some()) && trim_ows(v).len() != v.len() {
            note(&mut h, HeaderQuirk::Padding);
        }
    }
    h
}

fn note(h: &mut HeaderView<'_>, quirk: HeaderQuirk) {
    if !h.quirks.contains(&quirk) {
        h.quirks.push(quirk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_table_is_is_tchar() {
        for b in 0..=255u8 {
            assert_eq!(TCHAR[b as usize], crate::annotations::is_tchar(b), "{b:#x}");
        }
    }

    #[test]
    fn bad_value_is_any_bad_byte_at_every_place_and_length() {
        // every length around the word size, every byte at every place (chunks, the
        // overlapping last word, and the short byte-by-byte values)
        for len in 1..=26 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut v = vec![b'a'; len];
                    v[at] = b;
                    assert_eq!(bad_value(&v), bad_value_byte(b), "{b:#x} at {at} of {len}");
                }
            }
        }
        assert!(!bad_value(b""));
    }

    #[test]
    fn known_names_in_any_case_and_near_misses() {
        let case = Case::post(
            "/mcp",
            &[
                ("accept", "a"),
                ("ORIGIN", "o"),
                ("Mcp-Param-", "no suffix"),
                ("mcp-paraM-x", "p"),
                ("Mcp-Methox", "not a known name"),
                ("mcp-protocol-version", "v"),
            ],
            "",
        );
        let h = read_headers(&case);
        assert_eq!(h.accept, HeaderField::One(b"a"));
        assert_eq!(h.origin, HeaderField::One(b"o"));
        assert_eq!(h.method, HeaderField::Absent);
        assert_eq!(h.protocol_version, HeaderField::One(b"v"));
        assert_eq!(&h.params[..], [(&b"mcp-paraM-x"[..], &b"p"[..])]);
        assert_eq!(&h.quirks[..], [HeaderQuirk::NameCase]);
    }

    #[test]
    fn repeated_and_odd_case_fields() {
        let case = Case::post(
            "/mcp",
            &[
                ("mcp-name", " a "),
                ("Origin", "x"),
                ("ORIGIN", "y"),
                ("mcp-param-Region", "r"),
                ("Mcp-Param-Flag", "f"),
            ],
            "",
        );
        let h = read_headers(&case);
        assert_eq!(h.name, HeaderField::One(b"a"));
        assert_eq!(h.origin, HeaderField::Repeated);
        assert!(h.any_param() && !h.parser_refusable);
        assert_eq!(&h.quirks[..], [HeaderQuirk::NameCase, HeaderQuirk::Padding]);
        assert_eq!(h.param("region"), HeaderField::One(b"r"));
        assert_eq!(h.param("Opt"), HeaderField::Absent);
    }
}
