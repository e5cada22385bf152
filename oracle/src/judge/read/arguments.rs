//! The `arguments` of a `tools/call` and the value at a parameter's path in them
//! (`annotations::extract`), read from the validated body text or from a parsed tree.

use super::validated::{self, Kind};
use crate::annotations::{extract, Extracted};
use crate::encoding::{compare_param, compare_param_text, ParamMatch};
use serde_json::Value;
use std::fmt;

/// The `arguments` member of the params (any JSON type).
#[derive(Clone, Copy, Debug)]
pub enum Arguments<'a> {
    /// Validated JSON text (the scanner's subset).
    Raw(&'a str),
    /// A parsed tree.
    Parsed(&'a Value),
}

impl Arguments<'_> {
    /// The arguments as a tree (for comparing two readings).
    pub fn to_value(self) -> Option<Value> {
        match self {
            Arguments::Raw(text) => serde_json::from_str(text).ok(),
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

/// The arguments of one call, their members read once for all the parameters.
pub(crate) struct ArgumentReader<'a> {
    arguments: Option<Arguments<'a>>,
    index: ArgIndex<'a>,
}

impl<'a> ArgumentReader<'a> {
    pub fn new(arguments: Option<Arguments<'a>>) -> ArgumentReader<'a> {
        let index = match arguments {
            Some(Arguments::Raw(text)) => ArgIndex::new(text),
            _ => ArgIndex::new("null"),
        };
        ArgumentReader { arguments, index }
    }

    /// Call `k` with the value at `path` (as `annotations::extract` reads it).
    pub fn with_value<R>(&self, path: &[String], k: impl FnOnce(Leaf<'_>) -> R) -> R {
        match self.arguments {
            None => k(Leaf::Absent),
            Some(Arguments::Parsed(v)) => k(match extract(Some(v), path) {
                Extracted::Absent => Leaf::Absent,
                Extracted::Null => Leaf::Null,
                Extracted::Value(Value::String(s)) => Leaf::Text(s),
                Extracted::Value(v) => Leaf::Other(v),
            }),
            Some(Arguments::Raw(_)) => match raw_extract(&self.index, path) {
                RawLeaf::Absent => k(Leaf::Absent),
                RawLeaf::Null => k(Leaf::Null),
                RawLeaf::Text(s) => k(Leaf::Text(&s)),
                RawLeaf::Value(v) => k(Leaf::Other(&v)),
            },
        }
    }
}

/// A parameter's value in the arguments, as `annotations::extract` finds it; a string is
/// read without building a `Value` around it.
#[derive(Clone, Copy)]
pub(crate) enum Leaf<'v> {
    Absent,
    Null,
    Text(&'v str),
    /// Any other value (a number, a boolean, an array or an object).
    Other(&'v Value),
}

impl Leaf<'_> {
    /// `encoding::compare_param` of `header` with this (present, non-null) value.
    pub fn compare(self, header: &str) -> ParamMatch {
        match self {
            Leaf::Text(s) => compare_param_text(header, s),
            Leaf::Other(v) => compare_param(header, v),
            Leaf::Absent | Leaf::Null => compare_param(header, &Value::Null),
        }
    }

    /// An array or an object (no header text form).
    pub fn is_container(self) -> bool {
        matches!(self, Leaf::Other(v) if v.is_object() || v.is_array())
    }

    /// The boolean's JSON text, when the value is one.
    pub fn boolean_text(self) -> Option<&'static str> {
        match self {
            Leaf::Other(Value::Bool(b)) => Some(if *b { "true" } else { "false" }),
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
            Leaf::Text(s) => fmt::Display::fmt(&Value::String(s.to_string()), f),
            Leaf::Other(v) => fmt::Display::fmt(v, f),
        }
    }
}

/// `extract` over validated JSON text: the value at `path` as an owned `Value` (only the
/// leaf is parsed).
enum RawLeaf<'a> {
    Absent,
    Null,
    Text(std::borrow::Cow<'a, str>),
    Value(Value),
}

fn raw_extract<'a>(arguments: &ArgIndex<'a>, path: &[String]) -> RawLeaf<'a> {
    let Some((first, rest)) = path.split_first() else {
        return leaf(arguments.text);
    };
    let Some(mut cur) = arguments.get(first) else {
        return RawLeaf::Absent;
    };
    for key in rest {
        // `Value::get` with a key finds members of objects only
        match validated::get(cur, key) {
            Some(v) => cur = v,
            None => return RawLeaf::Absent,
        }
    }
    leaf(cur)
}

/// A validated value as `extract` sees it.
fn leaf(text: &str) -> RawLeaf<'_> {
    let value = match validated::kind(text) {
        Kind::Null => return RawLeaf::Null,
        Kind::Bool => Value::Bool(text == "true"),
        Kind::String => {
            return match validated::as_str(text) {
                Some(s) => RawLeaf::Text(s),
                None => RawLeaf::Absent,
            }
        }
        // validated text of the scanner's subset: serde_json parses it the same way it
        // would inside the whole body; a failure cannot happen, but would read as absent
        _ => match validated::value(text) {
            Some(v) => v,
            None => return RawLeaf::Absent,
        },
    };
    RawLeaf::Value(value)
}

/// The members of a validated arguments object, read once (at most `ARG_SLOTS`; a larger
/// object is searched in place).
struct ArgIndex<'a> {
    text: &'a str,
    members: [(&'a str, &'a str); ARG_SLOTS],
    len: usize,
    overflow: bool,
}

const ARG_SLOTS: usize = 16;

impl<'a> ArgIndex<'a> {
    fn new(text: &'a str) -> ArgIndex<'a> {
        let mut index = ArgIndex {
            text,
            members: [("", ""); ARG_SLOTS],
            len: 0,
            overflow: false,
        };
        for m in validated::members(text) {
            if index.len == ARG_SLOTS {
                index.overflow = true;
                break;
            }
            index.members[index.len] = m;
            index.len += 1;
        }
        index
    }

    /// Like `validated::get`: the last member named `key`.
    fn get(&self, key: &str) -> Option<&'a str> {
        if self.overflow {
            return validated::get(self.text, key);
        }
        self.members[..self.len]
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }
}
