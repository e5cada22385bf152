//! The 2025-11-25 side of a dual-era (or legacy) target, over the wire: the legacy sequences
//! (`mcpdiff_oracle::legacy::sequences`) sent one step at a time, each answer judged by the
//! pure legacy judge, tallied apart from the 2026-07-28 run.
//!
//! The outcome is its own revision's: findings name only `L-*` rules and its score is computed
//! from them alone, so a legacy answer never counts for the modern score nor the reverse.

use super::legacy_seq::run_steps;
use mcpdiff_oracle::case::MODERN_VERSION;
use mcpdiff_oracle::legacy::{sequences, LegacyProfile, LegacyStep};
use mcpdiff_oracle::rules::{level_of, Revision, Severity};
use mcpdiff_oracle::{Case, Observation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::future::Future;

/// One broken legacy rule at one step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegacyFinding {
    /// The sequence (`lifecycle`, `session-ids`, ...) and the step's index in it.
    pub sequence: String,
    pub step: usize,
    pub rule: String,
    pub level: String,
    pub expected: String,
    pub observed: String,
    /// The steps of the sequence up to this one: what to replay to reach the same session
    /// state (the session id is the target's own, so the steps, not the bytes, reproduce it).
    pub steps: Vec<LegacyStep>,
    /// The request this step sent, as HTTP text (header bytes outside UTF-8 shown lossily).
    pub request: String,
    /// The step count of the sequence before shrinking (`None`: not shrunk, or no shorter
    /// sequence kept the failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrunk_from: Option<usize>,
    /// A `--baseline` entry names this (target, rule): it does not fail the run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub baselined: bool,
    /// What the target answered at each step of `steps` (kept in memory for the corpus, which
    /// re-judges the stored answers; the report shows `observed`).
    #[serde(skip)]
    pub observations: Vec<Observation>,
}

/// `case` as HTTP/1.1 request text, for a reader.
pub(crate) fn request_text(case: &Case) -> String {
    let mut out = format!("{} {} HTTP/1.1\n", case.method, case.path);
    for (n, v) in &case.headers {
        out.push_str(&format!(
            "{}: {}\n",
            String::from_utf8_lossy(n),
            String::from_utf8_lossy(v)
        ));
    }
    if !case.body.is_empty() {
        out.push('\n');
        out.push_str(&String::from_utf8_lossy(&case.body));
    }
    out
}

/// What one revision's rules found on a target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RevisionOutcome {
    pub revision: Revision,
    /// 0 with any MUST finding, else the share of SHOULD rules with no finding (as the
    /// modern score).
    pub score: f64,
    pub findings: Vec<LegacyFinding>,
    /// Steps with no answer to judge (timeouts, refused connections, challenges).
    pub not_determined: usize,
    /// Steps sent.
    pub steps: usize,
    /// The rules some judged step could have failed.
    pub rules_checked: Vec<String>,
    /// Generated sequences sent after the fixed ones (`runner::legacy_generated`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub generated: usize,
    /// Steps where this target and another one speaking 2025-11-25, sent the same sequence,
    /// broke no rule yet answered in different classes (`runner::legacy_disagree`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disagreements: Vec<super::legacy_disagree::LegacyDisagreement>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl RevisionOutcome {
    /// Whether a MUST / MUST NOT rule of this revision was broken.
    pub fn blocking(&self) -> bool {
        // a finding a --baseline names does not fail the run
        self.findings
            .iter()
            .any(|f| !f.baselined && (f.level == "MUST" || f.level == "MUST NOT"))
    }

    /// One line for the evidence list of a report.
    pub fn summary(&self) -> String {
        format!(
            "{} (legacy path): {} step(s), {} rule(s) checked, score {:.2}, {} finding(s), {} not determined",
            self.revision,
            self.steps,
            self.rules_checked.len(),
            self.score,
            self.findings.len(),
            self.not_determined
        )
    }
}

/// The profile the judge gets from the versions the revision probe saw: the legacy ones,
/// newest first.
pub fn legacy_versions(named: &[String]) -> Vec<String> {
    let mut v: Vec<String> = named
        .iter()
        .filter(|v| v.as_str() < MODERN_VERSION)
        .cloned()
        .collect();
    v.sort_by(|a, b| b.cmp(a));
    v.dedup();
    v
}

