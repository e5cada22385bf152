//! A borrowed reading of a POST body in one pass: validate it and note the members the judge
//! reads (`id`, `method`, `params.name`, `params._meta...`, the shape of `clientInfo`), with
//! no `serde_json::Value` tree and no allocation.
//!
//! The scanner accepts only a subset of JSON for which its readings are sure to agree with
//! `serde_json::from_slice::<Value>`: valid UTF-8, keys without escapes, string escapes
//! other than `\u` surrogates, no control byte in a string, numbers with a mantissa of at
//! most 20 bytes and an exponent of at most 280 (never out of range), nesting at most 127
//! deep (serde_json stops at 128). Anything else, valid JSON or not, makes [`read`] answer
//! `None` and the caller reads the body the simple way (`simple::read_body`). Like
//! `Value`'s map, a repeated key keeps its *last* value. The tokens are `lex`'s; the values
//! found are read by `validated`.

use super::arg_members::ArgMembers;
use super::keys::{known_key, Role, Slot};
use super::lex::{literal, number, skip_ws, string};
use super::validated::{kind_of, Kind, Val};

/// Nesting beyond this falls back to the full parse: `serde_json` refuses a value nested
/// `simple::PARSE_DEPTH` deep, and the scanner's readings agree with it only below that.
const MAX_DEPTH: usize = super::simple::PARSE_DEPTH - 1;

/// The members of the top-level object the judge reads (the last of a repeated key, as
/// `Value`'s map keeps it).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Top<'a> {
    pub is_object: bool,
    /// The deepest nesting of arrays and objects (the top-level value's own counts 1).
    pub depth: usize,
    pub id: Option<Val<'a>>,
    pub jsonrpc: Option<Val<'a>>,
    pub method: Option<Val<'a>>,
    pub params: Option<Kind>,
    /// A `result` or `error` member is present.
    pub response: bool,
    /// The members of the last `params` (when it is an object).
    pub p: ParamsIdx<'a>,
}

/// The members of `params` the judge reads.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ParamsIdx<'a> {
    pub name: Option<Val<'a>>,
    pub uri: Option<Val<'a>>,
    pub meta: Option<Kind>,
    /// The value text of `arguments`.
    pub arguments: Option<&'a str>,
    /// The members of the last `arguments` (when it is an object).
    pub args: ArgMembers,
    /// A `cursor` member is present.
    pub cursor: bool,
    /// The members of the last `_meta` (when it is an object).
    pub m: MetaIdx<'a>,
}

/// The members of `params._meta` the judge reads.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MetaIdx<'a> {
    pub version: Option<Val<'a>>,
    pub capabilities: Option<Kind>,
    /// `clientInfo` is present: whether it is the schema's `Implementation` (an object with
    /// string `name` and `version`).
    pub client_info: Option<bool>,
    pub log_level: Option<Val<'a>>,
}

/// Why a body is outside the scanner's subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outside {
    /// A prefix the scanner validated nests `simple::PARSE_DEPTH` deep: `serde_json`
    /// refuses the body, and `case::nesting_depth` (which reads a valid prefix as the scanner
    /// does) finds at least that depth.
    TooDeep,
    /// Anything else: only the full parse can tell.
    Other,
}

/// `body` read in one pass when it is one JSON value of the supported subset (surrounding
/// JSON whitespace allowed), else why not.
pub(crate) fn read(body: &[u8]) -> Result<Top<'_>, Outside> {
    let text = std::str::from_utf8(body).map_err(|_| Outside::Other)?;
    let mut r = Reader {
        t: text,
        b: text.as_bytes(),
        top: Top::default(),
        info: (None, None),
        too_deep: false,
    };
    let mut i = skip_ws(r.b, 0);
    r.top.is_object = r.b.get(i) == Some(&b'{');
    // (the first refusal ends the scan: `too_deep` set means all before it was valid)
    let Some(end) = r.value(i, 0, Role::Top) else {
        return Err(if r.too_deep {
            Outside::TooDeep
        } else {
            Outside::Other
        });
    };
    i = skip_ws(r.b, end);
    if i == r.b.len() {
        Ok(r.top)
    } else {
        Err(Outside::Other)
    }
}

/// Whether `body` is in the scanner's subset.
pub(crate) fn validate(body: &[u8]) -> Option<()> {
    read(body).ok().map(|_| ())
}

struct Reader<'a> {
    t: &'a str,
    b: &'a [u8],
    top: Top<'a>,
    /// The kinds of `name` and `version` in the `clientInfo` being read.
    info: (Option<Kind>, Option<Kind>),
    /// The scan stopped at a value nested deeper than `MAX_DEPTH`.
    too_deep: bool,
}

impl<'a> Reader<'a> {
    /// Validate the value at `i` (recording members when `role` says so); the index after.
    fn value(&mut self, i: usize, depth: usize, role: Role) -> Option<usize> {
        let b = self.b;
        match *b.get(i)? {
            b'{' if role == Role::Arguments => self.arguments(i, depth + 1),
            b'{' => self.object(i, depth + 1, role),
            b'[' => self.array(i, depth + 1),
            b'"' => string(b, i).map(|(end, _)| end),
            b't' => literal(b, i, b"true"),
            b'f' => literal(b, i, b"false"),
            b'n' => literal(b, i, b"null"),
            _ => number(b, i),
        }
    }

