//! The `arguments` of a `tools/call` and the value at a parameter's path in them
//! (`annotations::extract`), read from the members the scanner noted in the body text
//! (`arg_members`) or from a parsed tree.

use super::arg_members::ArgMembers;
use super::validated::{self, Kind, Val};
use crate::annotations::{extract, Extracted};
use crate::encoding::{
    compare_number_text, compare_param_bool, compare_param_bytes, compare_param_text, ParamMatch,
};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// The `arguments` member of the params (any JSON type).
#[derive(Clone, Copy, Debug)]
pub enum Arguments<'a> {
    /// Validated JSON text (the scanner's subset).
    Raw(RawArguments<'a>),
    /// A parsed tree.
    Parsed(&'a Value),
}

/// The validated text of `arguments` and, when it is an object, its members as the scanner
/// noted them.
#[derive(Clone, Copy, Debug)]
pub struct RawArguments<'a> {
    pub(crate) text: &'a str,
    pub(crate) members: ArgMembers,
}

impl Arguments<'_> {
    /// Whether the arguments are an object (the schemas' `{ [key: string]: unknown }`).
    pub fn is_object(self) -> bool {
        match self {
            Arguments::Raw(raw) => validated::kind(raw.text) == Kind::Object,
            Arguments::Parsed(v) => v.is_object(),
        }
    }

    /// The arguments as a tree (for comparing two readings).
    pub fn to_value(self) -> Option<Value> {
        match self {
            Arguments::Raw(raw) => serde_json::from_str(raw.text).ok(),
            Arguments::Parsed(v) => Some(v.clone()),
        }
    }
}

/// Two readings are equal when they hold the same JSON value.
impl PartialEq for Arguments<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.to_value() == other.to_value()
    }
}

/// The arguments of one call, read for each parameter (their members were noted once, by
/// the scanner or the parse).
pub(crate) struct ArgumentReader<'a> {
    arguments: Option<Arguments<'a>>,
}

impl<'a> ArgumentReader<'a> {
    pub fn new(arguments: Option<Arguments<'a>>) -> ArgumentReader<'a> {
        ArgumentReader { arguments }
    }

    /// The value at `path` (as `annotations::extract` reads it); a value read from the raw
    /// text is kept in `held`, which the leaf borrows (one body for every parameter, not a
    /// copy per caller).
    pub fn value_at<'s>(&'s self, path: &[String], held: &'s mut RawLeaf<'a>) -> Leaf<'s> {
        match self.arguments {
            None => Leaf::Absent,
            Some(Arguments::Parsed(v)) => match extract(Some(v), path) {
                Extracted::Absent => Leaf::Absent,
                Extracted::Null => Leaf::Null,
                Extracted::Value(Value::String(s)) => Leaf::Text(s),
                Extracted::Value(Value::Bool(b)) => Leaf::Bool(*b),
                Extracted::Value(v) => Leaf::Other(v),
            },
            // (a leaf that borrows the text is returned as it is; only an owned one, a decoded
            // string or a parsed number, is kept in `held`)
            Some(Arguments::Raw(raw)) => match raw_extract(raw, path) {
                RawLeaf::Absent => Leaf::Absent,
                RawLeaf::Null => Leaf::Null,
                RawLeaf::Text(Cow::Borrowed(s)) => Leaf::Text(s),
                RawLeaf::Bool(b) => Leaf::Bool(b),
                RawLeaf::Integer(t) => Leaf::Integer(t),
                owned => {
                    *held = owned;
                    held.as_leaf()
                }
            },
        }
    }

    /// Call `k` with the value at `path` (`value_at` for a caller without a place to hold it).
    #[cfg(test)]
    pub fn with_value<R>(&self, path: &[String], k: impl FnOnce(Leaf<'_>) -> R) -> R {
        let mut held = RawLeaf::Absent;
        k(self.value_at(path, &mut held))
    }
}

/// A parameter's value in the arguments, as `annotations::extract` finds it; a string, a
/// boolean and a plain integer are read without building a `Value` around them.
#[derive(Clone, Copy)]
pub(crate) enum Leaf<'v> {
    Absent,
    Null,
    Text(&'v str),
    Bool(bool),
    /// An integer whose JSON text is the one `serde_json` writes for it (read by
    /// `validated::integer`).
    Integer(&'v str),
    /// Any other value (a number, an array or an object).
    Other(&'v Value),
}

impl Leaf<'_> {
    /// `encoding::compare_param` of the (decoded) `header` bytes with this (present,
    /// non-null) value.
    pub fn compare(self, header: &[u8]) -> ParamMatch {
        match self {
            Leaf::Text(s) => compare_param_text(header, s),
            Leaf::Bool(b) => compare_param_bool(header, b),
            Leaf::Integer(t) => compare_number_text(header, t),
            Leaf::Other(v) => compare_param_bytes(header, v),
            Leaf::Absent | Leaf::Null => compare_param_bytes(header, &Value::Null),
        }
    }

    /// An array or an object (no header text form).
    pub fn is_container(self) -> bool {
        matches!(self, Leaf::Other(v) if v.is_object() || v.is_array())
    }

    /// The boolean's JSON text, when the value is one.
    pub fn boolean_text(self) -> Option<&'static str> {
        match self {
            Leaf::Bool(b) => Some(if b { "true" } else { "false" }),
            _ => None,
        }
    }
}

