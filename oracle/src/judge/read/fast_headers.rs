//! The headers of a case in one pass: every field the rules read (`HeaderView`). Each name
//! is classified once, by its length (and first byte) to the one known name it may be, then
//! three word compares against that name's spelling and its ASCII lowercase; the values are
//! looked at a word at a time for the bytes a parser refuses. The loop body has no branch
//! that depends on which known field a name is (the fields are slots in an array).

use crate::case::{trim_ows, Case, HeaderField};
use crate::encoding::field_words::{
    all_visible, any_refused_byte, ascii_lower, name_words, name_words_of, value_shape,
};
use crate::judge::view::{HeaderQuirk, HeaderView};

/// `is_tchar` as a table (it runs on every byte of a header name no known name matches).
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

/// Whether `name` holds a byte outside `tchar`.
fn bad_token(name: &[u8]) -> bool {
    // no early exit: branch-free loops over short fields are faster than `any`
    name.iter().fold(false, |acc, b| acc | !TCHAR[*b as usize])
}

/// The slots of the fields the rules read, in `HeaderView` order; `NO_SLOT` is an unknown
/// name's (its fields are folded nowhere: no rule reads them, and a fold of a repeated one
/// compares its values).
const ORIGIN: usize = 0;
const CONTENT_TYPE: usize = 1;
const ACCEPT: usize = 2;
const PROTOCOL_VERSION: usize = 3;
const METHOD: usize = 4;
const NAME: usize = 5;
const SESSION_ID: usize = 6;
const LAST_EVENT_ID: usize = 7;
const NO_SLOT: usize = 8;

/// A field name the rules read, as words (`name_words`) in the spec's spelling and in ASCII
/// lowercase.
struct Known {
    len: usize,
    exact: [u64; 3],
    lower: [u64; 3],
    slot: usize,
    /// One of the mirrored headers, whose name case and padding are quirks.
    mirrored: bool,
}

const fn known(name: &str, slot: usize, mirrored: bool) -> Known {
    let exact = name_words(name.as_bytes());
    Known {
        len: name.len(),
        exact,
        lower: [
            ascii_lower(exact[0]),
            ascii_lower(exact[1]),
            ascii_lower(exact[2]),
        ],
        slot,
        mirrored,
    }
}

/// No name the rules read (its length is no name's).
static UNKNOWN: Known = Known {
    len: usize::MAX,
    exact: [0; 3],
    lower: [0; 3],
    slot: NO_SLOT,
    mirrored: false,
};

/// The names the rules read.
static KNOWN: [Known; 8] = [
    known("Origin", ORIGIN, false),
    known("Accept", ACCEPT, false),
    known("Mcp-Name", NAME, true),
    known("Mcp-Method", METHOD, true),
    known("Content-Type", CONTENT_TYPE, false),
    known("Last-Event-ID", LAST_EVENT_ID, false),
    known("Mcp-Session-Id", SESSION_ID, false),
    known("MCP-Protocol-Version", PROTOCOL_VERSION, true),
];

/// The known name a name may be, by `2 * length + (first byte is a or A)`: the lengths are
/// all different but for `Origin` and `Accept`.
static BY_LENGTH: [&Known; 42] = {
    let mut t = [&UNKNOWN; 42];
    let mut i = 0;
    while i < KNOWN.len() {
        let k = &KNOWN[i];
        let starts_with_a = k.exact[0] as u8 | 0x20 == b'a';
        t[2 * k.len + starts_with_a as usize] = k;
        if k.len != 6 {
            t[2 * k.len + 1 - starts_with_a as usize] = k;
        }
        i += 1;
    }
    t
};

/// The known name `name` may be.
fn candidate(name: &[u8]) -> &'static Known {
    let starts_with_a = name.first().is_some_and(|b| b | 0x20 == b'a');
    let at = 2 * name.len() + usize::from(starts_with_a);
    BY_LENGTH.get(at).copied().unwrap_or(&UNKNOWN)
}

/// `Mcp-Param-` as the words at 0 and 2 of a name: spelled, and in ASCII lowercase.
const PARAM_PREFIX: [u64; 2] = {
    let w = name_words(b"Mcp-Param-");
    // (for ten bytes the middle word is [1, 9) and the last [2, 10))
    [w[0], w[2]]
};
const PARAM_PREFIX_LOWER: [u64; 2] = [ascii_lower(PARAM_PREFIX[0]), ascii_lower(PARAM_PREFIX[1])];

/// Whether a name of more than ten bytes starts with `Mcp-Param-`, as (any case, spelled).
fn param_prefix(name: &[u8]) -> (bool, bool) {
    let at = |i: usize| {
        name.get(i..)
            .and_then(<[u8]>::first_chunk::<8>)
            .map_or(0, |w| u64::from_le_bytes(*w))
    };
    let prefix = [at(0), at(2)];
    let spelled = prefix == PARAM_PREFIX;
    let any_case = spelled || prefix.map(ascii_lower) == PARAM_PREFIX_LOWER;
    (name.len() > 10 && any_case, spelled)
}

/// Whether two names' words are equal (no early exit: three words are compared at once).
fn same_words(a: [u64; 3], b: [u64; 3]) -> bool {
    ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2])) == 0
}