    /// The role of the value of a member in `slot`, forgetting what an earlier member of
    /// the same name left (a later one replaces it, members and all).
    #[inline(always)]
    fn enter_member(&mut self, slot: Slot) -> Role {
        match slot {
            Slot::Arguments => {
                self.top.p.args = ArgMembers::default();
                Role::Arguments
            }
            Slot::Params => {
                self.top.p = ParamsIdx::default();
                Role::Params
            }
            Slot::Meta => {
                self.top.p.m = MetaIdx::default();
                Role::Meta
            }
            Slot::ClientInfo => {
                self.info = (None, None);
                Role::ClientInfo
            }
            _ => Role::Other,
        }
    }

    /// Note the value at `start..end` (a string holding escapes if `escaped`) of a member
    /// in `slot`; `None` if its text is not on char boundaries (it always is: both ends
    /// touch ASCII bytes of valid UTF-8).
    #[inline(always)]
    fn record(&mut self, slot: Slot, start: usize, end: usize, escaped: bool) -> Option<()> {
        let t = self.t;
        // (only the slots that keep the text slice it: the others need only the kind)
        let val = || t.get(start..end).map(|text| Val { text, escaped });
        let kind = kind_of(self.b.get(start).copied());
        let top = &mut self.top;
        match slot {
            Slot::Unread => {}
            Slot::Id => top.id = Some(val()?),
            Slot::Jsonrpc => top.jsonrpc = Some(val()?),
            Slot::Method => top.method = Some(val()?),
            Slot::Params => top.params = Some(kind),
            Slot::Response => top.response = true,
            Slot::Name => top.p.name = Some(val()?),
            Slot::Uri => top.p.uri = Some(val()?),
            Slot::Meta => top.p.meta = Some(kind),
            Slot::Arguments => top.p.arguments = Some(val()?.text),
            Slot::Cursor => top.p.cursor = true,
            Slot::Version => top.p.m.version = Some(val()?),
            Slot::Capabilities => top.p.m.capabilities = Some(kind),
            Slot::ClientInfo => {
                let strings = (Some(Kind::String), Some(Kind::String));
                top.p.m.client_info = Some(kind == Kind::Object && self.info == strings);
            }
            Slot::LogLevel => top.p.m.log_level = Some(val()?),
            Slot::InfoName => self.info.0 = Some(kind),
            Slot::InfoVersion => self.info.1 = Some(kind),
        }
        Some(())
    }

    /// Enter an array or object at `depth`: `None` (and `too_deep` set) beyond `MAX_DEPTH`.
    fn enter(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            self.too_deep = true;
            return None;
        }
        self.top.depth = self.top.depth.max(depth);
        Some(())
    }

    fn array(&mut self, i: usize, depth: usize) -> Option<usize> {
        self.enter(depth)?;
        let b = self.b;
        let mut j = skip_ws(b, i + 1);
        if *b.get(j)? == b']' {
            return Some(j + 1);
        }
        loop {
            j = self.value(j, depth, Role::Other)?;
            j = skip_ws(b, j);
            match *b.get(j)? {
                b',' => j = skip_ws(b, j + 1),
                b']' => return Some(j + 1),
                _ => return None,
            }
        }
    }

    fn object(&mut self, i: usize, depth: usize, role: Role) -> Option<usize> {
        self.enter(depth)?;
        let b = self.b;
        let mut j = skip_ws(b, i + 1);
        if *b.get(j)? == b'}' {
            return Some(j + 1);
        }
        loop {
            if *b.get(j)? != b'"' {
                return None;
            }
            let known = match role {
                Role::Other => None,
                _ => known_key(role, b, j),
            };
            let (slot, key_end) = match known {
                Some(found) => found,
                None => match string(b, j)? {
                    (end, false) => (Slot::Unread, end),
                    // a key spelled with escapes: compare it decoded, the full way
                    (_, true) => return None,
                },
            };
            j = skip_ws(b, key_end);
            if *b.get(j)? != b':' {
                return None;
            }
            j = skip_ws(b, j + 1);
            let start = j;
            if slot == Slot::Unread {
                // (a string, the usual value, read here rather than through a call)
                j = if *b.get(j)? == b'"' {
                    string(b, j)?.0
                } else {
                    self.value(j, depth, Role::Other)?
                };
            } else {
                let role = self.enter_member(slot);
                let escaped;
                (j, escaped) = if *b.get(j)? == b'"' {
                    string(b, j)?
                } else {
                    (self.value(j, depth, role)?, false)
                };
                self.record(slot, start, j, escaped)?;
            }
            j = skip_ws(b, j);
            match *b.get(j)? {
                b',' => j = skip_ws(b, j + 1),
                b'}' => return Some(j + 1),
                _ => return None,
            }
        }
    }

    /// The `arguments` object at `i`: validated as any object, each member noted.
    fn arguments(&mut self, i: usize, depth: usize) -> Option<usize> {
        self.enter(depth)?;
        let b = self.b;
        let mut j = skip_ws(b, i + 1);
        if *b.get(j)? == b'}' {
            return Some(j + 1);
        }
        loop {
            if *b.get(j)? != b'"' {
                return None;
            }
            let key = match string(b, j)? {
                (end, false) => (j + 1 - i, end - 1 - i),
                // a key spelled with escapes: compare it decoded, the full way
                (_, true) => return None,
            };
            j = skip_ws(b, key.1 + 1 + i);
            if *b.get(j)? != b':' {
                return None;
            }
            j = skip_ws(b, j + 1);
            let start = j;
            let escaped;
            (j, escaped) = if *b.get(j)? == b'"' {
                string(b, j)?
            } else {
                (self.value(j, depth, Role::Other)?, false)
            };
            self.top.p.args.push(key, (start - i, j - i), escaped);
            j = skip_ws(b, j);
            match *b.get(j)? {
                b',' => j = skip_ws(b, j + 1),
                b'}' => return Some(j + 1),
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
