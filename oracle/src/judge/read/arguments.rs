//! The `arguments` of a `tools/call` and the value at a parameter's path in them
//! (`annotations::extract`), read from the members the scanner noted in the body text
//! (`arg_members`) or from a parsed tree.

use super::arg_members::ArgMembers;
use super::validated::{self, Kind, Val};
use crate::annotations::{extract, Extracted};
use crate::encoding::{compare_param, compare_param_text, ParamMatch};
use serde_json::Value;
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
                Extracted::Value(v) => Leaf::Other(v),
            },
            Some(Arguments::Raw(raw)) => {
                *held = raw_extract(raw, path);
                match held {
                    RawLeaf::Absent => Leaf::Absent,
                    RawLeaf::Null => Leaf::Null,
                    RawLeaf::Text(s) => Leaf::Text(s),
                    RawLeaf::Value(v) => Leaf::Other(v),
                }
            }
        }
    }

    /// Call `k` with the value at `path` (`value_at` for a caller without a place to hold it).
    #[cfg(test)]
    pub fn with_value<R>(&self, path: &[String], k: impl FnOnce(Leaf<'_>) -> R) -> R {
        let mut held = RawLeaf::Absent;
        k(self.value_at(path, &mut held))
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
#[derive(Default)]
pub(crate) enum RawLeaf<'a> {
    #[default]
    Absent,
    Null,
    Text(std::borrow::Cow<'a, str>),
    Value(Value),
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
        Kind::Bool => Value::Bool(v.text == "true"),
        Kind::String => return v.as_str().map_or(RawLeaf::Absent, RawLeaf::Text),
        // validated text of the scanner's subset: serde_json parses it the same way it
        // would inside the whole body; a failure cannot happen, but would read as absent
        _ => match validated::value(v.text) {
            Some(v) => v,
            None => return RawLeaf::Absent,
        },
    };
    RawLeaf::Value(value)
}
