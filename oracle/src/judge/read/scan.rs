//! A borrowed reading of a POST body in one pass: validate it and note the members the judge
//! reads (`id`, `method`, `params.name`, `params._meta...`, the shape of `clientInfo`), with
//! no `serde_json::Value` tree and no allocation.
//!
//! The scanner accepts only a subset of JSON for which its readings are sure to agree with
//! `serde_json::from_slice::<Value>`: valid UTF-8, keys without escapes, string escapes
//! other than `\u` surrogates, no control byte in a string, numbers with a mantissa of at
//! most 20 bytes and an exponent of at most 280 (never out of range), nesting at most 127
//! deep (serde_json stops at 128). Anything else, valid JSON or not, makes [`read`] answer
//! `Err` and the caller reads the body the simple way (`simple::read_body`), unless the
//! answer says it cannot be JSON at all (`Outside`). Like `Value`'s map, a repeated key
//! keeps its *last* value. The tokens are `lex`'s; the values found are read by
//! `validated`. The objects whose members the judge reads are walked here, one call each;
//! any other value is validated by `skip` (a scalar or an empty array or object by `lex`
//! directly).

use super::arg_members::ArgMembers;
use super::keys::{known_key, Role, Slot};
use super::lex::{number, skip_ws, string, token, word_literal};
use super::skip::{self, plain_key, Nesting};
use super::validated::{kind_of, Kind, Val};

#[cfg(test)]
use super::skip::MAX_DEPTH;

/// Where the value of a member the judge reads was found in the body: `start..end`, with
/// `end` 0 when there is none (a value is never empty).
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: u32,
    end: u32,
    /// A string holding escapes.
    escaped: bool,
}

/// The slots, for sizing the table of spans.
const SLOTS: usize = Slot::InfoVersion as usize + 1;

/// Per slot, the role of its value when that is an object and the first slot of its
/// members (`SLOTS` when the judge reads none).
const MEMBERS: [(Role, usize); SLOTS] = {
    let mut t = [(Role::Other, SLOTS); SLOTS];
    t[Slot::Params as usize] = (Role::Params, Slot::Name as usize);
    t[Slot::Meta as usize] = (Role::Meta, Slot::Version as usize);
    t[Slot::ClientInfo as usize] = (Role::ClientInfo, Slot::InfoName as usize);
    t[Slot::Arguments as usize] = (Role::Arguments, SLOTS);
    t
};

/// The members of the top-level object the judge reads (the last of a repeated key, as
/// `Value`'s map keeps it), each where its `Slot` says: a member of `params` is the last one
/// of the last `params`, a member of `_meta` the last one of the last `_meta` of that, and
/// so on (a later member of the same name replaces an earlier one, members and all).
#[derive(Clone, Debug)]
pub(crate) struct Top<'a> {
    text: &'a str,
    pub is_object: bool,
    /// The deepest nesting of arrays and objects (the top-level value's own counts 1).
    pub depth: usize,
    spans: [Span; SLOTS],
    /// The members of the last `params.arguments` (when it is an object).
    pub args: ArgMembers,
}

/// Nothing read yet (`read` fills it in place: it is too big to return cheaply).
impl Default for Top<'_> {
    fn default() -> Self {
        Top {
            text: "",
            is_object: false,
            depth: 0,
            spans: [Span::default(); SLOTS],
            args: ArgMembers::default(),
        }
    }
}

