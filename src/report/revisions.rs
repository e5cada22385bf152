//! Each target's outcome per protocol revision (`targets[].revisions[]` of the run JSON): the
//! one place that says whether a revision was graded, is not offered by the target, or could
//! not be told, with that revision's score and findings. Every renderer splits its report by
//! these entries first, then by rule.
//!
//! 2026-07-28 is the run's own fuzzing (the target's top-level `score` and `findings`);
//! 2025-11-25 is the legacy sequences' outcome (`revision.revisions[]`, `runner::legacy`). A
//! revision the target does not speak is `not_offered`: never a failure, never a score (a 0
//! would read as "speaks it badly"). Reports written before this field existed get the same
//! entries derived on reading ([`of`]), so `mcpdiff report` and `merge` keep reading them.

use super::json::TargetReport;
use super::undetermined;
use crate::runner::legacy::RevisionOutcome;
use crate::runner::revision::{RevisionEvidence, RevisionVerdict};
use mcpdiff_oracle::rules::Revision;
use serde::{Deserialize, Serialize};

/// Whether a revision was graded on a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevisionStatus {
    /// Its rules were judged: `score` and `findings` are that revision's.
    Graded,
    /// The target does not speak it (refused its opening request): no score, not a failure
    /// (oracle/DEVIATIONS.md D-L30).
    NotOffered,
    /// Whether the target speaks it, or how well, could not be told (`reason` says why).
    NotDetermined,
}

impl RevisionStatus {
    /// The words reports print.
    pub fn words(self) -> &'static str {
        match self {
            RevisionStatus::Graded => "graded",
            RevisionStatus::NotOffered => "not offered",
            RevisionStatus::NotDetermined => "not determined",
        }
    }
}

/// One broken rule of one revision, in short: the details stay where each revision keeps
/// them (2026-07-28: `targets[].findings[]`; 2025-11-25: `revision.revisions[].findings[]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RevisionFinding {
    pub rule: String,
    pub level: String,
    /// A MUST / MUST NOT finding outside the baseline: fails the run.
    pub blocking: bool,
}

/// One revision's outcome on one target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RevisionReport {
    pub revision: Revision,
    pub status: RevisionStatus,
    /// Present (not null) only when `status` is `graded`.
    pub score: Option<f64>,
    /// One entry per broken rule (empty unless graded).
    pub findings: Vec<RevisionFinding>,
    /// Cases (2026-07-28) or sequence steps (2025-11-25) whose answer decided nothing.
    pub not_determined: u64,
    /// Why the revision is not offered or not determined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl RevisionReport {
    /// Whether this revision has a MUST finding outside the baseline.
    pub fn blocking(&self) -> bool {
        self.findings.iter().any(|f| f.blocking)
    }

    fn open(revision: Revision, status: RevisionStatus, reason: String) -> RevisionReport {
        RevisionReport {
            revision,
            status,
            score: None,
            findings: Vec::new(),
            not_determined: 0,
            reason: Some(reason),
        }
    }
}

/// The revisions of `t`: the recorded ones, or (a report written before they were recorded)
/// both derived from its other fields.
pub fn of(t: &TargetReport) -> Vec<RevisionReport> {
    if t.revisions.is_empty() {
        derive(t, &Revision::ALL)
    } else {
        t.revisions.clone()
    }
}

/// The outcome of each revision of `selected` on `t`, newest first.
pub fn derive(t: &TargetReport, selected: &[Revision]) -> Vec<RevisionReport> {
    Revision::ALL
        .iter()
        .filter(|r| selected.contains(r))
        .map(|r| match r {
            Revision::V2026_07_28 => modern(t),
            Revision::V2025_11_25 => legacy(t),
        })
        .collect()
}

