//! The client judge: what a conforming client SDK does with a served tool set, as pure
//! functions over what mcpdiff recorded.
//!
//! Two questions, one file each: which tools the client kept from `tools/list`
//! ([`judge_kept`], listing.rs) and what it sent on each request ([`judge_request`],
//! request.rs). The per-annotation expectations live in expect.rs, the reading of one sent
//! header value in value.rs, and a reference client with one mutant per client rule (the
//! calibration that shows every rule can fail) in reference.rs. Rules are the `CLIENT-*`
//! entries of the rule table; interpretations are DEVIATIONS.md D-38..D-46.

mod calibration;
mod expect;
mod listing;
mod reference;
mod request;
mod retry;
mod value;

pub use calibration::{calibration_set, edge_set, NAME_PROBE_PROMPTS, NAME_PROBE_URIS};
pub use expect::{param_expectations, ParamExpectation, Presence};
pub use listing::judge_kept;
pub use reference::{reference_request, ClientMutant, ReferenceClient, MUTANTS};
pub use request::{is_modern, judge_request, RecordedRequest};
pub use retry::judge_retry;
pub use value::{allowed_values, judge_value, ValueKind};

use crate::rules::RuleId;
use serde::{Deserialize, Serialize};

/// One client rule broken by one observation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClientFinding {
    pub rule: RuleId,
    /// The tool concerned (absent for requests that name none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The header concerned, as the spec names it (`Mcp-Param-Region`, `Mcp-Name`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// What the client sent (`None`: nothing, e.g. a missing header or a dropped tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent: Option<String>,
    /// The answers the rule allows (`[]` with `omit` meaning "no header"), for the report.
    pub allowed: Vec<String>,
    /// One line: what went wrong.
    pub detail: String,
    /// The call's `arguments` as the client sent them (tools/call findings only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<serde_json::Value>,
}

impl ClientFinding {
    fn new(rule: RuleId, detail: impl Into<String>) -> ClientFinding {
        ClientFinding {
            rule,
            tool: None,
            header: None,
            sent: None,
            allowed: Vec::new(),
            detail: detail.into(),
            arguments: None,
        }
    }

    fn tool(mut self, tool: &str) -> Self {
        self.tool = Some(tool.to_string());
        self
    }

    fn header(mut self, header: &str) -> Self {
        self.header = Some(header.to_string());
        self
    }

    fn sent(mut self, sent: Option<String>) -> Self {
        self.sent = sent;
        self
    }

    fn allowed(mut self, allowed: Vec<String>) -> Self {
        self.allowed = allowed;
        self
    }
}

/// Printable form of raw header bytes (UTF-8 when it is, else escaped).
pub fn show_bytes(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_string(),
        Err(_) => raw.escape_ascii().to_string(),
    }
}