/// Send every legacy sequence to the target at `endpoint`, opening with its newest known
/// legacy version (`versions`, newest first; none known: nothing is sent).
///
/// `mcpdiff run` sends them with `legacy_seq::send_step` (`pipeline::prepare`): a GET that
/// resumes nothing is read until it stays silent for `Limits::sse_quiet` (300 ms), as the
/// generated sequences are, instead of to `sse_max_time` (3 s). Those GETs were nearly all
/// of the prepare stage (MCPDIFF_TIMING, 2026-12-05: 9.01 s of fastmcp's 9.31 s, 6.0 s of
/// python-sdk's, rmcp's and tower-mcp's; docs/PERFORMANCE.md). Why no verdict changes, step
/// by step through `oracle::legacy::sequences` (the general argument, per demand, is at
/// `legacy_seq::quiet_get`):
/// - the GETs read quietly are `lifecycle`'s two `Get { Current }` (the second after the
///   DELETE), `session-ids`' `Get { Unknown }` and `ForeignOriginGet`, and `resumability`'s
///   `Resume` only when neither `tools/list` stream carried an event id (nothing to resume:
///   no `Last-Event-ID`). Their demands (`expectations`) are the head's (L-SHTTP-SESSION-404,
///   -GET-SSE-OR-405, -ORIGIN-VALIDATE, -ORIGIN-403) or broken by an event on the stream
///   (L-BASE-UTF8, L-LIFE-OPERATION, L-LIFE-NO-REQUESTS-BEFORE-INITIALIZED,
///   L-SHTTP-EVENTID-UNIQUE, L-SHTTP-GET-NO-RESPONSE); none reads whether the stream closed,
///   and a stream cut for silence is `closed: false`, as one cut at 3 s always was;
/// - the rules checked do not move: which demands a step carries depends on the session
///   track, and a GET's answer never changes it (`advance` adds only its event ids and
///   response ids); a quiet cut is no transport failure, so no step turns "not determined";
/// - what a GET adds to the track is read later in these sequences only by
///   L-SHTTP-EVENTID-UNIQUE (fewer known ids: fewer findings possible, never a new one);
///   the response ids it adds are read only by `Resume`, and `resumability` sends no GET
///   before it;
/// - a `Resume` carrying `Last-Event-ID`, judged on whether the stream stays open
///   (L-SHTTP-SSE-RESPONSE), is read to its limits as before.
///
/// What is given up, as in the legacy stage: an event a target sends on such a GET stream
/// after 300 ms of silence and before 3 s was read before and is not now (no stage of a run
/// reads a silent GET stream for 3 s any more; one sent after 3 s was missed before too).
/// Fewer events read can only hide a finding, never make one; `mcpdiff replay` still reads
/// every stream to its limits.
pub async fn run<F, Fut>(
    endpoint: &str,
    versions: &[String],
    mut send: F,
) -> Option<RevisionOutcome>
where
    F: FnMut(Case) -> Fut,
    Fut: Future<Output = Observation>,
{
    let latest = versions.first()?;
    let profile = LegacyProfile {
        supported: versions.to_vec(),
    };
    let mut findings = Vec::new();
    let mut checked = BTreeSet::new();
    let mut not_determined = 0;
    let mut steps = 0;
    for seq in sequences(latest, versions.get(1).map(String::as_str)) {
        let run = run_steps(&seq.steps, endpoint, &profile, false, &mut send).await;
        steps += run.records.len();
        not_determined += run.not_determined();
        checked.extend(run.records.iter().flat_map(|r| r.checked.iter().cloned()));
        findings.extend(run.findings(seq.name));
    }
    Some(RevisionOutcome {
        revision: Revision::V2025_11_25,
        score: score(&checked, &findings),
        findings,
        not_determined,
        steps,
        rules_checked: checked.into_iter().collect(),
        generated: 0,
        disagreements: Vec::new(),
    })
}

/// 0 with a MUST finding; else SHOULD rules without a finding over SHOULD rules checked.
pub(crate) fn score(checked: &BTreeSet<String>, findings: &[LegacyFinding]) -> f64 {
    let failed: BTreeSet<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
    let severity = |id: &str| {
        mcpdiff_oracle::rules::all_rules()
            .find(|r| r.id.0 == id)
            .map_or(Severity::Blocking, |r| level_of(r.id).severity())
    };
    if failed.iter().any(|r| severity(r) == Severity::Blocking) {
        return 0.0;
    }
    let shoulds: Vec<&String> = checked
        .iter()
        .filter(|r| severity(r) == Severity::Advisory)
        .collect();
    if shoulds.is_empty() {
        return 1.0;
    }
    let passed = shoulds
        .iter()
        .filter(|r| !failed.contains(r.as_str()))
        .count();
    passed as f64 / shoulds.len() as f64
}
