//! `Tally`: what one target did over a run, kept small. Memory grows with the number of
//! distinct (rule) findings and exercised rules, never with the number of cases: for each
//! rule one failing case is kept, the one that best isolates it (`Witness::key`); the
//! shrinker reduces it later. Answers that decide nothing (`Undetermined`: cut by the time
//! limit, refused by the authorization layer, no connection) are counted per reason and rule,
//! never as a pass or a finding; tool calls are timed per tool so slow tools can be named.

use mcpdiff_oracle::rules::{level_of, RuleId, Severity};
use mcpdiff_oracle::{Answer, Case, Finding, Observation, Undetermined, Verdict};
use std::collections::BTreeMap;
use std::time::Duration;

/// The first failing case of one rule on one target.
#[derive(Clone, Debug)]
pub struct Witness {
    pub case: Case,
    pub observation: Observation,
    pub finding: Finding,
    /// How many cases broke this rule in the run.
    pub count: u64,
    /// The case's index in the run (lower wins among equally specific witnesses).
    pub index: u64,
    /// Defects the case plants besides the witnessed rule (`defects`): fewer is a cleaner
    /// reproducer.
    pub defects: usize,
}

impl Witness {
    /// Preference order: a case that isolates the rule beats one that shares the blame
    /// with other rules; then a case with fewer defects (prefer single-defect
    /// cases, the shrinker never adds one); then the lowest index (so the same seed keeps
    /// the same witness).
    fn key(&self) -> (usize, usize, u64) {
        preference(self.finding.co_failing.len(), self.defects, self.index)
    }
}

/// The witness preference order (`Witness::key`) from its parts: rules sharing the blame,
/// defects, run index; lower wins. Shared with `mcpdiff merge`, which picks among the
/// witnesses of several shards the one an unsharded run keeps.
pub fn preference(co_failing: usize, defects: usize, index: u64) -> (usize, usize, u64) {
    (co_failing, defects, index)
}

/// Defects `verdict` plants besides `rule`: other rules whose request-level demand admits
/// only refusals (a benign input's rule, or the success of a valid request, admits an
/// answer that is not a refusal and is no defect).
fn defects(verdict: &Verdict, rule: RuleId) -> usize {
    let refusal_only = |set: &[Answer]| {
        !set.iter().any(|a| {
            matches!(
                a,
                Answer::RpcResult
                    | Answer::OpenStream
                    | Answer::Accepted
                    | Answer::NotAnError
                    | Answer::EmptyContents
            )
        })
    };
    let mut rules: Vec<RuleId> = verdict
        .answer_sets()
        .filter(|(r, set)| *r != rule && refusal_only(set))
        .map(|(r, _)| r)
        .collect();
    rules.sort_unstable();
    rules.dedup();
    rules.len()
}

/// Per-rule pass/fail counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuleCount {
    pub exercised: u64,
    pub failed: u64,
}

/// Cases and rules one reason left undetermined.
#[derive(Clone, Debug, Default)]
pub struct UndeterminedCount {
    /// Cases that decided nothing for this reason (no finding survived the cut).
    pub cases: u64,
    /// Per rule: cases on which the rule was left undetermined.
    pub rules: BTreeMap<RuleId, u64>,
    /// The first such answer, in words (the error, the status line).
    pub example: Option<String>,
}

/// How one tool's calls went on one target (to spot slow tools).
#[derive(Clone, Debug, Default)]
pub struct ToolTimes {
    pub calls: u64,
    /// Calls cut by the per-case limit before the answer was complete.
    pub timed_out: u64,
    /// The longest wait of a completed call.
    pub longest_done: Duration,
    /// The longest wait before a cut.
    pub longest_cut: Duration,
    /// The first call that was cut (re-sent with a longer limit after fuzzing).
    pub cut_case: Option<Case>,
    /// That call re-sent with a longer limit: how long it waited, and whether it finished.
    pub patient: Option<(Duration, bool)>,
}

