//! One corpus entry (`mcpdiff-corpus/2`, documented in `corpus/README.md`): the request's
//! bytes (header names, values and body as JSON strings when they are UTF-8, else
//! `{"base64": "..."}`, as a `Case` is written everywhere) beside a readable rendering, the
//! rules it exercises, the surface it is judged against, the oracle's expectations when it
//! was saved, and what each target answered. Entries of `mcpdiff-corpus/1` (every byte
//! sequence Base64) are read through `entry_v1`.
//!
//! This file owns the format (types, byte encoding, the case hash and file name); reading and
//! writing files is `store.rs`, re-judging `replay.rs`.

use super::error::CorpusError;
use mcpdiff_oracle::{fixture, Case, Observation, Surface, ToolDecl, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The schema id every entry is written with.
pub const SCHEMA: &str = "mcpdiff-corpus/2";

/// The schema id of entries whose bytes are all Base64; still read (`entry_v1`).
pub const SCHEMA_V1: &str = "mcpdiff-corpus/1";

/// One minimized case and what is known about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub schema: String,
    /// The rules the case was saved for (the first one names the file).
    pub rules: Vec<String>,
    /// Where it came from: `probe`, `mcpdiff run --seed N`, `fuzz import FILE`.
    pub source: String,
    pub request: StoredRequest,
    /// The surface the oracle judges the case against.
    pub surface: SurfaceRef,
    /// The oracle's expectations at save time ([`verdict_json`]); replay compares today's.
    pub verdict: Value,
    /// What each target answered when the entry was saved or last merged.
    #[serde(default)]
    pub targets: Vec<Recorded>,
    /// A connection probe's entry only (BASE-STATELESS-NO-PRIOR, `*-LIST-STABLE`;
    /// `corpus::connection`): every request of its sequence, grouped by the connection that
    /// carried them, in the order sent; `request` is the last one of the kept-alive
    /// connection, whose answer `targets` records.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connections: Vec<Vec<StoredRequest>>,
}

/// The raw request, its bytes written as a `Case` writes them
/// (`mcpdiff_oracle::case_json`); `readable` is for people and never read back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredRequest {
    pub method: String,
    pub path: String,
    /// `[name, value]` pairs, in order, duplicates kept.
    #[serde(with = "mcpdiff_oracle::case_json::headers")]
    pub headers: Vec<(Vec<u8>, Vec<u8>)>,
    #[serde(with = "mcpdiff_oracle::case_json::bytes")]
    pub body: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// The request as text, non-printable bytes as `\xNN` (informational).
    #[serde(default)]
    pub readable: Vec<String>,
}

/// The surface: `"fixture"` (the reference server's, `mcpdiff_oracle::fixture::surface()`)
/// or a full discovered surface.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SurfaceRef {
    Named(String),
    Full(Box<Surface>),
}

/// What one target answered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    /// The target's name in the run (`reference`, `mutant:NAME`, or its URL).
    pub target: String,
    pub url: String,
    /// The mcpdiff that recorded it.
    pub mcpdiff_version: String,
    /// `serverInfo` from the answer's `_meta`, when it carried one (the target's version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_info: Option<Value>,
    pub observation: Observation,
    /// Rule ids `check` reported for this answer at save time (empty: it passed).
    pub failing: Vec<String>,
}

impl StoredRequest {
    pub fn from_case(case: &Case) -> StoredRequest {
        StoredRequest {
            method: case.method.clone(),
            path: case.path.clone(),
            headers: case.headers.clone(),
            body: case.body.clone(),
            labels: case.labels.clone(),
            readable: render(case),
        }
    }

    /// The case these bytes stand for. (Fallible for the callers' sake: the bytes were
    /// checked when the entry was read, `entry_v1::check_bytes`.)
    pub fn to_case(&self) -> Result<Case, CorpusError> {
        Ok(Case {
            method: self.method.clone(),
            path: self.path.clone(),
            headers: self.headers.clone(),
            body: self.body.clone(),
            labels: self.labels.clone(),
        })
    }
}

impl SurfaceRef {
    /// `"fixture"` when `s` is the fixture surface, the whole surface otherwise.
    pub fn of(s: &Surface) -> SurfaceRef {
        if *s == fixture::surface() {
            SurfaceRef::Named("fixture".into())
        } else {
            SurfaceRef::Full(Box::new(s.clone()))
        }
    }

    pub fn resolve(&self) -> Result<Surface, CorpusError> {
        match self {
            SurfaceRef::Named(n) if n == "fixture" => Ok(fixture::surface()),
            SurfaceRef::Named(n) => Err(CorpusError::UnknownSurface(n.clone())),
            SurfaceRef::Full(s) => {
                let mut s = (**s).clone();
                // the annotation analysis is not serialized: redo it as discovery does, keeping
                // the `outputSchema` (TOOLS-OUTPUT-CONFORM and TOOLS-STRUCTURED-TEXT read it:
                // dropped here, an entry saved with one drifted on its first replay)
                s.tools = s
                    .tools
                    .into_iter()
                    .map(|t| {
                        let output = t.output_schema;
                        let mut tool = ToolDecl::new(t.name, t.input_schema, t.read_only);
                        tool.output_schema = output;
                        tool
                    })
                    .collect();
                Ok(s)
            }
        }
    }
}

impl Recorded {
    pub fn new(target: &str, url: &str, observation: Observation, failing: Vec<String>) -> Self {
        let server_info = observation
            .http()
            .and_then(|a| a.rpc_response())
            .and_then(|r| r.pointer("/result/_meta/io.modelcontextprotocol~1serverInfo"))
            .cloned();
        Recorded {
            target: target.to_string(),
            url: url.to_string(),
            mcpdiff_version: env!("CARGO_PKG_VERSION").to_string(),
            server_info,
            observation,
            failing,
        }
    }
}

