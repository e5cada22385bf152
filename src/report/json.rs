//! The JSON result of `mcpdiff run`, schema `mcpdiff-run/1` (documented in
//! `docs/run-json.md`): the types every renderer reads. Fields are only ever added within a
//! major version. `build.rs` fills them from a run.

use mcpdiff_oracle::{Case, Level, Observation, RuleId, Undetermined};
use serde::{Deserialize, Serialize};

pub const SCHEMA: &str = "mcpdiff-run/1";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunReport {
    pub schema: String,
    pub mcpdiff_version: String,
    pub seed: u64,
    pub stats: Stats,
    pub targets: Vec<TargetReport>,
    pub disagreements: Vec<DisagreementReport>,
    /// Baseline entries for targets of this run that no longer reproduce.
    #[serde(default)]
    pub baseline_stale: Vec<crate::baseline::KnownFinding>,
    /// The client matrix (client targets of `--clients` or a no-URL run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clients: Vec<super::clients::ClientTargetReport>,
    /// `run --shard K/N`: the part of the case stream this report covers (absent: all of it;
    /// `mcpdiff merge` joins the N reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::runner::Shard>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stats {
    pub cases: u64,
    pub requests: u64,
    pub seconds: f64,
    pub cases_per_second: f64,
    pub stopped_by_time: bool,
    pub disagreements_total: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TargetReport {
    pub name: String,
    pub url: String,
    /// The pinned SDK version of a bundled target (`targets/<name>/target.toml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub score: f64,
    /// True when a MUST / MUST NOT rule failed (outside the baseline).
    pub blocking: bool,
    pub cases: u64,
    pub transport_failures: u64,
    pub findings: Vec<FindingReport>,
    /// Rules exercised that never failed.
    pub passed: Vec<String>,
    pub not_observed: Vec<NotObserved>,
    pub notes: Vec<String>,
    pub surface: SurfaceSummary,
    /// Which era the target appears to implement, with evidence (`runner::revision`).
    /// Absent in reports written before the probe existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<crate::runner::revision::RevisionEvidence>,
    /// Per protocol revision (2026-07-28, then 2025-11-25; those `run --revision` selected):
    /// graded, not offered or not determined, with that revision's score and findings
    /// (`report::revisions`). Empty in reports written before it existed: read them through
    /// `revisions::of`, which derives the entries.
    #[serde(default)]
    pub revisions: Vec<super::revisions::RevisionReport>,
    /// With `run --tools FILE`: what the target's `tools/list` made of the tool set (which
    /// tools it published, refused or rewrote). Absent without `--tools`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toolset: Option<mcpdiff_oracle::toolset::PublishedCheck>,
    /// Answers that decided nothing, per reason (rendered by `report::undetermined`): never a
    /// finding, never a pass. For a target that could not be tested, its only entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undetermined: Vec<UndeterminedReport>,
    /// Tools whose calls keep running into the per-case limit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slow_tools: Vec<SlowToolReport>,
    /// `https://` targets only: how the certificate was verified (`--cacert`, `--insecure`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls: Option<super::tls_report::TlsReport>,
    /// Per-rule counts and witnesses (`report::tally_report`): what `mcpdiff merge` needs to
    /// join shards. Absent for a target that could not be tested and in older reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<super::tally_report::TallyReport>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingReport {
    /// A rule of the table: a saved report naming an id this build does not know is refused
    /// on reading ("unknown rule id").
    pub rule: RuleId,
    pub level: Level,
    pub severity: String,
    /// Origin / DNS-rebinding and header-body disagreement findings.
    pub security: bool,
    pub spec: String,
    pub sentence: String,
    pub expected: String,
    pub observed: String,
    /// How many generated cases broke the rule.
    pub count: u64,
    /// A shell command that sends the minimized case; for a connection probe's finding, every
    /// request of `connections` in order, on connections as the run used them.
    pub reproducer: String,
    /// A connection probe's finding (BASE-STATELESS-NO-PRIOR, `*-LIST-STABLE`): every request
    /// it rests on, grouped by the connection that carried them, in the order sent (`case`,
    /// whose answer is shown, among them). Absent for every other finding: `case` alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connections: Vec<Vec<Case>>,
    pub case: Case,
    pub observation: Observation,
    pub original_size: usize,
    pub shrunk_size: usize,
    /// Known in the baseline: reported, but does not fail the run.
    #[serde(default)]
    pub baselined: bool,
    /// The shrink ran out of budget or of `--max-time`: `case` is the smallest it reached.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shrink_cut_short: bool,
    /// The target's answer to the original (unshrunk) case, in words. Empty in reports
    /// written before it was recorded.
    #[serde(default)]
    pub original_observed: String,
    /// The original (unshrunk) case: the run's witness of the rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_case: Option<Case>,
    /// The target's normalized answer to the original case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_observation: Option<Observation>,
    /// The kind of the reproducer's failure (`mcpdiff_oracle::signature`): served or
    /// refused, status class (or the exact status when the rule names one), JSON-RPC error
    /// code, body kind, or the transport failure.
    #[serde(default)]
    pub kind: String,
    /// The kind of the original observation's failure; equal to `kind` unless
    /// `kept_original` says otherwise.
    #[serde(default)]
    pub original_kind: String,
    /// Set when the shrunk case failed in another kind than the original: the reproducer is
    /// then the original case, and this says why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_original: Option<String>,
    /// Set when the reproducer, sent again alone on a new connection, was answered and did
    /// not fail the same way (`runner::shrink::alone_note`): why it is no reproducer alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alone: Option<String>,
}

impl FindingReport {
    /// The original observation beside the reproducer's, for every renderer; `None` for
    /// reports written before it was recorded.
    pub fn original_line(&self) -> Option<String> {
        if self.original_observed.is_empty() {
            return None;
        }
        let line = self.original_only_line();
        // (every renderer shows this line: a reproducer that does not fail alone says so there)
        Some(match &self.alone {
            Some(why) => format!("{line}. not a reproducer alone: {why}"),
            None => line,
        })
    }

    /// `original_line` without the note on sending the reproducer alone.
    fn original_only_line(&self) -> String {
        match &self.kept_original {
            Some(why) => format!("{} (kept as the reproducer: {why})", self.original_observed),
            None if self.original_kind == self.kind => format!(
                "{}; same kind as the reproducer ({})",
                self.original_observed, self.kind
            ),
            None => format!(
                "{} ({}; the reproducer: {})",
                self.original_observed, self.original_kind, self.kind
            ),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NotObserved {
    pub rule: RuleId,
    pub level: Level,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SurfaceSummary {
    pub supported_versions: Vec<String>,
    pub tools: Vec<String>,
    pub annotated_tools: Vec<String>,
    pub resources: usize,
    pub resource_templates: usize,
    pub prompts: usize,
    /// Judged as an OAuth protected resource (`AUTH-*` rules; D-70).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub protected: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DisagreementReport {
    pub case_index: u64,
    pub answers: std::collections::BTreeMap<String, String>,
    pub case: Case,
}

/// Cases of one target that decided nothing for one reason.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UndeterminedReport {
    /// `timed_out`, `unauthorized`, `unreachable`.
    pub reason: Undetermined,
    /// Cases on which no rule was decided.
    pub cases: u64,
    /// Rules left open, with the number of cases each.
    pub rules: Vec<RuleCases>,
    /// The first such answer in words, or the error that stopped the target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RuleCases {
    pub rule: String,
    pub cases: u64,
}

/// A tool whose calls keep running into the per-case limit.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SlowToolReport {
    pub tool: String,
    pub calls: u64,
    pub timed_out: u64,
    /// The longest wait before a cut, in ms (about the per-case limit).
    pub waited_ms: u64,
    /// The longest completed call, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub longest_finished_ms: Option<u64>,
    /// One cut call re-sent with a longer limit after fuzzing: how long it ran, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe_ms: Option<u64>,
    /// Whether that call finished.
    #[serde(default)]
    pub probe_finished: bool,
    /// The `--timeout-ms` that lets the measured call finish: its time rounded up to the
    /// next second. Absent when no call of the tool was seen to finish.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggested_timeout_ms: Option<u64>,
}
