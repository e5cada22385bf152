//! The scanner's shortcut for the spelling nearly every request uses (the conformant
//! client's, and the runner's): the top-level object's `jsonrpc`, id and method, and
//! `_meta`'s version, capabilities and client info, each recognised with a comparison or two
//! and noted exactly as `Reader::object` notes them member by member (same spans, same
//! nesting). Any other spelling, a space included, is left to the member loop. A child of
//! `scan`: it writes the reader's own notes.

use super::super::keys::Slot;
use super::super::lex::string;
use super::Reader;

/// How nearly every request's `_meta` begins (the conformant client's, and the runner's):
/// the version's member up to its value, then, after the version, the other two members.
const META_HEAD: &[u8] = b"{\"io.modelcontextprotocol/protocolVersion\":";
/// (The version is this crate's, as `client::request_meta` writes it; a test holds the two
/// spellings together.)
const META_TAIL: &[u8] = concat!(
    ",\"io.modelcontextprotocol/clientCapabilities\":{},",
    "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcpdiff\",\"version\":\"",
    env!("CARGO_PKG_VERSION"),
    "\"}"
)
.as_bytes();
/// Where in `META_TAIL` the values of its members lie (`start..end`).
const TAIL_CAPABILITIES: (usize, usize) = value_in(META_TAIL, b"{}");
const TAIL_CLIENT_INFO: (usize, usize) = (value_in(META_TAIL, b"{\"name\"").0, META_TAIL.len());
const TAIL_INFO_NAME: (usize, usize) = value_in(META_TAIL, b"\"mcpdiff\"");
const TAIL_INFO_VERSION: (usize, usize) = value_in(
    META_TAIL,
    concat!("\"", env!("CARGO_PKG_VERSION"), "\"").as_bytes(),
);

/// Where `value` first begins in `text`, and where it ends (found at compile time).
const fn value_in(text: &[u8], value: &[u8]) -> (usize, usize) {
    let mut at = 0;
    while at + value.len() <= text.len() {
        let mut n = 0;
        while n < value.len() && text[at + n] == value[n] {
            n += 1;
        }
        if n == value.len() {
            return (at, at + n);
        }
        at += 1;
    }
    panic!("not in the text")
}

impl Reader<'_, '_> {
    /// A `_meta` object at `i` that begins as `META_HEAD`, a version string without escapes,
    /// and `META_TAIL`: its members noted as `object` notes them, the nesting entered as
    /// `object` enters it, and the index after the last of them; `None` for any other text
    /// (`object` reads it member by member). About a third of a usual body, read with two
    /// comparisons instead of five members' worth of token steps.
    #[inline(never)]
    pub(super) fn usual_meta(&mut self, i: usize, depth: usize) -> Option<usize> {
        let b = self.b;
        let version = i + META_HEAD.len();
        if b.get(i..version)? != META_HEAD || b.get(version) != Some(&b'"') {
            return None;
        }
        let (tail, escaped) = string(b, version)?;
        if escaped || b.get(tail..tail + META_TAIL.len())? != META_TAIL {
            return None;
        }
        // `clientCapabilities`' `{}` and `clientInfo`'s object, one level in
        self.nesting.enter(depth + 1)?;
        self.record(Slot::Version, version, tail, false);
        for (slot, (start, end)) in [
            (Slot::Capabilities, TAIL_CAPABILITIES),
            (Slot::ClientInfo, TAIL_CLIENT_INFO),
            (Slot::InfoName, TAIL_INFO_NAME),
            (Slot::InfoVersion, TAIL_INFO_VERSION),
        ] {
            self.record(slot, tail + start, tail + end, false);
        }
        Some(tail + META_TAIL.len())
    }
}

/// How nearly every request begins: `jsonrpc`, then the id's member up to its value; and
/// after the id, the method's member up to its value.
const TOP_HEAD: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":";
const TOP_METHOD: &[u8] = b",\"method\":";
/// Where in `TOP_HEAD` the value of `jsonrpc` lies.
const TOP_JSONRPC: (usize, usize) = value_in(TOP_HEAD, b"\"2.0\"");

impl Reader<'_, '_> {
    /// A top-level object at `i` that begins as `TOP_HEAD`, an id, `TOP_METHOD` and a method
    /// string: those members noted as `object` notes them, and the index after the method's
    /// value; `None` for any other text (`object` reads it member by member).
    #[inline(never)]
    pub(super) fn usual_top(&mut self, i: usize, depth: usize) -> Option<usize> {
        let b = self.b;
        let id = i + TOP_HEAD.len();
        if b.get(i..id)? != TOP_HEAD {
            return None;
        }
        let (id_end, id_escaped) = self.unread(id, *b.get(id)?, depth)?;
        let method = id_end + TOP_METHOD.len();
        if b.get(id_end..method)? != TOP_METHOD || b.get(method) != Some(&b'"') {
            return None;
        }
        let (end, method_escaped) = string(b, method)?;
        self.record(Slot::Jsonrpc, i + TOP_JSONRPC.0, i + TOP_JSONRPC.1, false);
        self.record(Slot::Id, id, id_end, id_escaped);
        self.record(Slot::Method, method, end, method_escaped);
        Some(end)
    }
}

#[cfg(test)]
mod tests {
    use super::{META_HEAD, META_TAIL, TOP_HEAD, TOP_METHOD};
    use crate::case::MODERN_VERSION;

    /// The conformant client's `_meta`, as the runner and the probes send it, is the spelling
    /// the shortcut recognises (else the shortcut would silently stop firing: no reading
    /// would change, only the judge's speed).
    #[test]
    fn the_conformant_meta_is_the_usual_spelling() {
        let sent = serde_json::to_string(&crate::client::request_meta(MODERN_VERSION))
            .expect("a JSON value serializes");
        let usual = [
            META_HEAD,
            format!("\"{MODERN_VERSION}\"").as_bytes(),
            META_TAIL,
            b"}",
        ]
        .concat();
        assert_eq!(sent.as_bytes(), usual.as_slice(), "{sent}");
        // and its bodies begin as the top-level shortcut reads them
        let body = crate::client::request_body(&7.into(), "tools/list", &serde_json::json!({}));
        let body = serde_json::to_string(&body).expect("a JSON value serializes");
        let head = [TOP_HEAD, b"7", TOP_METHOD, b"\"tools/list\""].concat();
        assert!(body.as_bytes().starts_with(&head), "{body}");
    }
}
