//! One client corpus entry (`mcpdiff-client-corpus/2`, documented in `corpus/README.md`):
//! the tool set mcpdiff served (the shrunk tool definition plus the offending call's
//! arguments), what it asked the client to do, and per client target what the client did
//! (the names it kept and/or the request it sent, header values and body as a `Case` writes
//! its bytes: a string when UTF-8, else `{"base64": ...}`) with the client judge's findings
//! at save time. Entries of `mcpdiff-client-corpus/1` (values and body Base64) are read
//! through `entry_v1`. Replay re-judges each stored recording purely
//! (`client_replay.rs`); no driver runs.
//!
//! This file owns the format (types, byte encoding, hash and file name) and building entries
//! from a run's client matrix.

use super::error::CorpusError;
use crate::clients::evidence::Evidence;
use crate::clients::ClientTargetReport;
use mcpdiff_oracle::client_judge::{show_bytes, RecordedRequest};
use mcpdiff_oracle::toolset::{GeneratedTool, ToolCall, ToolSet};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The schema id client entries are written with.
pub const CLIENT_SCHEMA: &str = "mcpdiff-client-corpus/2";

/// The schema id of client entries whose values and bodies are Base64; still read
/// (`entry_v1`).
pub const CLIENT_SCHEMA_V1: &str = "mcpdiff-client-corpus/1";

/// One minimized client case and what each client did with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClientEntry {
    pub schema: String,
    /// The rules the case was saved for (the first one names the file).
    pub rules: Vec<String>,
    /// Where it came from: `mcpdiff run --seed N`.
    pub source: String,
    /// What mcpdiff asked the client to do: `tools/list`, `tools/call NAME`,
    /// `resources/read URI`, `prompts/get NAME`, or the JSON-RPC method.
    pub asked: String,
    /// Whether `tools` is the shrinker's output (false: the tool as the run served it).
    pub shrunk: bool,
    /// The tools served (none for a finding on a request that names no tool).
    pub tools: Vec<ServedTool>,
    /// What each client target did.
    pub clients: Vec<ClientRecord>,
}

/// One served tool: its `Tool` object and the calls mcpdiff asked for. Its validity label is
/// not stored: replay labels the definition with today's oracle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServedTool {
    pub definition: Value,
    #[serde(default)]
    pub calls: Vec<ToolCall>,
}

/// What one client target did, and what the client judge said at save time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClientRecord {
    /// The target's name (`ts-client`, ...).
    pub target: String,
    /// The SDK package and version the driver used.
    pub package: String,
    pub version: String,
    /// The mcpdiff that recorded it.
    pub mcpdiff_version: String,
    /// The tool names the client kept from `tools/list` (tools/list rules only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<Vec<String>>,
    /// The requests the client sent, as the recording server received them.
    #[serde(default)]
    pub requests: Vec<WireRequest>,
    /// The serialized `ClientFinding`s of this recording at save time; replay compares
    /// today's (the `detail` sentence excepted).
    pub findings: Vec<Value>,
}

/// A recorded request: header names as sent, values and body as a `Case` writes its bytes
/// (`mcpdiff_oracle::case_json`); `readable` is for people and never read back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireRequest {
    pub method: String,
    pub headers: Vec<WireField>,
    #[serde(with = "mcpdiff_oracle::case_json::bytes")]
    pub body: Vec<u8>,
    #[serde(default)]
    pub readable: Vec<String>,
}

/// One header field: the name as text, the value as bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireField {
    pub name: String,
    #[serde(with = "mcpdiff_oracle::case_json::bytes")]
    pub value: Vec<u8>,
}

impl WireRequest {
    pub fn from_recorded(r: &RecordedRequest) -> WireRequest {
        let mut readable: Vec<String> = r
            .headers
            .iter()
            .map(|(n, v)| format!("{n}: {}", show_bytes(v)))
            .collect();
        readable.insert(0, format!("{} /mcp", r.method));
        readable.push(String::new());
        readable.push(show_bytes(&r.body));
        WireRequest {
            method: r.method.clone(),
            headers: r
                .headers
                .iter()
                .map(|(n, v)| WireField {
                    name: n.clone(),
                    value: v.clone(),
                })
                .collect(),
            body: r.body.clone(),
            readable,
        }
    }

    /// The request these bytes stand for. (Fallible for the callers' sake: the bytes were
    /// checked when the entry was read.)
    pub fn to_recorded(&self, _at: &str) -> Result<RecordedRequest, CorpusError> {
        Ok(RecordedRequest {
            method: self.method.clone(),
            headers: self
                .headers
                .iter()
                .map(|h| (h.name.clone(), h.value.clone()))
                .collect(),
            body: self.body.clone(),
        })
    }
}

