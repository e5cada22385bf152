//! One pass over a case's header fields: every header the judge reads, as the server's HTTP
//! layer sees it (`HeaderField`), and the header-level facts the judge needs (parser-refusable
//! bytes, odd name case, padding, any `Mcp-Param-*`). The judge used to look each header up
//! with its own scan of the fields, several times per case (issue 7).

use super::swar::{has_byte_below, has_zero_byte, ONES};
use crate::case::{trim_ows, Case, HeaderField};
use crate::rules::{self, RuleId};

/// The headers of one case, looked up once.
pub(crate) struct HeaderIndex<'c> {
    pub origin: HeaderField<'c>,
    pub content_type: HeaderField<'c>,
    pub accept: HeaderField<'c>,
    pub protocol_version: HeaderField<'c>,
    pub method: HeaderField<'c>,
    pub name: HeaderField<'c>,
    pub session_id: HeaderField<'c>,
    pub last_event_id: HeaderField<'c>,
    /// Some field is named `Mcp-Param-*` (any case).
    pub any_param: bool,
    /// A field an HTTP parser may refuse on its own: a name that is not a token, or a value
    /// with control bytes other than HTAB.
    pub parser_refusable: bool,
    /// The benign header-name-case and padding rules this case exercises, in the order
    /// their first field appears (`HDR_NAME_CI`, `HDR_OWS`).
    pub benign: [Option<RuleId>; 2],
}

const PARAM_PREFIX: &[u8] = b"mcp-param-";

/// Whether `name` is `Mcp-Param-*` in any case (with a non-empty suffix).
pub(crate) fn is_param_name(name: &[u8]) -> bool {
    name.len() > PARAM_PREFIX.len() && name[..PARAM_PREFIX.len()].eq_ignore_ascii_case(PARAM_PREFIX)
}

/// Whether `name` is `Mcp-Param-{header}` in any case.
pub(crate) fn is_param_named(name: &[u8], header: &str) -> bool {
    // the length first: it rules out nearly every other field without reading a byte
    name.len() == PARAM_PREFIX.len() + header.len()
        && is_param_name(name)
        && name[PARAM_PREFIX.len()..].eq_ignore_ascii_case(header.as_bytes())
}

/// The field `Mcp-Param-{header}` of `case`, like `Case::header` without building the name.
pub(crate) fn param_field<'c>(case: &'c Case, header: &str) -> HeaderField<'c> {
    let mut field = HeaderField::Absent;
    for (n, v) in &case.headers {
        if is_param_named(n, header) {
            add(&mut field, v);
        }
    }
    field
}

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

fn refusable(name: &[u8], value: &[u8]) -> bool {
    // no early exit: branch-free loops over short fields are faster than `any`
    let bad_name = name.iter().fold(false, |acc, b| acc | !TCHAR[*b as usize]);
    name.is_empty() || bad_name || bad_value(value)
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

impl<'c> HeaderIndex<'c> {
    pub fn new(case: &'c Case) -> HeaderIndex<'c> {
        let mut h = HeaderIndex {
            origin: HeaderField::Absent,
            content_type: HeaderField::Absent,
            accept: HeaderField::Absent,
            protocol_version: HeaderField::Absent,
            method: HeaderField::Absent,
            name: HeaderField::Absent,
            session_id: HeaderField::Absent,
            last_event_id: HeaderField::Absent,
            any_param: false,
            parser_refusable: false,
            benign: [None; 2],
        };
        for (n, v) in &case.headers {
            let n = n.as_slice();
            let v = v.as_slice();
            h.parser_refusable = h.parser_refusable || refusable(n, v);
            let eq = |known: &str| n.eq_ignore_ascii_case(known.as_bytes());
            // (the canonical spelling, when the field is a mirrored one)
            let mut mirrored: Option<&str> = None;
            let mut param = false;
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
                _ => {}
            }
            if mirrored.is_none() && is_param_name(n) {
                h.any_param = true;
                param = true;
            }
            let odd_case = match mirrored {
                Some(canonical) => n != canonical.as_bytes(),
                None => param && !n.starts_with(b"Mcp-Param-"),
            };
            if odd_case {
                h.note_benign(rules::HDR_NAME_CI);
            }
            if (mirrored.is_some() || param) && trim_ows(v).len() != v.len() {
                h.note_benign(rules::HDR_OWS);
            }
        }
        h
    }

    fn note_benign(&mut self, rule: RuleId) {
        for slot in &mut self.benign {
            match slot {
                Some(r) if *r == rule => return,
                Some(_) => {}
                None => {
                    *slot = Some(rule);
                    return;
                }
            }
        }
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
        let h = HeaderIndex::new(&case);
        assert_eq!(h.name, HeaderField::One(b"a"));
        assert_eq!(h.origin, HeaderField::Repeated);
        assert!(h.any_param && !h.parser_refusable);
        assert_eq!(h.benign, [Some(rules::HDR_NAME_CI), Some(rules::HDR_OWS)]);
        assert_eq!(param_field(&case, "region"), HeaderField::One(b"r"));
        assert_eq!(param_field(&case, "Opt"), HeaderField::Absent);
    }
}