impl ToolTimes {
    /// Whether the tool keeps timing out: at least half of its calls were cut.
    pub fn is_slow(&self) -> bool {
        self.timed_out > 0 && self.timed_out * 2 >= self.calls
    }
}

/// Everything learned about one target.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub cases: u64,
    pub transport_failures: u64,
    pub rules: BTreeMap<RuleId, RuleCount>,
    pub witnesses: BTreeMap<RuleId, Witness>,
    /// When each rule first failed, measured from the start of the run (the
    /// time-to-first-finding figure; one entry per failed rule, so it stays small).
    pub first_failed_at: BTreeMap<RuleId, Duration>,
    /// Undetermined answers per reason.
    pub undetermined: BTreeMap<Undetermined, UndeterminedCount>,
    /// Tool calls per tool name (only tracked once some call was cut; see `runner::slow`).
    pub tools: BTreeMap<String, ToolTimes>,
}

impl Tally {
    /// Record one judged case. With `undetermined`, only the rules in `findings` (already
    /// settled: `mcpdiff_oracle::settle`) are judged; every other rule of the verdict counts
    /// as undetermined, and the case too when no finding is left.
    pub fn record(
        &mut self,
        index: u64,
        case: &Case,
        verdict: &Verdict,
        obs: &Observation,
        findings: &[Finding],
        undetermined: Option<Undetermined>,
    ) {
        self.cases += 1;
        if matches!(obs, Observation::Transport { .. }) {
            self.transport_failures += 1;
        }
        if let Some(reason) = undetermined {
            let u = self.undetermined.entry(reason).or_default();
            u.cases += u64::from(findings.is_empty());
            if u.example.is_none() {
                u.example = Some(obs.summary());
            }
            for rule in verdict.observed_rules(obs) {
                if findings.iter().any(|f| f.rule == rule.0) {
                    self.rules.entry(rule).or_default().exercised += 1;
                } else {
                    *u.rules.entry(rule).or_default() += 1;
                }
            }
        } else {
            for rule in verdict.observed_rules(obs) {
                self.rules.entry(rule).or_default().exercised += 1;
            }
        }
        for f in findings {
            let Some(rule) = verdict.rules().find(|r| r.0 == f.rule) else {
                continue;
            };
            self.rules.entry(rule).or_default().failed += 1;
            let candidate = Witness {
                case: case.clone(),
                observation: obs.clone(),
                finding: f.clone(),
                count: 1,
                index,
                defects: defects(verdict, rule),
            };
            match self.witnesses.get_mut(&rule) {
                Some(w) => {
                    w.count += 1;
                    if candidate.key() < w.key() {
                        let count = w.count;
                        *w = Witness { count, ..candidate };
                    }
                }
                None => {
                    self.witnesses.insert(rule, candidate);
                }
            }
        }
    }

    /// Time one run of `tool` (`slow::call_outcome`): `cut` when the answer was cut by the
    /// per-case limit, else it finished with a result.
    pub fn note_call(&mut self, tool: &str, case: &Case, waited: Duration, cut: bool) {
        let t = self.tools.entry(tool.to_string()).or_default();
        t.calls += 1;
        if cut {
            t.timed_out += 1;
            t.longest_cut = t.longest_cut.max(waited);
            if t.cut_case.is_none() {
                t.cut_case = Some(case.clone());
            }
        } else {
            t.longest_done = t.longest_done.max(waited);
        }
    }

    /// Note `at` (time since the run started) as the first failure of every rule in
    /// `findings` not seen failing before.
    pub fn note_first_failures(&mut self, verdict: &Verdict, findings: &[Finding], at: Duration) {
        for f in findings {
            if let Some(rule) = verdict.rules().find(|r| r.0 == f.rule) {
                self.first_failed_at.entry(rule).or_insert(at);
            }
        }
    }

    /// DESIGN.md scoring: a failed MUST scores 0; otherwise the fraction of exercised SHOULD
    /// rules that never failed (1.0 when none was exercised). MAY rules are only tallied.
    pub fn score(&self) -> f64 {
        score_of(&self.rules)
    }