impl Entry {
    /// A new entry for `case` saved for `rules`, with today's verdict.
    pub fn new(rules: Vec<String>, source: &str, case: &Case, surface: &Surface) -> Entry {
        let verdict = mcpdiff_oracle::judge(case, surface);
        Entry {
            schema: SCHEMA.to_string(),
            rules,
            source: source.to_string(),
            request: StoredRequest::from_case(case),
            surface: SurfaceRef::of(surface),
            verdict: verdict_json(&verdict),
            targets: Vec::new(),
            connections: Vec::new(),
        }
    }

    /// `<RULE-ID>-<hash>.json`; the same case saved for the same rule always gets this name.
    pub fn file_name(&self) -> Result<String, CorpusError> {
        let case = self.request.to_case()?;
        let rule = self.rules.first().map_or("NO-RULE", String::as_str);
        Ok(file_name(rule, &case))
    }

    /// Add or replace (by target name) what one target answered. The same answer again
    /// keeps the old record, so re-running against an in-process server (a new port each
    /// time) does not rewrite the file.
    pub fn record(&mut self, r: Recorded) {
        match self.targets.iter_mut().find(|t| t.target == r.target) {
            Some(t) if same_answer(&t.observation, &r.observation) && t.failing == r.failing => {}
            Some(t) => *t = r,
            None => self.targets.push(r),
        }
    }
}

/// Two answers that differ only in a minted session id (random per answer) are the same
/// answer for the corpus: saving it again must not rewrite the file.
fn same_answer(a: &Observation, b: &Observation) -> bool {
    match (a, b) {
        (Observation::Http(x), Observation::Http(y)) => {
            let mut y = y.clone();
            if x.session_id.is_some() && y.session_id.is_some() {
                y.session_id = x.session_id.clone();
            }
            *x == y
        }
        _ => a == b,
    }
}

/// The part of a Verdict that replay compares: the rules and what each allows. The
/// canonical answer is left out on purpose: it is the reference server's choice inside the
/// allowed sets (message texts included), and changing it is not a change of the oracle.
pub fn verdict_json(v: &Verdict) -> Value {
    // `Expectation` serializes to plain data (ids, enums, JSON values): this cannot fail
    let list = v.serialized_expectations();
    serde_json::json!({ "expectations": serde_json::to_value(&list).unwrap_or(Value::Null) })
}

/// `<rule>-<hash of the case bytes>.json`.
pub fn file_name(rule: &str, case: &Case) -> String {
    stable_name(rule, &case_hash(case))
}

/// `<rule>-<hash>.json`, the rule's characters outside `[A-Za-z0-9-]` written as `_`: the
/// file name of a server entry and of a client entry (client.rs).
pub fn stable_name(rule: &str, hash: &str) -> String {
    let safe: String = rule
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}-{hash}.json")
}

/// FNV-1a 64 over fields, each length-prefixed so field boundaries count. FNV is written out
/// because `std`'s hashers promise no stability across releases, and file names must not
/// change between mcpdiff builds.
pub struct FieldHash(u64);

impl Default for FieldHash {
    /// The FNV-1a 64 offset basis.
    fn default() -> FieldHash {
        FieldHash(0xcbf2_9ce4_8422_2325)
    }
}

impl FieldHash {
    pub fn feed(&mut self, bytes: &[u8]) {
        for b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// 12 hex digits (the top 48 bits).
    pub fn hex12(&self) -> String {
        format!("{:012x}", self.0 >> 16)
    }
}

/// 12 hex digits of [`FieldHash`] over the case's method, path, headers and body. Labels are
/// not hashed: they are not sent.
pub fn case_hash(case: &Case) -> String {
    let mut h = FieldHash::default();
    h.feed(case.method.as_bytes());
    h.feed(case.path.as_bytes());
    h.feed(&(case.headers.len() as u64).to_le_bytes());
    for (n, v) in &case.headers {
        h.feed(n);
        h.feed(v);
    }
    h.feed(&case.body);
    h.hex12()
}

/// The request as lines of text: request line, one line per header, an empty line, the body
/// (split at newlines); bytes outside printable ASCII are `\xNN`.
pub fn render(case: &Case) -> Vec<String> {
    let esc = |b: &[u8]| -> String {
        match std::str::from_utf8(b) {
            Ok(s) if !s.chars().any(|c| c.is_control() && c != '\t') => s.to_string(),
            _ => b
                .iter()
                .map(|&c| {
                    if (0x20..0x7f).contains(&c) && c != b'\\' {
                        (c as char).to_string()
                    } else {
                        format!("\\x{c:02x}")
                    }
                })
                .collect(),
        }
    };
    let mut out = vec![format!("{} {} HTTP/1.1", case.method, case.path)];
    for (n, v) in &case.headers {
        out.push(format!("{}: {}", esc(n), esc(v)));
    }
    out.push(String::new());
    out.extend(case.body.split(|b| *b == b'\n').map(esc));
    out
}

#[cfg(test)]
mod surface_tests {
    use super::*;

    /// A surface stored whole reads back as the one saved: the derived annotation analysis
    /// redone, the `outputSchema` kept (it was dropped, and the content rules that read it
    /// drifted on an entry's first replay).
    #[test]
    fn a_stored_surface_reads_back_with_its_output_schemas() {
        let mut s = fixture::surface();
        s.capabilities.tools = false;
        assert!(s.tools.iter().any(|t| t.output_schema.is_some()));
        let stored = SurfaceRef::of(&s);
        let text = serde_json::to_string(&stored).expect("serializes");
        let back: SurfaceRef = serde_json::from_str(&text).expect("reads back");
        let resolved = back.resolve().expect("resolves");
        assert_eq!(resolved, s);
    }
}