impl<'a> Top<'a> {
    /// The value of the member in `slot`, if there is one.
    pub fn val(&self, slot: Slot) -> Option<Val<'a>> {
        let span = self.spans[slot as usize];
        if span.end == 0 {
            return None;
        }
        // (both ends touch ASCII bytes of valid UTF-8: on char boundaries)
        let text = self.text.get(span.start as usize..span.end as usize)?;
        Some(Val {
            text,
            escaped: span.escaped,
        })
    }

    /// The kind of the member in `slot`, if there is one.
    pub fn kind(&self, slot: Slot) -> Option<Kind> {
        let span = self.spans[slot as usize];
        (span.end != 0).then(|| kind_of(self.text.as_bytes().get(span.start as usize).copied()))
    }

    /// Whether `clientInfo` (in `params._meta`), when present, is the schema's
    /// `Implementation`: an object with string `name` and `version`.
    pub fn client_info(&self) -> Option<bool> {
        let info = self.kind(Slot::ClientInfo)?;
        let members = (self.kind(Slot::InfoName), self.kind(Slot::InfoVersion));
        let strings = (Some(Kind::String), Some(Kind::String));
        Some(info == Kind::Object && members == strings)
    }
}

/// Why a body is outside the scanner's subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outside {
    /// A prefix the scanner validated nests `simple::PARSE_DEPTH` deep: `serde_json`
    /// refuses the body, and `case::nesting_depth` (which reads a valid prefix as the scanner
    /// does) finds at least that depth.
    TooDeep,
    /// Not UTF-8, so not JSON: `serde_json` reads no byte above ASCII outside a string, and
    /// checks the text of each string it reads into a `Value`.
    NotUtf8,
    /// Anything else: only the full parse can tell.
    Other,
}

/// `body` read in one pass into `top` (as `Top::default()` leaves it) when it is one JSON
/// value of the supported subset (surrounding JSON whitespace allowed), else why not.
pub(crate) fn read<'a>(body: &'a [u8], top: &mut Top<'a>) -> Result<(), Outside> {
    // (`simdutf8::basic` answers exactly as `std::str::from_utf8` does, whether the bytes are
    // UTF-8, a word or a vector at a time: on the scanner's usual body it costs a fifth)
    let text = simdutf8::basic::from_utf8(body).map_err(|_| Outside::NotUtf8)?;
    // (spans are `u32`: a body beyond that is left to the full parse)
    if u32::try_from(body.len()).is_err() {
        return Err(Outside::Other);
    }
    top.text = text;
    let mut r = Reader {
        b: body,
        top,
        nesting: Nesting::default(),
    };
    let i = skip_ws(body, 0);
    let is_object = body.get(i) == Some(&b'{');
    r.top.is_object = is_object;
    let end = if is_object {
        r.object(i, 1, Role::Top)
    } else {
        skip::value(body, i, 0, &mut r.nesting)
    };
    // (the first refusal ends the scan: `too_deep` set means all before it was valid)
    match end {
        Some(end) if skip_ws(body, end) == body.len() => {
            r.top.depth = r.nesting.deepest;
            Ok(())
        }
        Some(_) => Err(Outside::Other),
        None if r.nesting.too_deep => Err(Outside::TooDeep),
        None => Err(Outside::Other),
    }
}

/// Whether `body` is in the scanner's subset.
pub(crate) fn validate(body: &[u8]) -> Option<()> {
    read(body, &mut Top::default()).ok()
}

struct Reader<'a, 't> {
    b: &'a [u8],
    top: &'t mut Top<'a>,
    nesting: Nesting,
}

impl Reader<'_, '_> {
    /// The role of the value of a member in `slot`, forgetting what an earlier member of
    /// the same name left (a later one replaces it, members and all). Read off a table: no
    /// jump per slot.
    #[inline(always)]
    fn enter_member(&mut self, slot: Slot) -> Role {
        let (role, _) = MEMBERS[slot as usize];
        // (members are noted only inside their object, which is noted once read: with none
        // noted yet there is nothing to forget, the usual case)
        if self.top.spans[slot as usize].end != 0 {
            self.forget_members(slot);
        }
        role
    }

    /// Forget the members noted under `slot` (they follow it to the end of `Slot`).
    #[cold]
    #[inline(never)]
    fn forget_members(&mut self, slot: Slot) {
        let (role, members) = MEMBERS[slot as usize];
        if let Some(spans) = self.top.spans.get_mut(members..) {
            spans.fill(Span::default());
        }
        if role == Role::Arguments || role == Role::Params {
            self.top.args = ArgMembers::default();
        }
    }