/// 2026-07-28: the run's own fuzzing.
fn modern(t: &TargetReport) -> RevisionReport {
    let rev = Revision::V2026_07_28;
    let open_cases: u64 = t.undetermined.iter().map(|u| u.cases).sum();
    if undetermined::is_untested(t) {
        let why = undetermined::lines(t).join("; ");
        return RevisionReport::open(rev, RevisionStatus::NotDetermined, why);
    }
    if t.revision.as_ref().map(|r| r.verdict) == Some(RevisionVerdict::Legacy) {
        return RevisionReport::open(
            rev,
            RevisionStatus::NotOffered,
            "the target answered the legacy initialize and refused the modern server/discover \
             and the unknown-version probe: it speaks 2025-11-25 only, so no 2026-07-28 case \
             was judged"
                .to_string(),
        );
    }
    if let Some(why) = undetermined::nothing_decided(t) {
        let mut r = RevisionReport::open(
            rev,
            RevisionStatus::NotDetermined,
            format!("no answer decided a rule: {why}"),
        );
        r.not_determined = open_cases;
        return r;
    }
    if t.cases == 0 && t.findings.is_empty() && t.passed.is_empty() {
        return RevisionReport::open(
            rev,
            RevisionStatus::NotDetermined,
            "no 2026-07-28 case was sent".to_string(),
        );
    }
    RevisionReport {
        revision: rev,
        status: RevisionStatus::Graded,
        score: Some(t.score),
        findings: t
            .findings
            .iter()
            .map(|f| RevisionFinding {
                rule: f.rule.0.to_string(),
                level: f.level.as_str().to_string(),
                blocking: f.severity == "blocking" && !f.baselined,
            })
            .collect(),
        not_determined: open_cases,
        reason: None,
    }
}

/// 2025-11-25: the legacy sequences the revision probe ran.
fn legacy(t: &TargetReport) -> RevisionReport {
    let rev = Revision::V2025_11_25;
    let Some(ev) = &t.revision else {
        let why = if undetermined::is_untested(t) {
            undetermined::lines(t).join("; ")
        } else {
            "the report has no revision probe (written by an older mcpdiff)".to_string()
        };
        return RevisionReport::open(rev, RevisionStatus::NotDetermined, why);
    };
    match (outcome(ev, rev), ev.verdict) {
        (Some(o), _) => graded_legacy(o),
        (None, RevisionVerdict::Modern) => RevisionReport::open(
            rev,
            RevisionStatus::NotOffered,
            "the target refused the legacy initialize and answers the modern requests: it \
             speaks 2026-07-28 only"
                .to_string(),
        ),
        (None, RevisionVerdict::Legacy | RevisionVerdict::DualEra) => RevisionReport::open(
            rev,
            RevisionStatus::NotDetermined,
            "the target answered initialize but its legacy sequences were not run (not \
             selected with --revision, or no legacy version was named to open them with)"
                .to_string(),
        ),
        (None, RevisionVerdict::Undetermined) => RevisionReport::open(
            rev,
            RevisionStatus::NotDetermined,
            "the revision probe could not tell which revisions the target speaks".to_string(),
        ),
    }
}

fn outcome(ev: &RevisionEvidence, rev: Revision) -> Option<&RevisionOutcome> {
    ev.revisions.iter().find(|o| o.revision == rev)
}

fn graded_legacy(o: &RevisionOutcome) -> RevisionReport {
    let judged = o.steps.saturating_sub(o.not_determined);
    if judged == 0 && o.findings.is_empty() {
        let mut r = RevisionReport::open(
            o.revision,
            RevisionStatus::NotDetermined,
            format!(
                "none of the {} legacy step(s) got an answer to judge",
                o.steps
            ),
        );
        r.not_determined = o.not_determined as u64;
        return r;
    }
    let mut findings: Vec<RevisionFinding> = Vec::new();
    for f in &o.findings {
        // one entry per rule, as for 2026-07-28 (a rule may fail at several steps)
        if findings.iter().any(|g| g.rule == f.rule) {
            continue;
        }
        // a MUST finding a --baseline names does not fail the run (as `RevisionOutcome::
        // blocking` and the 2026-07-28 findings say it)
        let must = f.level == "MUST" || f.level == "MUST NOT";
        let known = o
            .findings
            .iter()
            .filter(|g| g.rule == f.rule)
            .all(|g| g.baselined);
        findings.push(RevisionFinding {
            rule: f.rule.clone(),
            level: f.level.clone(),
            blocking: must && !known,
        });
    }
    RevisionReport {
        revision: o.revision,
        status: RevisionStatus::Graded,
        score: Some(o.score),
        findings,
        not_determined: o.not_determined as u64,
        reason: None,
    }
}

