//! The client matrix as the run's report writes it (`clients` in the JSON): one row per
//! client target (kept / dropped tools, requests, findings grouped by rule, tool and header,
//! each with its shrunk reproducer). The report owns this schema; `crate::clients` builds the
//! rows (`ClientTargetReport::from_run`, `skipped`) and `client_matrix` renders them.

use mcpdiff_oracle::client_judge::{ClientFinding, RecordedRequest};
use mcpdiff_oracle::rules::{Level, RuleId};
use mcpdiff_oracle::toolset::GeneratedTool;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The verdict on one client target (`verdict` in the run JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientStatus {
    /// No MUST client rule broken (SHOULD findings may be listed).
    Pass,
    /// At least one MUST client rule broken.
    Fail,
    /// The driver did not get as far as listing tools (install, connect or list failed).
    Error,
    /// The driver hit the time limit and was killed (what it recorded is still judged).
    Timeout,
}

/// The verdict as the JSON writes it (`pass`, `fail`, `error`, `timeout`), for every renderer.
impl std::fmt::Display for ClientStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ClientStatus::Pass => "pass",
            ClientStatus::Fail => "fail",
            ClientStatus::Error => "error",
            ClientStatus::Timeout => "timeout",
        })
    }
}

/// One (rule, tool, header) group of findings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingGroup {
    pub rule: RuleId,
    pub level: Level,
    pub sentence: String,
    pub spec: String,
    /// How many observations broke it.
    pub count: usize,
    /// The first observation.
    pub example: ClientFinding,
    /// The minimal tool definition plus arguments that still reproduce it, when shrunk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repro: Option<Repro>,
    /// The recording it rests on, for the corpus (`--save-corpus`); not in the run's JSON.
    #[serde(skip)]
    pub evidence: Option<Evidence>,
}

/// One client target's row.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClientTargetReport {
    pub name: String,
    pub package: String,
    pub version: String,
    pub verdict: ClientStatus,
    /// `2026-07-28`, or `legacy` when the client only ever spoke the initialize era.
    pub era: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub tools_served: usize,
    pub tools_invalid: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<Vec<String>>,
    pub wrongly_kept: Vec<String>,
    pub wrongly_dropped: Vec<String>,
    pub requests: usize,
    pub tool_calls: usize,
    /// Requests of the legacy era (`initialize`, no `_meta` protocol version): not judged.
    pub legacy_requests: usize,
    pub findings: Vec<FindingGroup>,
    pub driver_errors: Vec<String>,
    pub seconds: f64,
}

/// A shrunk reproducer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Repro {
    pub rule: RuleId,
    pub tool: String,
    /// The tool definition served alone.
    pub definition: Value,
    /// The one call's arguments (absent for tools/list findings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// Whether serving this tool alone reproduced the finding (false: it needs other tools).
    pub reproduced: bool,
    /// Driver runs spent.
    pub runs: usize,
    /// What the last reproducing run recorded (not in the run's JSON: the corpus keeps it).
    #[serde(skip)]
    pub evidence: Option<Evidence>,
}

/// The recording a client finding rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    /// The tool served (empty for findings on requests that name no tool).
    pub tools: Vec<GeneratedTool>,
    /// The names the client kept (tools/list rules only).
    pub kept: Option<Vec<String>>,
    /// The request that broke the rule (empty for tools/list rules).
    pub requests: Vec<RecordedRequest>,
    /// Whether `tools` is the shrinker's output (false: the tool as the run served it).
    pub shrunk: bool,
}
