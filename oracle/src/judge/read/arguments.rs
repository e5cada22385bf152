//! The `arguments` of a `tools/call` and the value at a parameter's path in them
//! (`annotations::extract`), read from the validated body text or from a parsed tree.

use super::validated::{self, Kind};
use crate::annotations::{extract, Extracted};
use serde_json::Value;

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
    pub fn with_value<R>(&self, path: &[String], k: impl FnOnce(Extracted<'_>) -> R) -> R {
        match self.arguments {
            None => k(Extracted::Absent),
            Some(Arguments::Parsed(v)) => k(extract(Some(v), path)),
            Some(Arguments::Raw(_)) => match raw_extract(&self.index, path) {
                RawLeaf::Absent => k(Extracted::Absent),
                RawLeaf::Null => k(Extracted::Null),
                RawLeaf::Value(v) => k(Extracted::Value(&v)),
            },
        }
    }
}

/// `extract` over validated JSON text: the value at `path` as an owned `Value` (only the
/// leaf is parsed).
enum RawLeaf {
    Absent,
    Null,
    Value(Value),
}

fn raw_extract(arguments: &ArgIndex<'_>, path: &[String]) -> RawLeaf {
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
fn leaf(text: &str) -> RawLeaf {
    let value = match validated::kind(text) {
        Kind::Null => return RawLeaf::Null,
        Kind::Bool => Value::Bool(text == "true"),
        Kind::String => match validated::as_str(text) {
            Some(s) => Value::String(s.into_owned()),
            None => return RawLeaf::Absent,
        },
        // validated text of the scanner's subset: serde_json parses it the same way it
        // would inside the whole body; a failure cannot happen, but would read as absent
        _ => match serde_json::from_str(text) {
            Ok(v) => v,
            Err(_) => return RawLeaf::Absent,
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
