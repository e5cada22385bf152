//! Reading text the scanner (`scan`) validated: a value's kind, a string's content, a
//! number's value, an object's members, without building a tree.

use super::lex::{is_ws, skip_ws};
use crate::encoding::field_words::same_bytes;
use crate::swar::skip_plain;
use serde_json::{Number, Value};
use std::borrow::Cow;

/// The kind of a validated value, from its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Object,
    Array,
    String,
    Bool,
    Null,
    Number,
}

pub(crate) fn kind(v: &str) -> Kind {
    kind_of(v.as_bytes().first().copied())
}

/// The kind of a validated value starting with `first`.
pub(crate) fn kind_of(first: Option<u8>) -> Kind {
    match first {
        Some(b'{') => Kind::Object,
        Some(b'[') => Kind::Array,
        Some(b'"') => Kind::String,
        Some(b't' | b'f') => Kind::Bool,
        Some(b'n') => Kind::Null,
        _ => Kind::Number,
    }
}

/// A validated value the scanner found: its JSON text and, for a string, whether it holds
/// escapes (so its content needs no second look to be read).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Val<'a> {
    pub text: &'a str,
    pub escaped: bool,
}

impl<'a> Val<'a> {
    /// A validated value, a string looked at for escapes.
    pub fn read(text: &'a str) -> Val<'a> {
        // validated: no control byte and no bare quote inside, so the first stop past the
        // opening quote is the closing one unless the string holds an escape
        let escaped =
            kind(text) == Kind::String && skip_plain(text.as_bytes(), 1) != text.len() - 1;
        Val { text, escaped }
    }

    pub fn kind(self) -> Kind {
        kind(self.text)
    }

    /// The content of a string value, decoded when it holds escapes.
    pub fn as_str(self) -> Option<Cow<'a, str>> {
        if self.kind() != Kind::String {
            return None;
        }
        if !self.escaped {
            // (the quotes are ASCII: the slice is on char boundaries)
            return self.text.get(1..self.text.len() - 1).map(Cow::Borrowed);
        }
        self.decoded()
    }

    /// `as_str` for a string holding escapes: its plain runs copied, each escape decoded as
    /// JSON defines it (`serde_json`'s reading; its `String` deserializer cost about 900
    /// instructions a string, most of them checking again what the scanner checked).
    #[inline(never)]
    fn decoded(self) -> Option<Cow<'a, str>> {
        let inner = self.text.get(1..self.text.len().checked_sub(1)?)?;
        let b = inner.as_bytes();
        let mut out = String::with_capacity(inner.len());
        let mut i = 0;
        loop {
            // (every stop is an ASCII byte or the end: the cuts are on char boundaries)
            let j = skip_plain(b, i);
            out.push_str(inner.get(i..j)?);
            let Some(&stop) = b.get(j) else {
                return Some(Cow::Owned(out));
            };
            let escape = b.get(j + 1).copied().filter(|_| stop == b'\\');
            let c = match escape {
                Some(b'"') => '"',
                Some(b'\\') => '\\',
                Some(b'/') => '/',
                Some(b'b') => '\u{8}',
                Some(b'f') => '\u{c}',
                Some(b'n') => '\n',
                Some(b'r') => '\r',
                Some(b't') => '\t',
                Some(b'u') => match unicode_escape(b, j + 2) {
                    Some(c) => {
                        out.push(c);
                        i = j + 6;
                        continue;
                    }
                    // a surrogate (a pair is one character) or no four hex digits
                    None => return self.decoded_by_serde(),
                },
                // not what the scanner validates: the parser's reading decides
                _ => return self.decoded_by_serde(),
            };
            out.push(c);
            i = j + 2;
        }
    }

    /// `as_str` for a string holding escapes the plain decoding leaves to the parser.
    #[cold]
    #[inline(never)]
    fn decoded_by_serde(self) -> Option<Cow<'a, str>> {
        // validated: serde_json decodes it exactly as it would inside the whole body
        serde_json::from_str::<String>(self.text)
            .ok()
            .map(Cow::Owned)
    }
}

/// The character of the `\\u` escape whose four hex digits start at `at`, unless it is a
/// surrogate (`decoded` leaves pairs to the parser).
fn unicode_escape(b: &[u8], at: usize) -> Option<char> {
    let hex = b.get(at..at + 4)?;
    let mut code = 0u32;
    for h in hex {
        code = code * 16 + char::from(*h).to_digit(16)?;
    }
    char::from_u32(code)
}

/// The largest magnitude of a negative integer that `serde_json` reads as an `i64`.
const I64_MAGNITUDE: u64 = 1 << 63;

/// A validated value parsed as `serde_json` parses it inside a whole body (an integer read
/// directly: `integer`).
pub(crate) fn value(v: &str) -> Option<Value> {
    match integer(v) {
        Some(n) => Some(Value::Number(n)),
        None => serde_json::from_str(v).ok(),
    }
}