/// The headers of `case` as the rules read them.
#[cfg(test)]
pub(crate) fn read_headers(case: &Case) -> HeaderView<'_> {
    let mut h = HeaderView::default();
    read_headers_into(case, &mut h);
    h
}

/// The headers of `case` as the rules read them, written into `h` (as `HeaderView::default`
/// leaves it): filled in place inside the request's view, not built and then copied in
/// (the view is large).
pub(crate) fn read_headers_into<'c>(case: &'c Case, h: &mut HeaderView<'c>) {
    let mut fields = [HeaderField::Absent; NO_SLOT];
    let params = &mut h.params;
    let quirks = &mut h.quirks;
    let mut parser_refusable = false;
    let mut mirrored_visible = true;
    for (n, v) in &case.headers {
        let (n, v) = (n.as_slice(), v.as_slice());
        let k = candidate(n);
        let words = name_words_of(n);
        let same_length = n.len() == k.len;
        let exact = same_length & same_words(words, k.exact);
        // (folding case only for the rare name not in the spec's spelling)
        let known = exact || (same_length && same_words(words.map(ascii_lower), k.lower));
        let shape = value_shape(v);
        let padded = shape.padded;
        if known {
            // (trimming only the rare padded value)
            let field = &mut fields[k.slot];
            *field = field.and_another(if padded { trim_ows(v) } else { v });
        }
        // a name equal (ASCII case aside) to a known one is all `tchar`: no byte to check
        let (mut odd_case, mut quirky) = (known & k.mirrored & !exact, known & k.mirrored);
        if !known {
            let (param, spelled) = param_prefix(n);
            // (a `Mcp-Param-` prefix in any case is all `tchar`)
            let token_from = if param { 10 } else { 0 };
            parser_refusable |= n.is_empty() || bad_token(&n[token_from..]);
            if param {
                params.push((n, trim_ows(v)));
                odd_case = !spelled;
                quirky = true;
            }
        }
        // (nearly every value is all visible; the others are looked at byte by byte)
        if !shape.all_visible {
            not_all_visible(v, quirky, &mut parser_refusable, &mut mirrored_visible);
        }
        if odd_case | (quirky & padded) {
            note_quirks(quirks, odd_case, quirky & padded);
        }
    }
    h.origin = fields[ORIGIN];
    h.content_type = fields[CONTENT_TYPE];
    h.accept = fields[ACCEPT];
    h.protocol_version = fields[PROTOCOL_VERSION];
    h.method = fields[METHOD];
    h.name = fields[NAME];
    h.session_id = fields[SESSION_ID];
    h.last_event_id = fields[LAST_EVENT_ID];
    h.parser_refusable = parser_refusable;
    h.mirrored_visible = mirrored_visible;
}

/// Note a value with a byte outside visible ASCII and SP: whether an HTTP parser may refuse
/// it, and, for a mirrored or `Mcp-Param-*` field, whether it is all visible without its
/// OWS (an end HTAB is no byte of the value the rules read).
#[cold]
#[inline(never)]
fn not_all_visible(v: &[u8], mirrored: bool, refusable: &mut bool, mirrored_visible: &mut bool) {
    *refusable |= any_refused_byte(v);
    if mirrored {
        *mirrored_visible &= all_visible(trim_ows(v));
    }
}

/// Record a field's quirks, each once, name case first (the order `read_simple` notes them).
#[cold]
#[inline(never)]
fn note_quirks(quirks: &mut smallvec::SmallVec<[HeaderQuirk; 2]>, odd_case: bool, padding: bool) {
    for (q, present) in [
        (HeaderQuirk::NameCase, odd_case),
        (HeaderQuirk::Padding, padding),
    ] {
        if present && !quirks.contains(&q) {
            quirks.push(q);
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
    fn each_known_name_has_its_own_entry() {
        let names = [
            "Origin",
            "Accept",
            "Mcp-Name",
            "Mcp-Method",
            "Content-Type",
            "Last-Event-ID",
            "Mcp-Session-Id",
            "MCP-Protocol-Version",
        ];
        for (i, name) in names.iter().enumerate() {
            let k = candidate(name.as_bytes());
            assert!(std::ptr::eq(k, &KNOWN[i]), "{name}");
            assert_eq!((k.len, k.exact), (name.len(), name_words(name.as_bytes())));
        }
        assert!(std::ptr::eq(candidate(b"accept"), &KNOWN[1]));
        assert!(std::ptr::eq(candidate(b"origin"), &KNOWN[0]));
        assert!(std::ptr::eq(candidate(b"aaaaaaaa"), &KNOWN[2]));
        assert!(std::ptr::eq(candidate(b""), &UNKNOWN));
        assert!(std::ptr::eq(candidate(b"x"), &UNKNOWN));
        assert!(std::ptr::eq(candidate(&[b'a'; 300]), &UNKNOWN));
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
        assert_eq!(
            h.origin,
            HeaderField::Repeated {
                first: b"x",
                other: b"y",
                count: 2
            }
        );
        assert!(h.any_param() && !h.parser_refusable);
        assert_eq!(&h.quirks[..], [HeaderQuirk::NameCase, HeaderQuirk::Padding]);
        assert_eq!(h.param("region"), HeaderField::One(b"r"));
        assert_eq!(h.param("Opt"), HeaderField::Absent);
    }
}