    /// Note the value at `start..end` (a string holding escapes if `escaped`) of a member
    /// in `slot`.
    #[inline(always)]
    fn record(&mut self, slot: Slot, start: usize, end: usize, escaped: bool) {
        // (the body's length fits `u32`, checked up front)
        let at = |i: usize| i as u32;
        self.top.spans[slot as usize] = Span {
            start: at(start),
            end: at(end),
            escaped,
        };
    }

    /// The value at `j`, starting with `first`, of a member whose members the judge does
    /// not read: the index after it and whether it is a string holding escapes. A scalar
    /// or an empty array or object is read here, as `skip::value` would read it, without
    /// the call (`"clientCapabilities":{}`, numeric ids and arguments).
    #[inline(always)]
    fn unread(&mut self, j: usize, first: u8, depth: usize) -> Option<(usize, bool)> {
        let b = self.b;
        let end = match first {
            b'"' => return string(b, j),
            b'-' | b'0'..=b'9' => number(b, j)?,
            b'{' | b'[' => {
                self.nesting.enter(depth + 1)?;
                // `}` and `]` are two past their openers
                match token(b, j + 1)? {
                    (close, c) if c == first + 2 => close + 1,
                    _ => skip::value(b, j, depth, &mut self.nesting)?,
                }
            }
            _ => word_literal(b, j)?,
        };
        Some((end, false))
    }

    /// The object at `i`, at `depth`, whose members in `role` the judge reads: validated,
    /// those members noted (each member of `arguments`, the known keys of the others). The
    /// usual, compact spelling is tried first at each separator (`:` right after the key,
    /// `,` or `}` right after the value, the value and the next key right after those),
    /// whitespace only when that fails. (One loop for every role: a copy per role saves the
    /// dispatch on it per member but costs more in instruction-cache misses.)
    fn object(&mut self, i: usize, depth: usize, role: Role) -> Option<usize> {
        self.nesting.enter(depth)?;
        let b = self.b;
        let (mut j, mut c);
        let usual = match role {
            Role::Top => self.usual_top(i, depth),
            Role::Meta => self.usual_meta(i, depth),
            _ => None,
        };
        match usual {
            // the usual members read at once: on from the separator after them
            Some(end) => match token(b, end)? {
                (sep, b',') => (j, c) = token(b, sep + 1)?,
                (sep, b'}') => return Some(sep + 1),
                _ => return None,
            },
            None => {
                let (at, first) = token(b, i + 1)?;
                if first == b'}' {
                    return Some(at + 1);
                }
                (j, c) = (at, first);
            }
        }
        loop {
            if c != b'"' {
                return None;
            }
            let key = j;
            let (slot, key_end) = match known_key(role, b, j) {
                Some(found) => found,
                None => (Slot::Unread, plain_key(b, j)?),
            };
            let (colon, is_colon) = token(b, key_end)?;
            if is_colon != b':' {
                return None;
            }
            let (start, first) = token(b, colon + 1)?;
            let escaped;
            if slot == Slot::Unread {
                (j, escaped) = self.unread(start, first, depth)?;
                if role == Role::Arguments {
                    // offsets into the arguments text: the key inside its quotes, the value
                    let (at_key, at_value) = ((key + 1 - i, key_end - 1 - i), (start - i, j - i));
                    self.top.args.push(at_key, at_value, escaped);
                }
            } else {
                let inner = self.enter_member(slot);
                (j, escaped) = if inner != Role::Other && first == b'{' {
                    (self.object(start, depth + 1, inner)?, false)
                } else {
                    self.unread(start, first, depth)?
                };
                self.record(slot, start, j, escaped);
            }
            let (sep, after) = token(b, j)?;
            match after {
                b',' => (j, c) = token(b, sep + 1)?,
                b'}' => return Some(sep + 1),
                _ => return None,
            }
        }
    }
}

#[path = "usual.rs"]
mod usual;

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
