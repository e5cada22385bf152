//! The client matrix of a run: one row per client target (kept / dropped tools, requests,
//! findings grouped by rule, tool and header, each with its shrunk reproducer) and its
//! terminal rendering. Serialized inside the run's JSON as `clients`.

use super::evidence::{self, Evidence};
use super::shrink::Repro;
use super::Judged;
use crate::targets::Manifest;
use mcpdiff_oracle::client_judge::ClientFinding;
use mcpdiff_oracle::rules::{
    self,
    client::{TOOL_EXCLUDE, TOOL_KEEP_VALID},
    RuleId,
};
use mcpdiff_oracle::toolset::ToolSet;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    pub level: String,
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

impl ClientTargetReport {
    /// A target that could not be run at all.
    pub fn skipped(m: &Manifest, why: String) -> ClientTargetReport {
        ClientTargetReport {
            name: m.name.clone(),
            package: m.sdk.package.clone(),
            version: m.sdk.version.clone(),
            verdict: ClientStatus::Error,
            era: String::new(),
            note: Some(why),
            tools_served: 0,
            tools_invalid: 0,
            kept: None,
            wrongly_kept: Vec::new(),
            wrongly_dropped: Vec::new(),
            requests: 0,
            tool_calls: 0,
            legacy_requests: 0,
            findings: Vec::new(),
            driver_errors: Vec::new(),
            seconds: 0.0,
        }
    }

    /// The row of a judged run.
    pub fn from_run(
        m: &Manifest,
        set: &ToolSet,
        j: &Judged,
        legacy: usize,
        repros: Vec<Repro>,
    ) -> Self {
        let mut groups: BTreeMap<(RuleId, Option<String>, Option<String>), FindingGroup> =
            BTreeMap::new();
        let kept = j.outcome.kept.as_deref().filter(|_| j.modern);
        for f in &j.findings {
            let key = (f.rule, f.tool.clone(), f.header.clone());
            let rule = rules::rule(f.rule);
            groups
                .entry(key)
                .and_modify(|g| g.count += 1)
                .or_insert_with(|| {
                    let repro = repros
                        .iter()
                        .find(|r| r.rule == f.rule && Some(&r.tool) == f.tool.as_ref())
                        .cloned();
                    // the shrunk recording when there is one, else the run's own
                    let evidence = repro
                        .as_ref()
                        .and_then(|r| r.evidence.clone())
                        .or_else(|| evidence::from_run(set, kept, &j.requests, f, false));
                    FindingGroup {
                        rule: f.rule,
                        level: rule.map_or("MUST", |r| r.level.as_str()).to_string(),
                        sentence: rule.map_or("", |r| r.sentence).to_string(),
                        spec: rule.map_or("", |r| r.spec).to_string(),
                        count: 1,
                        example: f.clone(),
                        repro,
                        evidence,
                    }
                });
        }
        let named = |rule| -> Vec<String> {
            j.findings
                .iter()
                .filter(|f| f.rule == rule)
                .filter_map(|f| f.tool.clone())
                .collect()
        };
        let findings: Vec<FindingGroup> = groups.into_values().collect();
        let verdict = if j.outcome.kept.is_none() {
            ClientStatus::Error
        } else if j.outcome.timed_out {
            ClientStatus::Timeout
        } else if !findings
            .iter()
            .any(|f| matches!(f.level.as_str(), "MUST" | "MUST NOT"))
        {
            // SHOULD findings are listed but do not fail the target
            ClientStatus::Pass
        } else {
            ClientStatus::Fail
        };
        let tool_calls = j
            .requests
            .iter()
            .filter_map(|r| r.json())
            .filter(|b| b.get("method").and_then(|m| m.as_str()) == Some("tools/call"))
            .count();
        ClientTargetReport {
            name: m.name.clone(),
            package: m.sdk.package.clone(),
            version: m.sdk.version.clone(),
            verdict,
            era: if j.modern { "2026-07-28" } else { "legacy" }.to_string(),
            note: match (j.outcome.timed_out, j.modern) {
                (true, _) => Some("killed at the time limit".to_string()),
                (false, false) => Some(
                    "the client never spoke 2026-07-28 (legacy initialize era): not judged"
                        .to_string(),
                ),
                _ => None,
            },
            tools_served: set.tools.len(),
            tools_invalid: set.tools.iter().filter(|t| !t.valid).count(),
            kept: j.outcome.kept.clone(),
            wrongly_kept: named(TOOL_EXCLUDE),
            wrongly_dropped: named(TOOL_KEEP_VALID),
            requests: j.requests.len(),
            tool_calls,
            legacy_requests: legacy,
            findings,
            driver_errors: j.outcome.errors.iter().take(20).cloned().collect(),
            seconds: j.outcome.seconds,
        }
    }
}

/// The client matrix for the terminal.
pub fn render_terminal(rows: &[ClientTargetReport]) -> String {
    let mut s = String::from("\nClient targets (tool set served by the recording server)\n");
    s.push_str(&format!(
        "  {:<16} {:<34} {:>8} {:>6} {:>7} {:>8} {:>6}  {}\n",
        "target", "sdk", "verdict", "kept", "wrongly", "requests", "legacy", "rules broken"
    ));
    for r in rows {
        let kept = r
            .kept
            .as_ref()
            .map_or("-".to_string(), |k| k.len().to_string());
        let wrong = format!("+{}/-{}", r.wrongly_kept.len(), r.wrongly_dropped.len());
        let mut broken: Vec<&str> = r.findings.iter().map(|f| f.rule.0).collect();
        broken.dedup();
        s.push_str(&format!(
            "  {:<16} {:<34} {:>8} {:>6} {:>7} {:>8} {:>6}  {}\n",
            r.name,
            format!("{} {}", r.package, r.version),
            r.verdict.to_string(),
            kept,
            wrong,
            r.requests,
            r.legacy_requests,
            if broken.is_empty() {
                "-".to_string()
            } else {
                broken.join(", ")
            }
        ));
        if let Some(n) = &r.note {
            s.push_str(&format!("      note: {n}\n"));
        }
        for f in &r.findings {
            s.push_str(&format!(
                "      {} {} x{}: {}\n",
                f.level,
                f.rule,
                f.count,
                super::render::example(f)
            ));
            if let Some(r) = &f.repro {
                s.push_str(&format!(
                    "        minimal ({}): {} arguments {}\n",
                    if r.reproduced {
                        "re-run reproduces"
                    } else {
                        "not reproduced alone"
                    },
                    r.definition,
                    r.arguments
                        .as_ref()
                        .map_or("(none)".to_string(), |a| a.to_string())
                ));
            }
        }
        for e in r.driver_errors.iter().take(3) {
            s.push_str(&format!("      driver: {e}\n"));
        }
    }
    s
}