/// Whether any revision of `t` has a MUST finding outside the baseline (the run exits 1).
pub fn any_blocking(t: &TargetReport) -> bool {
    t.blocking || of(t).iter().any(RevisionReport::blocking)
}

/// The entry of a target no 2026-07-28 case went to (it speaks 2025-11-25 only, or
/// `--revision` left 2026-07-28 out). Its top-level `score` and `blocking` carry the
/// 2025-11-25 outcome when that was graded (0 and false otherwise), so a gate reading only
/// them still sees the revision that was graded; `revisions` says which that was.
pub fn not_fuzzed(
    name: &str,
    url: &str,
    notes: Vec<String>,
    revision: Option<RevisionEvidence>,
    selected: &[Revision],
) -> TargetReport {
    let mut t = undetermined::untested(name, url, mcpdiff_oracle::Undetermined::Unreachable, "");
    t.undetermined.clear();
    t.notes = notes;
    t.revision = revision;
    if let Some(ev) = &t.revision {
        t.surface.supported_versions = ev.versions.clone();
    }
    t.revisions = derive(&t, selected);
    carry_legacy(&mut t);
    t
}

/// Derive `t.revisions` again for the revisions it lists (after `mcpdiff merge` joined its
/// shards' counts); an older entry that lists none stays so (readers derive both).
pub fn refresh(t: &mut TargetReport) {
    if t.revisions.is_empty() {
        return;
    }
    let selected: Vec<Revision> = t.revisions.iter().map(|r| r.revision).collect();
    t.revisions = derive(t, &selected);
    carry_legacy(t);
}

/// A target sent no 2026-07-28 case carries its graded 2025-11-25 outcome in the top-level
/// `score` and `blocking` (docs/run-json.md).
fn carry_legacy(t: &mut TargetReport) {
    if t.cases > 0
        || t.revisions
            .iter()
            .any(|r| r.revision == Revision::V2026_07_28 && r.status == RevisionStatus::Graded)
    {
        return;
    }
    let legacy = t
        .revisions
        .iter()
        .find(|r| r.revision == Revision::V2025_11_25 && r.status == RevisionStatus::Graded);
    if let Some(r) = legacy {
        t.score = r.score.unwrap_or(0.0);
        t.blocking = r.blocking();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::Undetermined;

    #[test]
    fn an_untested_target_is_not_determined_on_every_revision() {
        let t = undetermined::untested(
            "x",
            "http://127.0.0.1:1/mcp",
            Undetermined::Unreachable,
            "refused",
        );
        let revs = of(&t);
        assert_eq!(revs.len(), 2);
        for r in &revs {
            assert_eq!((r.status, r.score), (RevisionStatus::NotDetermined, None));
            assert!(
                r.reason.as_deref().is_some_and(|w| w.contains("refused")),
                "{r:?}"
            );
        }
        assert!(!any_blocking(&t));
    }

    #[test]
    fn an_older_report_is_graded_on_2026_07_28_and_undetermined_on_2025_11_25() {
        let mut t =
            undetermined::untested("x", "http://127.0.0.1:1/mcp", Undetermined::Unreachable, "");
        t.undetermined.clear();
        t.cases = 10;
        t.score = 0.5;
        t.passed = vec!["SHTTP-EP-POST".into()];
        let revs = of(&t);
        assert_eq!(
            (revs[0].status, revs[0].score),
            (RevisionStatus::Graded, Some(0.5))
        );
        assert_eq!(revs[1].status, RevisionStatus::NotDetermined);
        // the selection keeps the order newest first and drops what was not selected
        let only = derive(&t, &[Revision::V2025_11_25]);
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].revision, Revision::V2025_11_25);
    }
}
