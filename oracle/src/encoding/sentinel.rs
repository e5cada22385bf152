//! The base64 sentinel `=?base64?{Base64EncodedValue}?=` (streamable-http.mdx § Value
//! Encoding): when a client must encode, and how a server decodes.

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;

/// The case-sensitive sentinel prefix.
pub const PREFIX: &str = "=?base64?";
/// The case-sensitive sentinel suffix.
pub const SUFFIX: &str = "?=";

/// Whether a client MUST encode `value`: it contains a character outside visible ASCII and
/// space (non-ASCII, control characters, tab), has leading or trailing whitespace, or itself
/// matches the sentinel pattern.
pub fn needs_encoding(value: &str) -> bool {
    let bad_char = value.bytes().any(|b| !(0x20..=0x7E).contains(&b));
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    bad_char || padded || looks_like_sentinel(value.as_bytes())
}

/// `value` as a client puts it in a header: as-is, or sentinel-encoded when it must be.
pub fn encode_header_value(value: &str) -> String {
    if needs_encoding(value) {
        format!("{PREFIX}{}{SUFFIX}", STANDARD.encode(value.as_bytes()))
    } else {
        value.to_string()
    }
}

/// Whether raw header bytes have the sentinel shape (prefix and suffix, exact case).
pub fn looks_like_sentinel(raw: &[u8]) -> bool {
    raw.len() >= PREFIX.len() + SUFFIX.len()
        && raw.starts_with(PREFIX.as_bytes())
        && raw.ends_with(SUFFIX.as_bytes())
}

/// A header value as a server must read it before comparing with the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodedValue {
    /// Not a sentinel: the bytes are the value.
    Plain(Vec<u8>),
    /// A sentinel with a payload that strictly decodes (standard alphabet, padded) to UTF-8.
    Decoded(String),
    /// A sentinel whose payload decodes only leniently (no padding, or the URL-safe
    /// alphabet): the spec does not say (AMB-15), so both outcomes are accepted.
    Lenient(String),
    /// A sentinel whose payload does not decode, or decodes to bytes that are not UTF-8.
    Malformed,
}

/// Decode raw (OWS-trimmed) header bytes. The overlapping form `=?base64?=` is shorter than
/// prefix plus suffix and so is plain (AMB-16); `=?base64??=` decodes to the empty string.
pub fn decode_header_value(raw: &[u8]) -> DecodedValue {
    if !looks_like_sentinel(raw) {
        return DecodedValue::Plain(raw.to_vec());
    }
    let payload = &raw[PREFIX.len()..raw.len() - SUFFIX.len()];
    if let Ok(bytes) = STANDARD.decode(payload) {
        return match String::from_utf8(bytes) {
            Ok(s) => DecodedValue::Decoded(s),
            Err(_) => DecodedValue::Malformed,
        };
    }
    let lenient = [&STANDARD_NO_PAD, &URL_SAFE, &URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(payload).ok());
    match lenient.map(String::from_utf8) {
        Some(Ok(s)) => DecodedValue::Lenient(s),
        _ => DecodedValue::Malformed,
    }
}
