//! A borrowed reading of a POST body in one pass: validate it and note where the members
//! the judge reads are (`id`, `method`, `params.name`, `params._meta...`), with no
//! `serde_json::Value` tree and no allocation.
//!
//! The scanner accepts only a subset of JSON for which its readings are sure to agree with
//! `serde_json::from_slice::<Value>`: valid UTF-8, keys without escapes, string escapes
//! other than `\u` surrogates, no control byte in a string, numbers with a mantissa of at
//! most 20 bytes and an exponent of at most 280 (never out of range), nesting at most 127
//! deep (serde_json stops at 128). Anything else, valid JSON or not, makes [`read`] answer
//! `None` and the caller reads the body the simple way (`simple::read_body`). Like
//! `Value`'s map, a repeated key keeps its *last* value. The values found are read by
//! `validated`.

use super::swar::skip_plain;

/// Nesting beyond this falls back to the full parse: `serde_json` refuses a value nested
/// `simple::PARSE_DEPTH` deep, and the scanner's readings agree with it only below that.
const MAX_DEPTH: usize = super::simple::PARSE_DEPTH - 1;
/// Longer mantissas fall back to the full parse (they may overflow `f64`).
const MAX_NUMBER_LEN: usize = 20;
/// Larger exponents fall back to the full parse (with a 20-digit mantissa, `1e280` times
/// `1e20` stays below `f64::MAX`; tiny values round to zero without error).
const MAX_EXPONENT: u32 = 280;
/// A positive exponent may reach this minus the mantissa's length: the value stays below
/// `10^305`, under `f64::MAX` (`1e+300` is a common spelling of a huge id).
const MAX_MAGNITUDE: u32 = 305;

/// The members of the top-level object the judge reads (value texts; the last of a
/// repeated key, as `Value`'s map keeps it).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Top<'a> {
    pub is_object: bool,
    /// The deepest nesting of arrays and objects (the top-level value's own counts 1).
    pub depth: usize,
    pub id: Option<&'a str>,
    pub jsonrpc: Option<&'a str>,
    pub method: Option<&'a str>,
    pub params: Option<&'a str>,
    /// A `result` or `error` member is present.
    pub response: bool,
    /// The members of the last `params` (when it is an object).
    pub p: ParamsIdx<'a>,
}

/// The members of `params` the judge reads.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ParamsIdx<'a> {
    pub name: Option<&'a str>,
    pub uri: Option<&'a str>,
    pub meta: Option<&'a str>,
    pub arguments: Option<&'a str>,
    /// The members of the last `_meta` (when it is an object).
    pub version: Option<&'a str>,
    pub capabilities: Option<&'a str>,
    pub client_info: Option<&'a str>,
    pub log_level: Option<&'a str>,
    /// A `cursor` member is present.
    pub cursor: bool,
}

/// Which object a validated value is, as far as the judge reads members.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Top,
    Params,
    Meta,
    Other,
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

pub(crate) fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    // (every JSON whitespace byte is at most a space: one comparison settles the usual case)
    while let Some(&c) = b.get(i) {
        if c > b' ' || !is_ws(c) {
            break;
        }
        i += 1;
    }
    i
}