/// As JSON text, like `Value`'s `Display`.
impl fmt::Display for Leaf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leaf::Absent => Ok(()),
            Leaf::Null => f.write_str("null"),
            // (the JSON text `Value::String`'s `Display` writes, without building the value)
            Leaf::Text(s) => write_json_string(s, f),
            Leaf::Bool(b) => f.write_str(if *b { "true" } else { "false" }),
            // (`validated::integer` read it: serde_json writes the number as this text)
            Leaf::Integer(t) => f.write_str(t),
            Leaf::Other(v) => fmt::Display::fmt(v, f),
        }
    }
}

/// `s` as the JSON string `serde_json` writes for it (quote and backslash escaped, the
/// control bytes as `\b \t \n \f \r` or `\u00xx` in lowercase hex, nothing else), written
/// straight to `f`: no `String` is built for a message nobody may read.
fn write_json_string(s: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str("\"")?;
    let mut plain = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0c => "\\f",
            b'\r' => "\\r",
            0..=0x1f => "",
            _ => continue,
        };
        // (every byte escaped is ASCII: the run before it ends on a char boundary)
        f.write_str(s.get(plain..i).unwrap_or_default())?;
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let hex = [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]];
            f.write_str("\\u00")?;
            f.write_str(std::str::from_utf8(&hex).unwrap_or_default())?;
        } else {
            f.write_str(escape)?;
        }
        plain = i + 1;
    }
    f.write_str(s.get(plain..).unwrap_or_default())?;
    f.write_str("\"")
}

/// `extract` over validated JSON text: the value at `path` as an owned `Value` (only the
/// leaf is parsed).
#[derive(Default)]
pub(crate) enum RawLeaf<'a> {
    #[default]
    Absent,
    Null,
    Text(Cow<'a, str>),
    Bool(bool),
    /// An integer `validated::integer` reads (`Leaf::Integer`).
    Integer(&'a str),
    Value(Value),
}

impl RawLeaf<'_> {
    fn as_leaf(&self) -> Leaf<'_> {
        match self {
            RawLeaf::Absent => Leaf::Absent,
            RawLeaf::Null => Leaf::Null,
            RawLeaf::Text(s) => Leaf::Text(s),
            RawLeaf::Bool(b) => Leaf::Bool(*b),
            RawLeaf::Integer(t) => Leaf::Integer(t),
            RawLeaf::Value(v) => Leaf::Other(v),
        }
    }
}

fn raw_extract<'a>(arguments: RawArguments<'a>, path: &[String]) -> RawLeaf<'a> {
    let Some((first, rest)) = path.split_first() else {
        return leaf(Val::read(arguments.text));
    };
    let Some(mut cur) = arguments.members.get(arguments.text, first) else {
        return RawLeaf::Absent;
    };
    for key in rest {
        // `Value::get` with a key finds members of objects only
        match validated::get(cur.text, key) {
            Some(text) => cur = Val::read(text),
            None => return RawLeaf::Absent,
        }
    }
    leaf(cur)
}

/// A validated value as `extract` sees it.
fn leaf(v: Val<'_>) -> RawLeaf<'_> {
    let value = match v.kind() {
        Kind::Null => return RawLeaf::Null,
        Kind::Bool => return RawLeaf::Bool(v.text == "true"),
        Kind::String => return v.as_str().map_or(RawLeaf::Absent, RawLeaf::Text),
        // (an integer `validated::integer` reads is one `serde_json` writes back as this text)
        Kind::Number if validated::integer(v.text).is_some() => return RawLeaf::Integer(v.text),
        // validated text of the scanner's subset: serde_json parses it the same way it
        // would inside the whole body; a failure cannot happen, but would read as absent
        _ => match validated::value(v.text) {
            Some(v) => v,
            None => return RawLeaf::Absent,
        },
    };
    RawLeaf::Value(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text leaf prints as the JSON `serde_json` writes for the string: every byte below
    /// 0x80 alone and inside other text, and some beyond ASCII.
    #[test]
    fn a_text_leaf_prints_as_serde_writes_it() {
        let mut texts: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
        texts.extend((0u8..0x80).map(|b| format!("a{}\u{e9}z", char::from(b))));
        texts.extend(["", "plain", "caf\u{e9} \u{1f600}", "\"\\\u{7f}\u{85}"].map(String::from));
        for t in texts {
            let expected = serde_json::to_string(&t).expect("a string serializes");
            assert_eq!(Leaf::Text(&t).to_string(), expected, "{t:?}");
        }
    }

    /// `validated::integer` reads exactly the texts `serde_json` reads as an integer of at
    /// most 19 digits and writes back the same: what makes a `Leaf::Integer`'s text its JSON.
    #[test]
    fn an_integer_leaf_is_what_serde_writes_back() {
        let texts = [
            "0",
            "-0",
            "7",
            "-7",
            "42",
            "10",
            "1.0",
            "1e2",
            "-1E2",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "-9999999999999999999",
            "9999999999999999999",
            "18446744073709551615",
            "18446744073709551616",
            "-18446744073709551616",
            "12345678901234567890",
        ];
        for t in texts {
            let v: Value = serde_json::from_str(t).expect("a JSON number");
            let written = v.to_string();
            let same = (v.is_i64() || v.is_u64()) && written.as_str() == t;
            // (a 20-digit `u64` is read the long way: no harm, only slower)
            let short = t.trim_start_matches('-').len() <= 19;
            assert_eq!(validated::integer(t).is_some(), same && short, "{t}");
        }
    }
}
