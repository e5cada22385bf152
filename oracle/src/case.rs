//! `Case`: one raw HTTP request exactly as it goes on the wire.
//!
//! Header names and values are bytes, in order, duplicates allowed, so a generator can plant
//! odd casing, control bytes or repeated fields and the transport can reproduce them byte for
//! byte. The oracle reads a `Case` through the helpers here, which apply the RFC 9110 field
//! rules (case-insensitive names, optional whitespace trimmed from values).

use crate::swar::skip_plain;
use serde::{Deserialize, Serialize};

/// The protocol revision this oracle models.
pub const MODERN_VERSION: &str = "2026-07-28";

/// `_meta` key carrying the protocol version of a request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key carrying the client capabilities of a request.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key carrying the client info of a request (optional).
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of the per-request log level (server/utilities/logging.mdx).
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// One raw HTTP request. `labels` are the defects a generator planted; the oracle never reads
/// them (it judges the bytes), they only help reports and shrinking.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Case {
    /// HTTP method token, e.g. `POST`.
    pub method: String,
    /// Request target, e.g. `/mcp`.
    pub path: String,
    /// Ordered header fields as raw bytes. In JSON: `[name, value]` pairs, each a string
    /// when it is UTF-8, else `{"base64": "..."}` (`case_json`).
    #[serde(with = "crate::case_json::headers")]
    pub headers: Vec<(Vec<u8>, Vec<u8>)>,
    /// Body bytes (may be anything, including invalid UTF-8); in JSON as the headers' bytes.
    #[serde(with = "crate::case_json::bytes")]
    pub body: Vec<u8>,
    /// Generator labels of the planted defects (informational).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

impl Case {
    /// A POST to `path` with the given headers and body.
    pub fn post(path: &str, headers: &[(&str, &str)], body: impl Into<Vec<u8>>) -> Case {
        Case {
            method: "POST".to_string(),
            path: path.to_string(),
            headers: headers
                .iter()
                .map(|(n, v)| (n.as_bytes().to_vec(), v.as_bytes().to_vec()))
                .collect(),
            body: body.into(),
            labels: Vec::new(),
        }
    }

    /// All values of the header `name` (ASCII case-insensitive), in order, raw (untrimmed).
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
        // `eq_ignore_ascii_case` folds both sides itself: no lowercased copy of `name`
        // (this runs several times per judged case)
        let name = name.as_bytes();
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The header `name` as a `HeaderField`: absent, one value (OWS-trimmed), or repeated.
    pub fn header(&self, name: &str) -> HeaderField<'_> {
        // a plain loop, not `header_values`: the judge calls this for every mirrored header
        // of every case, and the iterator would tie `name`'s lifetime to the answer
        let mut found = None;
        for (n, v) in &self.headers {
            if n.eq_ignore_ascii_case(name.as_bytes()) {
                if found.is_some() {
                    return HeaderField::Repeated;
                }
                found = Some(v.as_slice());
            }
        }
        match found {
            None => HeaderField::Absent,
            Some(v) => HeaderField::One(trim_ows(v)),
        }
    }

    /// Replace every field named `name` (case-insensitive) by one field `name: value`,
    /// appended at the end; `None` removes the field.
    pub fn set_header(&mut self, name: &str, value: Option<&[u8]>) {
        self.headers
            .retain(|(n, _)| !n.eq_ignore_ascii_case(name.as_bytes()));
        if let Some(v) = value {
            self.headers.push((name.as_bytes().to_vec(), v.to_vec()));
        }
    }
}

/// One header as the server's HTTP layer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderField<'a> {
    /// Not sent.
    Absent,
    /// Sent once; the value with leading/trailing SP and HTAB removed (RFC 9110 §5.5).
    One(&'a [u8]),
    /// Sent more than once (the spec does not say how to combine them: AMB-20).
    Repeated,
}