/// `"..."` at `i`: its end and whether it holds escapes. No control byte; escapes are the
/// JSON ones, `\\u` outside the surrogate range only (the text is already valid UTF-8).
fn string(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let mut j = i + 1;
    let mut escaped = false;
    loop {
        j = skip_plain(b, j);
        match *b.get(j)? {
            b'"' => return Some((j + 1, escaped)),
            b'\\' => {
                escaped = true;
                match *b.get(j + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                    b'u' => {
                        let hex = b.get(j + 2..j + 6)?;
                        let mut code = 0u32;
                        for h in hex {
                            code = code * 16 + (*h as char).to_digit(16)?;
                        }
                        if (0xD800..=0xDFFF).contains(&code) {
                            return None;
                        }
                        j += 6;
                    }
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]{1,3})?` with a mantissa of at most
/// `MAX_NUMBER_LEN` bytes and an exponent of at most `MAX_EXPONENT`, or `MAX_MAGNITUDE` minus
/// the mantissa's length when positive (never out of range).
fn number(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    match *b.get(j)? {
        b'0' => j += 1,
        b'1'..=b'9' => {
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
        }
        _ => return None,
    }
    if b.get(j) == Some(&b'.') {
        j += 1;
        let start = j;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j == start {
            return None;
        }
    }
    let mantissa = j - i;
    if mantissa > MAX_NUMBER_LEN {
        return None;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        j += 1;
        let negative = b.get(j) == Some(&b'-');
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let start = j;
        let mut exponent = 0u32;
        while let Some(d) = b.get(j).filter(|d| d.is_ascii_digit()) {
            exponent = exponent * 10 + u32::from(d - b'0');
            j += 1;
            if j - start > 3 {
                return None;
            }
        }
        // below 10^(mantissa + exponent): short mantissas may take larger exponents
        let limit = if negative {
            MAX_EXPONENT
        } else {
            MAX_EXPONENT.max(MAX_MAGNITUDE - mantissa as u32)
        };
        if j == start || exponent > limit {
            return None;
        }
    }
    Some(j)
}

fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b.get(i..i + word.len())
        .filter(|w| *w == word)
        .map(|_| i + word.len())
}

struct Reader<'a> {
    t: &'a str,
    b: &'a [u8],
    top: Top<'a>,
    /// The scan stopped at a value nested deeper than `MAX_DEPTH`.
    too_deep: bool,
}

impl<'a> Reader<'a> {
    /// Validate the value at `i` (recording members when `role` says so); the index after.
    fn value(&mut self, i: usize, depth: usize, role: Role) -> Option<usize> {
        let b = self.b;
        match *b.get(i)? {
            b'{' => self.object(i, depth + 1, role),
            b'[' => self.array(i, depth + 1),
            b'"' => string(b, i).map(|(end, _)| end),
            b't' => literal(b, i, b"true"),
            b'f' => literal(b, i, b"false"),
            b'n' => literal(b, i, b"null"),
            _ => number(b, i),
        }
    }

    /// Note member `key` of an object in `role` with value text `v`, if the judge reads it.
    fn record(&mut self, role: Role, key: &[u8], v: &'a str) {
        use crate::case::{
            META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION,
        };
        let top = &mut self.top;
        let v = Some(v);
        match (role, key) {
            (Role::Top, b"id") => top.id = v,
            (Role::Top, b"jsonrpc") => top.jsonrpc = v,
            (Role::Top, b"method") => top.method = v,
            (Role::Top, b"params") => top.params = v,
            (Role::Top, b"result" | b"error") => top.response = true,
            // a member JSON-RPC 2.0 does not list is valid (schema.json JSONRPCRequest
            // has no `additionalProperties: false`; DEVIATIONS.md D-48)
            (Role::Params, b"name") => top.p.name = v,
            (Role::Params, b"uri") => top.p.uri = v,
            (Role::Params, b"_meta") => top.p.meta = v,
            (Role::Params, b"arguments") => top.p.arguments = v,
            (Role::Params, b"cursor") => top.p.cursor = true,
            (Role::Meta, k) if k == META_PROTOCOL_VERSION.as_bytes() => top.p.version = v,
            (Role::Meta, k) if k == META_CLIENT_CAPABILITIES.as_bytes() => top.p.capabilities = v,
            (Role::Meta, k) if k == META_CLIENT_INFO.as_bytes() => top.p.client_info = v,
            (Role::Meta, k) if k == META_LOG_LEVEL.as_bytes() => top.p.log_level = v,
            _ => {}
        }
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
            let (key_end, escaped) = string(b, j)?;
            if escaped {
                // a key spelled with escapes: compare it decoded, the full way
                return None;
            }
            // (compared as bytes: slicing the text would check char boundaries per key)
            let key = &b[j + 1..key_end - 1];
            j = skip_ws(b, key_end);
            if *b.get(j)? != b':' {
                return None;
            }
            j = skip_ws(b, j + 1);
            let child = match (role, key) {
                (Role::Other, _) => Role::Other,
                (Role::Top, b"params") => {
                    // a later `params` replaces an earlier one, members and all
                    self.top.p = ParamsIdx::default();
                    Role::Params
                }
                (Role::Params, b"_meta") => {
                    self.top.p.version = None;
                    self.top.p.capabilities = None;
                    self.top.p.client_info = None;
                    self.top.p.log_level = None;
                    Role::Meta
                }
                _ => Role::Other,
            };
            let start = j;
            j = self.value(j, depth, child)?;
            if role != Role::Other {
                self.record(role, key, &self.t[start..j]);
            }
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