/// A validated integer of at most 19 digits (no leading zero, not `-0`) read directly, as
/// `serde_json` reads it: a `u64`, or an `i64` when negative; `None` for any other text (the
/// caller parses it).
pub(crate) fn integer(v: &str) -> Option<Number> {
    let b = v.as_bytes();
    let (negative, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    let plain = matches!(digits.first(), Some(b'1'..=b'9'))
        && digits.len() <= 19
        && digits.iter().all(u8::is_ascii_digit);
    if !plain {
        return (b == b"0").then(|| Number::from(0u64));
    }
    // (at most 19 digits: no overflow)
    let n = digits
        .iter()
        .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    if !negative {
        return Some(Number::from(n));
    }
    // `-(2^63)` is `i64::MIN`; beyond it, `serde_json` reads a float
    (n <= I64_MAGNITUDE).then(|| Number::from((n as i64).wrapping_neg()))
}

/// The end of the validated value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> usize {
    match b[i] {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = skip_string(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            j
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']') && !is_ws(b[j]) {
                j += 1;
            }
            j
        }
    }
}

/// The end of the validated string at `i` (escapes are well-formed).
fn skip_string(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    loop {
        // validated text: no control byte, so the run ends at a quote or a backslash
        j = skip_plain(b, j);
        match b.get(j) {
            Some(b'"') => return j + 1,
            Some(_) => j += 2,
            None => return j,
        }
    }
}

/// The members of a validated object value, in order (repeated keys included).
pub(crate) fn members(obj: &str) -> Members<'_> {
    Members {
        text: obj,
        at: if kind(obj) == Kind::Object {
            1
        } else {
            obj.len()
        },
    }
}

pub(crate) struct Members<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Members<'a> {
    /// (key, value text)
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.text.as_bytes();
        let i = skip_ws(b, self.at);
        if b.get(i) != Some(&b'"') {
            self.at = b.len();
            return None;
        }
        let key_end = skip_string(b, i);
        let v = skip_ws(b, skip_ws(b, key_end) + 1);
        let v_end = skip_value(b, v);
        let after = skip_ws(b, v_end);
        // past the `,` (or onto the `}`, where the next call stops)
        self.at = if b.get(after) == Some(&b',') {
            after + 1
        } else {
            b.len()
        };
        // (every bound is next to an ASCII byte of the validated text: on char boundaries)
        let key = self.text.get(i + 1..key_end - 1)?;
        Some((key, self.text.get(v..v_end)?))
    }
}

/// The value of member `key` of a validated object (the last one if repeated; `None` when
/// absent or when `obj` is not an object), like `Value::get`.
pub(crate) fn get<'a>(obj: &'a str, key: &str) -> Option<&'a str> {
    members(obj)
        .filter(|(k, _)| same_bytes(k.as_bytes(), key.as_bytes()))
        .last()
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::{integer, value, Val};
    use serde_json::Value;

    /// An integer read directly is the `Number` `serde_json` reads, and every number text
    /// reads as `serde_json` reads it (the ones `integer` leaves go to the parser).
    #[test]
    fn numbers_read_as_serde_reads_them() {
        let texts = [
            "0",
            "-0",
            "7",
            "-7",
            "10",
            "1.0",
            "1e2",
            "1e+300",
            "-1E2",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "9999999999999999999",
            "18446744073709551615",
            "18446744073709551616",
        ];
        let mut direct = 0;
        for t in texts {
            let parsed: Value = serde_json::from_str(t).expect("a JSON number");
            if let Some(n) = integer(t) {
                assert_eq!(Value::Number(n), parsed, "{t}");
                direct += 1;
            }
            assert_eq!(value(t), Some(parsed), "{t}");
        }
        assert!(direct >= 8, "{direct}");
    }

    /// A string holding escapes reads as `serde_json` reads it: every escape JSON defines,
    /// escapes beside text beyond ASCII, a surrogate pair (left to the parser), and escapes
    /// at either end.
    #[test]
    fn an_escaped_string_decodes_as_serde_reads_it() {
        let texts = [
            r#""\"""#,
            r#""a\\b""#,
            r#""\/\b\f\n\r\t""#,
            r#""caf\u00e9 \u20AC \u0000 \u001f""#,
            r#""\ud83d\ude00 pair""#,
            r#""\u00e9""#,
            r#""é\"ü\\ñ ☃ \n tail""#,
            r#""x\n""#,
            r#""\tx""#,
            r#""only plain after \u0041 a long run of text past a word or two""#,
        ];
        for t in texts {
            let expected: String = serde_json::from_str(t).expect("test JSON");
            let v = Val::read(t);
            assert!(v.escaped, "{t}");
            assert_eq!(v.as_str().as_deref(), Some(expected.as_str()), "{t}");
        }
    }
}
