//! Reading text the scanner (`scan`) validated: a value's kind, a string's content, an
//! object's members, without building a tree.

use super::scan::{is_ws, skip_ws};
use super::swar::skip_plain;
use serde_json::Value;
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
    match v.as_bytes().first() {
        Some(b'{') => Kind::Object,
        Some(b'[') => Kind::Array,
        Some(b'"') => Kind::String,
        Some(b't' | b'f') => Kind::Bool,
        Some(b'n') => Kind::Null,
        _ => Kind::Number,
    }
}

/// A validated value parsed as `serde_json` parses it inside a whole body. A plain
/// non-negative integer (`0` or no leading zero, at most 19 digits) is read directly: serde
/// reads it as the same `u64`.
pub(crate) fn value(v: &str) -> Option<Value> {
    let b = v.as_bytes();
    let plain = !b.is_empty()
        && b.len() <= 19
        && b.iter().all(u8::is_ascii_digit)
        && (b[0] != b'0' || b.len() == 1);
    if plain {
        return v.parse::<u64>().ok().map(Value::from);
    }
    serde_json::from_str(v).ok()
}

/// The content of a validated string value, decoded when it holds escapes.
pub(crate) fn as_str(v: &str) -> Option<Cow<'_, str>> {
    if kind(v) != Kind::String {
        return None;
    }
    // validated: no control byte and no bare quote inside, so the first stop past the
    // opening quote is the closing one unless the string holds an escape
    if skip_plain(v.as_bytes(), 1) == v.len() - 1 {
        return Some(Cow::Borrowed(&v[1..v.len() - 1]));
    }
    // validated: serde_json decodes it exactly as it would inside the whole body
    serde_json::from_str::<String>(v).ok().map(Cow::Owned)
}

/// The end of the validated value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> usize {
    match b[i] {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match b[j] {
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
        if b[j] == b'"' {
            return j + 1;
        }
        j += 2;
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
        if i >= b.len() || b[i] != b'"' {
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
        Some((&self.text[i + 1..key_end - 1], &self.text[v..v_end]))
    }
}

/// The value of member `key` of a validated object (the last one if repeated; `None` when
/// absent or when `obj` is not an object), like `Value::get`.
pub(crate) fn get<'a>(obj: &'a str, key: &str) -> Option<&'a str> {
    members(obj)
        .filter(|(k, _)| *k == key)
        .last()
        .map(|(_, v)| v)
}
