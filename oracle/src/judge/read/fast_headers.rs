//! The headers of a case in one pass: every field the rules read (`HeaderView`), by a
//! length-then-name match per field, with the parser-refusable bytes looked for a word at a
//! time.

use super::swar::{has_byte_below, has_zero_byte, ONES};
use crate::case::{trim_ows, Case, HeaderField};
use crate::judge::view::{is_param_name, HeaderQuirk, HeaderView};

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
/// by byte only when it may hold one (values are the longest part of a case's headers).
fn bad_value(value: &[u8]) -> bool {
    let mut chunks = value.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let maybe = has_byte_below(w, 0x20) || has_zero_byte(w ^ (ONES * 0x7f));
        // (a chunk whose only control byte is HTAB goes on to the next)
        if maybe && chunk.iter().any(|b| bad_value_byte(*b)) {
            return true;
        }
    }
    chunks.remainder().iter().any(|b| bad_value_byte(*b))
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
        let eq = |known: &str| n.eq_ignore_ascii_case(known.as_bytes());
        // (the canonical spelling, when the field is a mirrored one)
        let mut mirrored: Option<&str> = None;
        let mut param = false;
        // a name equal (ASCII case aside) to one of these is all `tchar`: no byte to check
        let mut known = true;
        match n.len() {
            6 if eq("origin") => add(&mut h.origin, v),
            6 if eq("accept") => add(&mut h.accept, v),
            8 if eq("mcp-name") => {
                add(&mut h.name, v);
                mirrored = Some("Mcp-Name");
            }
            10 if eq("mcp-method") => {
                add(&mut h.method, v);
                mirrored = Some("Mcp-Method");
            }
            12 if eq("content-type") => add(&mut h.content_type, v),
            13 if eq("last-event-id") => add(&mut h.last_event_id, v),
            14 if eq("mcp-session-id") => add(&mut h.session_id, v),
            20 if eq("mcp-protocol-version") => {
                add(&mut h.protocol_version, v);
                mirrored = Some("MCP-Protocol-Version");
            }
            _ => known = false,
        }
        h.parser_refusable = h.parser_refusable || (!known && bad_name(n)) || bad_value(v);
        if mirrored.is_none() && is_param_name(n) {
            h.params.push((n, trim_ows(v)));
            param = true;
        }
        let odd_case = match mirrored {
            Some(canonical) => n != canonical.as_bytes(),
            None => param && !n.starts_with(b"Mcp-Param-"),
        };
        if odd_case {
            note(&mut h, HeaderQuirk::NameCase);
        }
        if (mirrored.is_some() || param) && trim_ows(v).len() != v.len() {
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
