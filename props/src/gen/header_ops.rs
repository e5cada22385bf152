//! Defects and benign variations planted in header fields: each mirrored header missing,
//! mismatched, duplicated, in odd name or value case, padded, empty, with control or
//! non-ASCII bytes, sentinel-encoded validly and invalidly; integer and boolean spellings in
//! `Mcp-Param-*`; Origin values; session and resume headers; Content-Type and Accept.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use mcpdiff_oracle::Case;
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;

/// Which header an operation targets: an index into the MCP headers the case carries.
#[derive(Clone, Debug)]
pub enum HeaderOp {
    Remove(Index),
    /// Replace the value by a plausible but different one.
    Mismatch(Index, String),
    Duplicate(Index, bool),
    NameCase(Index, u8),
    ValueCase(Index),
    Pad(Index, &'static str),
    Empty(Index),
    Control(Index, u8),
    NonAscii(Index, Vec<u8>),
    SentinelValid(Index),
    SentinelInvalid(Index, SentinelFlaw),
    IntSpelling(Index, &'static str),
    BoolSpelling(Index, &'static str),
    Origin(&'static str),
    SessionId,
    LastEventId,
    ContentType(Option<&'static str>),
    Accept(Option<&'static str>),
    Verb(&'static str),
    UnknownParam(String),
}

#[derive(Clone, Copy, Debug)]
pub enum SentinelFlaw {
    BadChars,
    NoPadding,
    UrlSafe,
    NotUtf8,
    UpperMarkers,
    NoSuffix,
}

pub fn header_op() -> BoxedStrategy<HeaderOp> {
    let i = any::<Index>;
    prop_oneof![
        8 => i().prop_map(HeaderOp::Remove),
        10 => (i(), prop::sample::select(vec![
            "tools/list", "prompts/get", "get_weather", "other", "2025-11-25", "2026-07-29",
            "us-west1", "43", "false", "=?base64?dXMtd2VzdDE=?=", "file:///etc/passwd",
        ]).prop_map(str::to_string)).prop_map(|(i, v)| HeaderOp::Mismatch(i, v)),
        3 => (i(), any::<bool>()).prop_map(|(i, same)| HeaderOp::Duplicate(i, same)),
        3 => (i(), 0u8..3).prop_map(|(i, m)| HeaderOp::NameCase(i, m)),
        4 => i().prop_map(HeaderOp::ValueCase),
        3 => (i(), prop::sample::select(vec![" ", "\t", "  \t", " \t "]))
            .prop_map(|(i, p)| HeaderOp::Pad(i, p)),
        2 => i().prop_map(HeaderOp::Empty),
        3 => (i(), prop::sample::select(vec![0u8, 1, 8, 9, 0x1b, 0x7f]))
            .prop_map(|(i, b)| HeaderOp::Control(i, b)),
        3 => (i(), prop::sample::select(vec![
            "é".as_bytes().to_vec(), "世界".as_bytes().to_vec(), vec![0x80], vec![0xff, 0xfe],
        ])).prop_map(|(i, b)| HeaderOp::NonAscii(i, b)),
        5 => i().prop_map(HeaderOp::SentinelValid),
        5 => (i(), prop::sample::select(vec![
            SentinelFlaw::BadChars, SentinelFlaw::NoPadding, SentinelFlaw::UrlSafe,
            SentinelFlaw::NotUtf8, SentinelFlaw::UpperMarkers, SentinelFlaw::NoSuffix,
        ])).prop_map(|(i, f)| HeaderOp::SentinelInvalid(i, f)),
        5 => (i(), prop::sample::select(vec!["{}.0", "0{}", "+{}", "{}e0", "{}.", " {} "]))
            .prop_map(|(i, f)| HeaderOp::IntSpelling(i, f)),
        3 => (i(), prop::sample::select(vec!["True", "TRUE", "1", "yes", "False", "0"]))
            .prop_map(|(i, b)| HeaderOp::BoolSpelling(i, b)),
        5 => prop::sample::select(vec![
            "https://evil.example", "http://localhost.evil.example", "null",
            "http://127.0.0.1.nip.io", "http://localhost:9999", "http://[::1]:8080",
            "file://", "http://attacker.com:80", "HTTPS://EVIL.EXAMPLE",
        ]).prop_map(HeaderOp::Origin),
        2 => Just(HeaderOp::SessionId),
        1 => Just(HeaderOp::LastEventId),
        2 => prop::sample::select(vec![None, Some("text/plain"), Some("application/json; charset=utf-8"), Some("APPLICATION/JSON")])
            .prop_map(HeaderOp::ContentType),
        2 => prop::sample::select(vec![None, Some("application/json"), Some("text/event-stream"), Some("*/*")])
            .prop_map(HeaderOp::Accept),
        3 => prop::sample::select(vec!["GET", "DELETE", "PUT", "PATCH", "OPTIONS"]).prop_map(HeaderOp::Verb),
        1 => super::regex("[A-Za-z]{1,8}").prop_map(HeaderOp::UnknownParam),
    ]
    .boxed()
}

fn is_mcp_header(name: &[u8]) -> bool {
    ["mcp-protocol-version", "mcp-method", "mcp-name"]
        .iter()
        .any(|m| name.eq_ignore_ascii_case(m.as_bytes()))
        || (name.len() > 10 && name[..10].eq_ignore_ascii_case(b"mcp-param-"))
}

/// Index of the targeted MCP header field, if the case has any.
fn target(case: &Case, i: &Index) -> Option<usize> {
    let idx: Vec<usize> = (0..case.headers.len())
        .filter(|&k| is_mcp_header(&case.headers[k].0))
        .collect();
    if idx.is_empty() {
        None
    } else {
        Some(idx[i.index(idx.len())])
    }
}

/// The targeted `Mcp-Param-*` field whose body value is an integer / boolean.
fn typed_param(
    case: &Case,
    body: Option<&Value>,
    i: &Index,
    want: fn(&str) -> bool,
) -> Option<usize> {
    let _ = body;
    let idx: Vec<usize> = (0..case.headers.len())
        .filter(|&k| {
            let (n, v) = &case.headers[k];
            n.len() > 10
                && n[..10].eq_ignore_ascii_case(b"mcp-param-")
                && std::str::from_utf8(v).is_ok_and(want)
        })
        .collect();
    if idx.is_empty() {
        None
    } else {
        Some(idx[i.index(idx.len())])
    }
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

pub fn apply(op: &HeaderOp, case: &mut Case, body: Option<&Value>) {
    let h = &mut case.headers;
    match op {
        HeaderOp::Remove(i) => {
            if let Some(k) = target(case, i) {
                case.headers.remove(k);
            }
        }
        HeaderOp::Mismatch(i, v) => {
            if let Some(k) = target(case, i) {
                if case.headers[k].1 != v.as_bytes() {
                    case.headers[k].1 = v.as_bytes().to_vec();
                }
            }
        }
        HeaderOp::Duplicate(i, same) => {
            if let Some(k) = target(case, i) {
                let (n, mut v) = case.headers[k].clone();
                if !same {
                    v.extend_from_slice(b"-x");
                }
                case.headers.push((n, v));
            }
        }
        HeaderOp::NameCase(i, mode) => {
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
        HeaderOp::ValueCase(i) => {
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
        HeaderOp::Pad(i, p) => {
            if let Some(k) = target(case, i) {
                let v = &mut case.headers[k].1;
                *v = [p.as_bytes(), v.as_slice(), p.as_bytes()].concat();
            }
        }
        HeaderOp::Empty(i) => {
            if let Some(k) = target(case, i) {
                case.headers[k].1.clear();
            }
        }
        HeaderOp::Control(i, b) => {
            if let Some(k) = target(case, i) {
                let v = &mut case.headers[k].1;
                let at = v.len() / 2;
                v.insert(at, *b);
            }
        }
        HeaderOp::NonAscii(i, bytes) => {
            if let Some(k) = target(case, i) {
                case.headers[k].1.extend_from_slice(bytes);
            }
        }
        HeaderOp::SentinelValid(i) => {
            if let Some(k) = target(case, i) {
                let v = &mut case.headers[k].1;
                if !v.starts_with(b"=?base64?") {
                    *v = format!("=?base64?{}?=", STANDARD.encode(&v)).into_bytes();
                }
            }
        }
        HeaderOp::SentinelInvalid(i, flaw) => {
            if let Some(k) = target(case, i) {
                let v = case.headers[k].1.clone();
                case.headers[k].1 = sentinel(*flaw, &v);
            }
        }
        HeaderOp::IntSpelling(i, form) => {
            let is_int = |s: &str| {
                !s.is_empty()
                    && s.trim_start_matches('-')
                        .bytes()
                        .all(|b| b.is_ascii_digit())
            };
            if let Some(k) = typed_param(case, body, i, is_int) {
                let v = String::from_utf8_lossy(&case.headers[k].1).into_owned();
                case.headers[k].1 = form.replace("{}", &v).into_bytes();
            }
        }
        HeaderOp::BoolSpelling(i, b) => {
            if let Some(k) = typed_param(case, body, i, |s| s == "true" || s == "false") {
                case.headers[k].1 = b.as_bytes().to_vec();
            }
        }
        HeaderOp::Origin(o) => case.set_header("Origin", Some(o.as_bytes())),
        HeaderOp::SessionId => h.push((b"Mcp-Session-Id".to_vec(), b"1f3a4b5c-dead-beef".to_vec())),
        HeaderOp::LastEventId => h.push((b"Last-Event-ID".to_vec(), b"42".to_vec())),
        HeaderOp::ContentType(ct) => case.set_header("Content-Type", ct.map(str::as_bytes)),
        HeaderOp::Accept(a) => case.set_header("Accept", a.map(str::as_bytes)),
        HeaderOp::Verb(v) => case.method = v.to_string(),
        HeaderOp::UnknownParam(n) => h.push((format!("Mcp-Param-{n}").into_bytes(), b"x".to_vec())),
    }
}