    /// Whether any blocking (MUST) rule failed.
    pub fn has_blocking(&self) -> bool {
        self.witnesses
            .keys()
            .any(|r| level_of(*r).severity() == Severity::Blocking)
    }
}

/// The score of per-rule counts (`Tally::score`): a failed MUST scores 0; otherwise the
/// fraction of exercised SHOULD rules that never failed (1.0 when none was exercised).
/// `mcpdiff merge` scores the summed counts of shards with it. No rule decided at all (every
/// answer timed out, was refused by an authorization layer or lost) scores 0, as an untested
/// target does: nothing passed, and a CI gate reading the score alone must not see a perfect
/// target.
pub fn score_of(rules: &BTreeMap<RuleId, RuleCount>) -> f64 {
    if rules.is_empty() {
        return 0.0;
    }
    let mut should_total = 0u32;
    let mut should_passed = 0u32;
    for (rule, c) in rules {
        match level_of(*rule).severity() {
            Severity::Blocking if c.failed > 0 => return 0.0,
            Severity::Advisory => {
                should_total += 1;
                if c.failed == 0 {
                    should_passed += 1;
                }
            }
            _ => {}
        }
    }
    if should_total == 0 {
        1.0
    } else {
        f64::from(should_passed) / f64::from(should_total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::rules::{self, Level, HDR_MISMATCH, ORIGIN_403};
    use mcpdiff_oracle::{Canonical, Demand, Expectation, Lint};

    fn verdict(rules: &[RuleId]) -> Verdict {
        let mut expectations: Vec<Expectation> = rules
            .iter()
            .map(|&rule| Expectation {
                rule,
                demand: Demand::OneOf(vec![Answer::AnyError].into()),
            })
            .collect();
        expectations.push(Expectation {
            rule: mcpdiff_oracle::rules::BC_SESSION,
            demand: Demand::Lint(Lint::NoSessionId),
        });
        Verdict::new(expectations, Canonical::Dispatch)
    }

    #[test]
    fn a_single_defect_witness_beats_an_earlier_double_one() {
        let case = Case::post("/mcp", &[], "{}");
        let obs = Observation::Transport {
            failure: mcpdiff_oracle::TransportFailure::Timeout,
        };
        let f = Finding {
            rule: ORIGIN_403.0.to_string(),
            level: "MUST".into(),
            expected: String::new(),
            observed: String::new(),
            co_failing: Vec::new(),
        };
        let mut t = Tally::default();
        t.record(
            1,
            &case,
            &verdict(&[ORIGIN_403, HDR_MISMATCH]),
            &obs,
            std::slice::from_ref(&f),
            None,
        );
        t.record(
            2,
            &case,
            &verdict(&[ORIGIN_403]),
            &obs,
            std::slice::from_ref(&f),
            None,
        );
        t.record(3, &case, &verdict(&[ORIGIN_403]), &obs, &[f], None);
        let w = &t.witnesses[&ORIGIN_403];
        assert_eq!((w.index, w.defects, w.count), (2, 0, 3));
    }

    /// A failed OBSERVATION rule (a sentence with no RFC 2119 keyword) neither
    /// lowers the score nor fails the run; a failed SHOULD does lower it.
    #[test]
    fn observations_are_never_scored() {
        assert_eq!(level_of(rules::TOOLS_UNKNOWN), Level::Observation);
        let mut t = Tally::default();
        assert_eq!(t.score(), 0.0, "nothing decided, nothing passed");
        let failed = RuleCount {
            exercised: 1,
            failed: 1,
        };
        t.rules.insert(rules::TOOLS_UNKNOWN, failed);
        assert_eq!(t.score(), 1.0);
        assert!(!t.has_blocking());
        t.rules.insert(rules::SSE_XACCEL, failed);
        assert_eq!(t.score(), 0.0);
    }
}
