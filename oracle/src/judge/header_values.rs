//! What the server reads in one header value: its sentinel decoding (`HeaderValue`) and the
//! characters that make a field invalid (the answers a header refusal takes are `answers`).

use super::answers::{mismatch_answer, parser_refusal};
use super::findings::Findings;
use crate::encoding::field_words::all_visible;
use crate::encoding::{
    field_value_class, sentinel::looks_like_sentinel, DecodedValue, FieldValueClass,
};
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules::RuleId;
use std::borrow::Cow;

/// A header value as the server must read it (`DecodedValue`), borrowing a plain value
/// instead of copying it: most values are plain, and the judge reads several per case.
pub(crate) enum HeaderValue<'r> {
    Plain(&'r [u8]),
    /// A sentinel payload's strictly decoded bytes, not yet looked at for UTF-8: `Decoded`
    /// when they are UTF-8, `Malformed` when not. Bytes equal to a body string are UTF-8, so
    /// the common case (a mirrored value) needs no validation.
    Strict(&'r [u8]),
    Decoded(String),
    Lenient(String),
    Malformed,
}

/// Room for a decoded sentinel payload read without allocating (longer ones allocate).
pub(crate) type DecodeBuffer = [u8; 96];

pub(crate) fn read_header_value<'r>(raw: &'r [u8], buf: &'r mut DecodeBuffer) -> HeaderValue<'r> {
    if !looks_like_sentinel(raw) {
        return HeaderValue::Plain(raw);
    }
    if let Some(n) = crate::encoding::sentinel::payload_into(raw, buf) {
        return HeaderValue::Strict(&buf[..n]);
    }
    match crate::encoding::sentinel::server_decode(raw) {
        DecodedValue::Plain(_) => HeaderValue::Plain(raw),
        DecodedValue::Decoded(s) => HeaderValue::Decoded(s),
        DecodedValue::Lenient(s) => HeaderValue::Lenient(s),
        DecodedValue::Malformed => HeaderValue::Malformed,
    }
}

/// Whether `raw` is a sentinel whose payload `decode_header_value` reads as `Decoded` text
/// equal to `text` (decoded into a buffer: no `String` for the common short payload).
pub(crate) fn decodes_to(raw: &[u8], text: &str) -> bool {
    let mut buf: DecodeBuffer = [0; 96];
    match crate::encoding::sentinel::payload_into(raw, &mut buf) {
        // (bytes equal to a `str` are UTF-8: `Decoded`)
        Some(n) => buf[..n] == *text.as_bytes(),
        None => matches!(
            crate::encoding::decode_header_value(raw),
            DecodedValue::Decoded(m) if m == text
        ),
    }
}

/// A header value's bytes as text for a message, as `String::from_utf8_lossy` gives it
/// (the plain check first: nearly every value is UTF-8, and the lossy walk is slower).
pub(crate) fn lossy(raw: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(raw) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(raw),
    }
}

/// Whether strictly decoded payload bytes read as `Malformed` (they are not UTF-8).
pub(crate) fn strict_malformed(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_err()
}

/// Header value classes that make a field invalid; records the defect and returns true.
/// A value that passes is ASCII (visible, SP, or an internal HTAB).
#[inline(always)]
pub(crate) fn invalid_chars(
    raw: &[u8],
    rule: RuleId,
    shape: RuleId,
    what: &dyn std::fmt::Display,
    id: &RequestId,
    f: &mut Findings,
) -> bool {
    // (nearly every value: `field_value_class` would say `Valid`)
    !all_visible(raw) && classify_invalid(raw, rule, shape, what, id, f)
}

/// `invalid_chars` for a value with a byte outside visible ASCII and SP.
#[cold]
#[inline(never)]
fn classify_invalid(
    raw: &[u8],
    rule: RuleId,
    shape: RuleId,
    what: &dyn std::fmt::Display,
    id: &RequestId,
    f: &mut Findings,
) -> bool {
    match field_value_class(raw) {
        FieldValueClass::Valid => false,
        FieldValueClass::InternalTab => {
            // AMB-03: a valid field character that clients must nevertheless encode
            f.tolerate(mismatch_answer());
            false
        }
        class => {
            f.mismatch(rule, shape, 4, id, || {
                Message::parts(
                    &["Header mismatch: ", " contains invalid characters"],
                    &[what],
                )
            });
            if class == FieldValueClass::Control {
                if let Some(d) = f.defects.last_mut() {
                    d.answers.push(parser_refusal());
                }
            }
            true
        }
    }
}

/// The overlap `=?base64?=` sent plain and equal to the body: it matches "the sentinel
/// pattern (i.e., starts with `=?base64?` and ends with `?=`)", so a server may refuse it as
/// a sentinel with no payload ("missing/malformed", 400/-32020) or read it plain (D-12).
pub(crate) fn overlap(plain: &[u8], f: &mut Findings) {
    if plain == crate::encoding::sentinel::OVERLAP.as_bytes() {
        f.tolerate(mismatch_answer());
    }
}