impl ClientRecord {
    /// The stored requests, decoded (`at` names the record in errors).
    pub fn recording(&self, at: &str) -> Result<Vec<RecordedRequest>, CorpusError> {
        self.requests
            .iter()
            .enumerate()
            .map(|(i, r)| r.to_recorded(&format!("{at}.requests[{i}]")))
            .collect()
    }
}

impl ClientEntry {
    /// The served tools as the oracle labels them today.
    pub fn tool_set(&self) -> ToolSet {
        ToolSet::new(
            None,
            self.tools
                .iter()
                .map(|t| GeneratedTool::labelled(t.definition.clone(), t.calls.clone(), None))
                .collect(),
        )
    }

    /// `<RULE-ID>-<hash>.json` (`CLIENT-...-<hash>.json`); the same served case saved for
    /// the same rule always gets this name, whichever client it came from.
    pub fn file_name(&self) -> String {
        let rule = self.rules.first().map_or("NO-RULE", String::as_str);
        super::entry::stable_name(rule, &self.case_hash())
    }

    /// 12 hex digits of `FieldHash` (FNV-1a 64) over `asked` and the served tools as JSON (definition and
    /// calls, each length-prefixed). What the client did is not hashed: several clients'
    /// recordings of one case share its file.
    pub fn case_hash(&self) -> String {
        let mut h = super::entry::FieldHash::default();
        h.feed(self.asked.as_bytes());
        for t in &self.tools {
            h.feed(t.definition.to_string().as_bytes());
            for c in &t.calls {
                let args = c
                    .arguments
                    .as_ref()
                    .map_or("-".to_string(), Value::to_string);
                h.feed(args.as_bytes());
            }
        }
        h.hex12()
    }

    /// Add or replace (by target name) one client's record. The same record again keeps the
    /// old one, so recording a client again (a new port each time) does not rewrite the file.
    pub fn record(&mut self, r: ClientRecord) {
        match self.clients.iter_mut().find(|c| c.target == r.target) {
            Some(c) if same_record(c, &r) => {}
            Some(c) => *c = r,
            None => self.clients.push(r),
        }
    }
}

/// Two records that differ only in the `Host` value (the recording server's port, random
/// per run) and the informational `readable` lines are the same record.
fn same_record(a: &ClientRecord, b: &ClientRecord) -> bool {
    let norm = |r: &ClientRecord| {
        let mut r = r.clone();
        for q in &mut r.requests {
            q.readable.clear();
            for h in &mut q.headers {
                if h.name.eq_ignore_ascii_case("host") {
                    h.value.clear();
                }
            }
        }
        r
    };
    norm(a) == norm(b)
}

/// What mcpdiff asked for, read from the evidence: the request's method and the name it
/// concerns, or `tools/list` when the evidence is the kept names.
fn asked(e: &Evidence) -> String {
    let Some(body) = e.requests.first().and_then(RecordedRequest::json) else {
        return "tools/list".to_string();
    };
    let method = body.get("method").and_then(Value::as_str).unwrap_or("?");
    let name = ["name", "uri"].iter().find_map(|k| {
        body.pointer(&format!("/params/{k}"))
            .and_then(Value::as_str)
    });
    match name {
        Some(n) => format!("{method} {n}"),
        None => method.to_string(),
    }
}

/// One entry per finding group of the client matrix that has evidence, each with the
/// target's record (the same case found by several groups or targets merges on save).
pub fn entries_from_clients(rows: &[ClientTargetReport], seed: u64) -> Vec<ClientEntry> {
    let source = format!("mcpdiff run --seed {seed}");
    let mut out = Vec::new();
    for row in rows {
        for g in &row.findings {
            let Some(e) = &g.evidence else { continue };
            let set = ToolSet::new(None, e.tools.clone());
            let findings =
                crate::clients::evidence::judge_recording(&set, e.kept.as_deref(), &e.requests)
                    .iter()
                    .filter_map(|f| serde_json::to_value(f).ok())
                    .collect();
            let mut entry = ClientEntry {
                schema: CLIENT_SCHEMA.to_string(),
                rules: vec![g.rule.0.to_string()],
                source: source.clone(),
                asked: asked(e),
                shrunk: e.shrunk,
                tools: e
                    .tools
                    .iter()
                    .map(|t| ServedTool {
                        definition: t.definition.clone(),
                        calls: t.calls.clone(),
                    })
                    .collect(),
                clients: Vec::new(),
            };
            entry.record(ClientRecord {
                target: row.name.clone(),
                package: row.package.clone(),
                version: row.version.clone(),
                mcpdiff_version: env!("CARGO_PKG_VERSION").to_string(),
                kept: e.kept.clone(),
                requests: e.requests.iter().map(WireRequest::from_recorded).collect(),
                findings,
            });
            out.push(entry);
        }
    }
    out
}
