//! Building the client matrix's rows: one `ClientTargetReport` per client target from what
//! its driver run recorded and how it was judged (findings grouped by rule, tool and header,
//! each with its shrunk reproducer). The row types are the report's
//! (`crate::report::clients`); their renderings are `crate::report::client_matrix`.

use super::evidence;
use super::shrink::Repro;
use super::Judged;
use crate::report::clients::{ClientStatus, ClientTargetReport, FindingGroup};
use crate::targets::Manifest;
use mcpdiff_oracle::rules::{
    self,
    client::{TOOL_EXCLUDE, TOOL_KEEP_VALID},
    Level, RuleId,
};
use mcpdiff_oracle::toolset::ToolSet;
use std::collections::BTreeMap;

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
                        level: rule.map_or(Level::Must, |r| r.level),
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
            .any(|f| matches!(f.level, Level::Must | Level::MustNot))
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
