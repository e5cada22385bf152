//! Header edits: the MCP headers a case carries (`MCP-Protocol-Version`, `Mcp-Method`,
//! `Mcp-Name`, `Mcp-Param-*`) removed, mismatched, duplicated, recased, padded, emptied,
//! given control or non-ASCII bytes, sentinel-encoded validly and invalidly; integer and
//! boolean spellings in `Mcp-Param-*`; Origin values; session and resume headers;
//! Content-Type and Accept; the HTTP verb.
//!
//! `HEADER_EDITS` is the family's table: each row is one variant's label, weight and draw.

use super::EditRow;
use crate::choice::{Draw, Pick, Source};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use mcpdiff_oracle::Case;

/// One header edit. `Pick` chooses among the MCP headers the case carries.
#[derive(Clone, Debug, PartialEq)]
pub enum HeaderEdit {
    Remove(Pick),
    /// Replace the value by a plausible but different one.
    Mismatch(Pick, &'static str),
    Duplicate(Pick, bool),
    NameCase(Pick, u8),
    ValueCase(Pick),
    Pad(Pick, &'static str),
    Empty(Pick),
    Control(Pick, u8),
    NonAscii(Pick, &'static [u8]),
    SentinelValid(Pick),
    SentinelInvalid(Pick, SentinelFlaw),
    IntSpelling(Pick, &'static str),
    BoolSpelling(Pick, &'static str),
    Origin(&'static str),
    SessionId,
    LastEventId,
    ContentType(Option<&'static str>),
    Accept(Option<&'static str>),
    Verb(&'static str),
    UnknownParam(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SentinelFlaw {
    BadChars,
    NoPadding,
    UrlSafe,
    NotUtf8,
    UpperMarkers,
    NoSuffix,
}

const MISMATCHES: [&str; 11] = [
    "tools/list",
    "prompts/get",
    "get_weather",
    "other",
    "2025-11-25",
    "2026-07-29",
    "us-west1",
    "43",
    "false",
    "=?base64?dXMtd2VzdDE=?=",
    "file:///etc/passwd",
];
const ORIGINS: [&str; 9] = [
    "https://evil.example",
    "http://localhost.evil.example",
    "null",
    "http://127.0.0.1.nip.io",
    "http://localhost:9999",
    "http://[::1]:8080",
    "file://",
    "http://attacker.com:80",
    "HTTPS://EVIL.EXAMPLE",
];
const FLAWS: [SentinelFlaw; 6] = [
    SentinelFlaw::BadChars,
    SentinelFlaw::NoPadding,
    SentinelFlaw::UrlSafe,
    SentinelFlaw::NotUtf8,
    SentinelFlaw::UpperMarkers,
    SentinelFlaw::NoSuffix,
];

/// A header row's draw: the variant's values, given the target drawn before the row.
pub type HeaderDraw = fn(&mut dyn Source, Pick) -> HeaderEdit;

/// The header edits, weighted as the families matter (mismatches and removals most). The
/// target is drawn before the row (`draw`), so every row gets one whether it uses it or not.
pub const HEADER_EDITS: &[EditRow<HeaderDraw>] = &[
    EditRow::new("Remove", 8, |_, p| HeaderEdit::Remove(p)),
    EditRow::new("Mismatch", 10, |r, p| {
        HeaderEdit::Mismatch(p, r.pick(&MISMATCHES))
    }),
    EditRow::new("Duplicate", 3, |r, p| HeaderEdit::Duplicate(p, r.coin())),
    EditRow::new("NameCase", 3, |r, p| {
        HeaderEdit::NameCase(p, r.below(3) as u8)
    }),
    EditRow::new("ValueCase", 4, |_, p| HeaderEdit::ValueCase(p)),
    EditRow::new("Pad", 3, |r, p| {
        HeaderEdit::Pad(p, r.pick(&[" ", "\t", "  \t", " \t "]))
    }),
    EditRow::new("Empty", 2, |_, p| HeaderEdit::Empty(p)),
    EditRow::new("Control", 3, |r, p| {
        HeaderEdit::Control(p, r.pick(&[0u8, 1, 8, 9, 0x1b, 0x7f]))
    }),
    EditRow::new("NonAscii", 3, |r, p| {
        HeaderEdit::NonAscii(
            p,
            r.pick(&["é".as_bytes(), "世界".as_bytes(), &[0x80], &[0xff, 0xfe]]),
        )
    }),
    EditRow::new("SentinelValid", 5, |_, p| HeaderEdit::SentinelValid(p)),
    EditRow::new("SentinelInvalid", 5, |r, p| {
        HeaderEdit::SentinelInvalid(p, r.pick(&FLAWS))
    }),
    EditRow::new("IntSpelling", 5, |r, p| {
        HeaderEdit::IntSpelling(p, r.pick(&["{}.0", "0{}", "+{}", "{}e0", "{}.", " {} "]))
    }),
    EditRow::new("BoolSpelling", 3, |r, p| {
        HeaderEdit::BoolSpelling(p, r.pick(&["True", "TRUE", "1", "yes", "False", "0"]))
    }),
    EditRow::new("Origin", 5, |r, _| HeaderEdit::Origin(r.pick(&ORIGINS))),
    EditRow::new("SessionId", 2, |_, _| HeaderEdit::SessionId),
    EditRow::new("LastEventId", 1, |_, _| HeaderEdit::LastEventId),
    EditRow::new("ContentType", 2, |r, _| {
        HeaderEdit::ContentType(r.pick(&[
            None,
            Some("text/plain"),
            Some("application/json; charset=utf-8"),
            Some("APPLICATION/JSON"),
        ]))
    }),
    EditRow::new("Accept", 2, |r, _| {
        HeaderEdit::Accept(r.pick(&[
            None,
            Some("application/json"),
            Some("text/event-stream"),
            Some("*/*"),
        ]))
    }),
    EditRow::new("Verb", 3, |r, _| {
        HeaderEdit::Verb(r.pick(&["GET", "DELETE", "PUT", "PATCH", "OPTIONS"]))
    }),
    EditRow::new("UnknownParam", 1, |r, _| {
        let mut n = String::new();
        let len = r.len(1, 8);
        r.push_from(
            &mut n,
            len,
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        );
        HeaderEdit::UnknownParam(n)
    }),
];

/// A header edit: the target first, then a weighted row and its values.
pub fn draw(r: &mut dyn Source) -> HeaderEdit {
    let pick = Pick(r.next_u64());
    (r.weighted_row(HEADER_EDITS, |row| row.weight).draw)(r, pick)
}

impl HeaderEdit {
    /// The variant's name (the case label).
    pub fn name(&self) -> &'static str {
        match self {
            HeaderEdit::Remove(_) => "Remove",
            HeaderEdit::Mismatch(..) => "Mismatch",
            HeaderEdit::Duplicate(..) => "Duplicate",
            HeaderEdit::NameCase(..) => "NameCase",
            HeaderEdit::ValueCase(_) => "ValueCase",
            HeaderEdit::Pad(..) => "Pad",
            HeaderEdit::Empty(_) => "Empty",
            HeaderEdit::Control(..) => "Control",
            HeaderEdit::NonAscii(..) => "NonAscii",
            HeaderEdit::SentinelValid(_) => "SentinelValid",
            HeaderEdit::SentinelInvalid(..) => "SentinelInvalid",
            HeaderEdit::IntSpelling(..) => "IntSpelling",
            HeaderEdit::BoolSpelling(..) => "BoolSpelling",
            HeaderEdit::Origin(_) => "Origin",
            HeaderEdit::SessionId => "SessionId",
            HeaderEdit::LastEventId => "LastEventId",
            HeaderEdit::ContentType(_) => "ContentType",
            HeaderEdit::Accept(_) => "Accept",
            HeaderEdit::Verb(_) => "Verb",
            HeaderEdit::UnknownParam(_) => "UnknownParam",
        }
    }
}

fn is_mcp_header(name: &[u8]) -> bool {
    ["mcp-protocol-version", "mcp-method", "mcp-name"]
        .iter()
        .any(|m| name.eq_ignore_ascii_case(m.as_bytes()))
        || (name.len() > 10 && name[..10].eq_ignore_ascii_case(b"mcp-param-"))
}

/// Index of the targeted MCP header field, if the case has any.
fn target(case: &Case, i: &Pick) -> Option<usize> {
    nth_matching(case, i, |n, _| is_mcp_header(n))
}

/// The targeted `Mcp-Param-*` field whose value reads as an integer / boolean.
fn typed_param(case: &Case, i: &Pick, want: fn(&str) -> bool) -> Option<usize> {
    nth_matching(case, i, |n, v| {
        n.len() > 10
            && n[..10].eq_ignore_ascii_case(b"mcp-param-")
            && std::str::from_utf8(v).is_ok_and(want)
    })
}

/// The `i`-th of the header fields that satisfy `is` (counted, then found: no list built).
fn nth_matching(case: &Case, i: &Pick, is: impl Fn(&[u8], &[u8]) -> bool) -> Option<usize> {
    let count = case.headers.iter().filter(|(n, v)| is(n, v)).count();
    if count == 0 {
        return None;
    }
    let want = i.index(count);
    case.headers
        .iter()
        .enumerate()
        .filter(|(_, (n, v))| is(n, v))
        .nth(want)
        .map(|(k, _)| k)
}

fn sentinel(flaw: SentinelFlaw, value: &[u8]) -> Vec<u8> {
    let enc = |s: String| format!("=?base64?{s}?=").into_bytes();
    match flaw {
        SentinelFlaw::BadChars => enc(format!("{}!!", STANDARD.encode(value))),
        SentinelFlaw::NoPadding => enc(STANDARD.encode(value).trim_end_matches('=').to_string()),
        SentinelFlaw::UrlSafe => enc(URL_SAFE_NO_PAD.encode(value)),
        SentinelFlaw::NotUtf8 => enc(STANDARD.encode([0xffu8, 0xfe])),
        SentinelFlaw::UpperMarkers => format!("=?BASE64?{}?=", STANDARD.encode(value)).into_bytes(),
        SentinelFlaw::NoSuffix => format!("=?base64?{}", STANDARD.encode(value)).into_bytes(),
    }
}

pub fn apply(op: &HeaderEdit, case: &mut Case) {
    let h = &mut case.headers;
    match op {
        HeaderEdit::Remove(i) => {
            if let Some(k) = target(case, i) {
                case.headers.remove(k);
            }
        }
        HeaderEdit::Mismatch(i, v) => {
            if let Some(k) = target(case, i) {
                if case.headers[k].1 != v.as_bytes() {
                    case.headers[k].1.clear();
                    case.headers[k].1.extend_from_slice(v.as_bytes());
                }
            }
        }
        HeaderEdit::Duplicate(i, same) => {
            if let Some(k) = target(case, i) {
                let (n, mut v) = case.headers[k].clone();
                if !same {
                    v.extend_from_slice(b"-x");
                }
                case.headers.push((n, v));
            }
        }
        HeaderEdit::NameCase(i, mode) => {
            if let Some(k) = target(case, i) {
                let n = &mut case.headers[k].0;
                *n = match mode {
                    0 => n.to_ascii_lowercase(),
                    1 => n.to_ascii_uppercase(),
                    _ => n
                        .iter()
                        .enumerate()
                        .map(|(j, b)| {
                            if j % 2 == 0 {
                                b.to_ascii_uppercase()
                            } else {
                                b.to_ascii_lowercase()
                            }
                        })
                        .collect(),
                };
            }
        }
        HeaderEdit::ValueCase(i) => {
            if let Some(k) = target(case, i) {
                let v = &mut case.headers[k].1;
                let flipped: Vec<u8> = v
                    .iter()
                    .map(|b| {
                        if b.is_ascii_lowercase() {
                            b.to_ascii_uppercase()
                        } else {
                            b.to_ascii_lowercase()
                        }
                    })
                    .collect();
                *v = flipped;
            }
        }
        HeaderEdit::Pad(i, p) => {
            if let Some(k) = target(case, i) {
                let v = &mut case.headers[k].1;
                *v = [p.as_bytes(), v.as_slice(), p.as_bytes()].concat();
            }
        }
        HeaderEdit::Empty(i) => {
            if let Some(k) = target(case, i) {
                case.headers[k].1.clear();
            }
        }
        HeaderEdit::Control(i, b) => {
            if let Some(k) = target(case, i) {
                let v = &mut case.headers[k].1;
                let at = v.len() / 2;
                v.insert(at, *b);
            }
        }
        HeaderEdit::NonAscii(i, bytes) => {
            if let Some(k) = target(case, i) {
                case.headers[k].1.extend_from_slice(bytes);
            }
        }
        HeaderEdit::SentinelValid(i) => {
            if let Some(k) = target(case, i) {
                let v = &mut case.headers[k].1;
                if !v.starts_with(b"=?base64?") {
                    *v = format!("=?base64?{}?=", STANDARD.encode(&v)).into_bytes();
                }
            }
        }
        HeaderEdit::SentinelInvalid(i, flaw) => {
            if let Some(k) = target(case, i) {
                let v = case.headers[k].1.clone();
                case.headers[k].1 = sentinel(*flaw, &v);
            }
        }
        HeaderEdit::IntSpelling(i, form) => {
            let is_int = |s: &str| {
                !s.is_empty()
                    && s.trim_start_matches('-')
                        .bytes()
                        .all(|b| b.is_ascii_digit())
            };
            if let Some(k) = typed_param(case, i, is_int) {
                let v = String::from_utf8_lossy(&case.headers[k].1).into_owned();
                case.headers[k].1 = form.replace("{}", &v).into_bytes();
            }
        }
        HeaderEdit::BoolSpelling(i, b) => {
            if let Some(k) = typed_param(case, i, |s| s == "true" || s == "false") {
                case.headers[k].1 = b.as_bytes().to_vec();
            }
        }
        HeaderEdit::Origin(o) => case.set_header("Origin", Some(o.as_bytes())),
        HeaderEdit::SessionId => {
            h.push((b"Mcp-Session-Id".to_vec(), b"1f3a4b5c-dead-beef".to_vec()))
        }
        HeaderEdit::LastEventId => h.push((b"Last-Event-ID".to_vec(), b"42".to_vec())),
        HeaderEdit::ContentType(ct) => case.set_header("Content-Type", ct.map(str::as_bytes)),
        HeaderEdit::Accept(a) => case.set_header("Accept", a.map(str::as_bytes)),
        HeaderEdit::Verb(v) => case.method = v.to_string(),
        HeaderEdit::UnknownParam(n) => {
            h.push((format!("Mcp-Param-{n}").into_bytes(), b"x".to_vec()))
        }
    }
}