impl<'a> HeaderField<'a> {
    /// This field after one more occurrence, with value `v`: the one fold every header reader
    /// uses (absent becomes one value, anything else repeated).
    #[inline(always)]
    pub fn and_another(self, v: &'a [u8]) -> HeaderField<'a> {
        match self {
            HeaderField::Absent => HeaderField::One(v),
            _ => HeaderField::Repeated,
        }
    }
}

/// Nesting depth beyond which a body may be refused by a JSON reader's depth limit: "An
/// implementation may set limits on the maximum depth of nesting" (RFC 8259 §9). The RFC names
/// no number; 16 is above every probe body (test `probes_nest_within_the_limit`), so a refusal
/// is admitted only where a limit, not a defect, explains it (DEVIATIONS.md D-48).
pub const NESTING_LIMIT: usize = 16;

/// Whether `body` opens more than [`NESTING_LIMIT`] arrays/objects at once (strings skipped).
pub fn nesting_beyond(body: &[u8]) -> bool {
    nesting_depth(body, NESTING_LIMIT) > NESTING_LIMIT
}

/// The deepest nesting of `[` and `{` in `body` outside strings, or the first depth above
/// `stop_above` (the walk stops there: callers that only compare with a limit need no more).
pub fn nesting_depth(body: &[u8], stop_above: usize) -> usize {
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    while let Some(&b) = body.get(i) {
        i += 1;
        match b {
            // through the string, a word at a time between its quotes and backslashes (a
            // backslash escapes the byte after it; the string may run to the end)
            b'"' => loop {
                i = skip_plain(body, i);
                match body.get(i) {
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') => i += 2,
                    Some(_) => i += 1,
                    None => return deepest,
                }
            },
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
                if depth > stop_above {
                    return depth;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Strip RFC 9110 optional whitespace (SP, HTAB) from both ends.
pub fn trim_ows(v: &[u8]) -> &[u8] {
    let is_ows = |b: &u8| *b == b' ' || *b == b'\t';
    // (nearly every value has no OWS at either end: two compares settle it)
    if v.first().is_some_and(|b| !is_ows(b)) && v.last().is_some_and(|b| !is_ows(b)) {
        return v;
    }
    let start = v.iter().position(|b| !is_ows(b)).unwrap_or(v.len());
    let end = v.iter().rposition(|b| !is_ows(b)).map_or(start, |e| e + 1);
    &v[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lookup_is_case_insensitive_and_trims_ows() {
        let c = Case::post("/mcp", &[("mcp-METHOD", " \ttools/list ")], "");
        assert_eq!(c.header("Mcp-Method"), HeaderField::One(b"tools/list"));
        assert_eq!(c.header("Mcp-Name"), HeaderField::Absent);
    }

    #[test]
    fn repeated_header_is_reported() {
        let c = Case::post("/mcp", &[("Mcp-Name", "a"), ("MCP-NAME", "a")], "");
        assert_eq!(c.header("mcp-name"), HeaderField::Repeated);
    }

    /// `nesting_depth` as a byte-at-a-time walk: the definition the fast one keeps.
    fn nesting_depth_bytewise(body: &[u8], stop_above: usize) -> usize {
        let (mut depth, mut deepest, mut in_string, mut escaped) = (0, 0, false, false);
        for &b in body {
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                    if depth > stop_above {
                        return depth;
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        deepest
    }

    #[test]
    fn nesting_depth_skips_strings_as_a_bytewise_walk_does() {
        let bodies: [&[u8]; 12] = [
            b"",
            b"[[[]]]",
            br#"{"a":[{"b":"[[[["}],"c":"\\"}"#,
            br#"["\"[[[", [[ ]]]"#,
            br#"{"k": "long text without stops [[[[ {{{{ and more", "x": [[[1]]]}"#,
            b"\"unterminated [[[[",
            b"\"ends in a backslash \\",
            b"\"ctl \x01 [ \x1f \"[[",
            b"]]]][[",
            b"\"\xff\xfe[\"[\x80{",
            br#"["\\\"", [["\\"]]]"#,
            br#"{"a":"12345678\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}"#,
        ];
        for body in bodies {
            for stop in [0, 1, 2, 16, 128] {
                let want = nesting_depth_bytewise(body, stop);
                assert_eq!(nesting_depth(body, stop), want, "{body:?} {stop}");
            }
        }
        // bodies drawn from the bytes that matter, long enough to cross word boundaries
        let alphabet = b"\"\\[]{}a \x01";
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..4000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let len = (seed >> 58) as usize;
            let body: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            for stop in [1, 3, 128] {
                let want = nesting_depth_bytewise(&body, stop);
                assert_eq!(nesting_depth(&body, stop), want, "{body:?} {stop}");
            }
        }
        let deep = "[".repeat(40) + &"\"[\\\"]\"".repeat(5) + &"{".repeat(40);
        for stop in [16, 70, 128] {
            let want = nesting_depth_bytewise(deep.as_bytes(), stop);
            assert_eq!(nesting_depth(deep.as_bytes(), stop), want);
        }
    }

    #[test]
    fn trim_keeps_internal_space() {
        assert_eq!(trim_ows(b"  us west 1\t"), b"us west 1");
        assert_eq!(trim_ows(b"   "), b"");
    }
}
