//! `Record`: what the fuzzing phase learned, updated by every worker as it finishes a case
//! (under one mutex, held for the few map updates of one case). Recording where the case was
//! judged, instead of handing it to a tally task, saves a channel hop and a task wake-up per
//! case (~6% of the client's CPU in a profile).
//!
//! Also owns `Verdicts`, the verdicts of one case (one per distinct surface of its group),
//! and which targets are held to the same verdict when disagreements are looked for.

use super::disagree::{answer_class, compared, Disagreement, Disagreements};
use super::tally::Tally;
use mcpdiff_oracle::{Case, Finding, Observation, Undetermined, Verdict};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The verdicts of one case: one per distinct surface of its group (`Group::judges`). `One`
/// is the common case (reference and mutants, or SDKs that discovered the same surface) and
/// costs no allocation beyond the verdict itself (so it stays unboxed, larger than `Many`).
#[allow(clippy::large_enum_variant)]
pub(crate) enum Verdicts {
    One(Verdict),
    Many(Vec<Verdict>),
}

impl Verdicts {
    /// The verdict of surface `slot` (`Group::slots`).
    pub fn get(&self, slot: usize) -> &Verdict {
        match self {
            Verdicts::One(v) => v,
            Verdicts::Many(vs) => &vs[slot],
        }
    }

    /// The lowest slot whose verdict equals the one of `slot`: targets with the same such
    /// slot were held to the same expectations on this case.
    fn same_as(&self, slot: usize) -> usize {
        match self {
            Verdicts::One(_) => 0,
            Verdicts::Many(vs) => vs.iter().position(|v| *v == vs[slot]).unwrap_or(slot),
        }
    }
}

/// One target's answer to a case: target index, its verdict slot, what it answered, the
/// rules it broke (judged against its own verdict, settled), and whether the answer decided
/// nothing (`Undetermined`) with how long it was waited for.
pub(crate) type TargetAnswer = (
    usize,
    usize,
    Observation,
    Vec<Finding>,
    (Option<Undetermined>, Duration),
);

/// Tallies per target, disagreements, counts.
pub(crate) struct Record {
    pub tallies: Vec<Tally>,
    pub disagreements: Disagreements,
    pub requests: u64,
    pub cases: u64,
    /// Target names, for the disagreements' answer maps.
    names: Vec<String>,
    /// Per target: whether its answers are compared (`disagree::compared`).
    compared: Vec<bool>,
    max_disagreements: usize,
}

impl Record {
    pub fn new(names: Vec<String>, max_disagreements: usize) -> Record {
        Record {
            tallies: names.iter().map(|_| Tally::default()).collect(),
            disagreements: Disagreements::default(),
            requests: 0,
            cases: 0,
            compared: names.iter().map(|n| compared(n)).collect(),
            names,
            max_disagreements,
        }
    }

    /// Record one judged case: every answer into its target's tally (with its own verdict),
    /// and a disagreement when compared targets that broke no rule on it and were held to the
    /// same verdict answered in different classes. A finding by one target does not hide a
    /// disagreement among the others.
    pub fn case(
        &mut self,
        index: u64,
        case: Case,
        verdicts: &Verdicts,
        answers: &[TargetAnswer],
        at: Duration,
        tool: Option<&str>,
    ) {
        self.cases += 1;
        let mut clean = 0usize;
        for (t, slot, obs, findings, (undetermined, waited)) in answers {
            self.requests += 1;
            let verdict = verdicts.get(*slot);
            self.tallies[*t].record(index, &case, verdict, obs, findings, *undetermined);
            if let Some((tool, cut)) = tool.zip(super::slow::call_outcome(obs)) {
                self.tallies[*t].note_call(tool, &case, *waited, cut);
            }
            if findings.is_empty() {
                // an answer that decided nothing is not compared either
                clean += usize::from(self.compared[*t] && undetermined.is_none());
            } else {
                self.tallies[*t].note_first_failures(verdict, findings, at);
            }
        }
        // one target alone cannot disagree: no answer classes to build (the usual exit of a
        // reference + mutants run, before any allocation)
        if clean < 2 {
            return;
        }
        let compared = &self.compared;
        let candidates = || {
            answers
                .iter()
                .filter(|(t, _, _, f, (u, _))| f.is_empty() && u.is_none() && compared[*t])
        };
        // one comparison per verdict the clean targets were held to
        let held: BTreeSet<usize> = candidates().map(|a| verdicts.same_as(a.1)).collect();
        let mut found = Vec::new();
        for h in held {
            let classes: BTreeMap<String, String> = candidates()
                .filter(|a| verdicts.same_as(a.1) == h)
                .map(|(t, _, obs, _, _)| (self.names[*t].clone(), answer_class(obs)))
                .collect();
            let distinct: BTreeSet<&String> = classes.values().collect();
            if distinct.len() > 1 {
                found.push(classes);
            }
        }
        // the case moves into the last disagreement (nearly always the only one)
        let n = found.len();
        let mut found = found.into_iter();
        for answers in found.by_ref().take(n.saturating_sub(1)) {
            self.offer(index, answers, case.clone());
        }
        if let Some(answers) = found.next() {
            self.offer(index, answers, case);
        }
    }

    fn offer(&mut self, case_index: u64, answers: BTreeMap<String, String>, case: Case) {
        let d = Disagreement {
            case_index,
            answers,
            case,
        };
        self.disagreements.offer(d, self.max_disagreements);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::reference::{respond, to_observation, Response};
    use mcpdiff_oracle::{fixture, judge};

    const OK: (Option<Undetermined>, Duration) = (None, Duration::ZERO);

    fn finding() -> Finding {
        Finding {
            rule: "SHTTP-TEST".into(),
            level: "MUST".into(),
            expected: String::new(),
            observed: String::new(),
            co_failing: Vec::new(),
        }
    }

    fn record(names: &[&str]) -> Record {
        Record::new(names.iter().map(|n| n.to_string()).collect(), 10)
    }

    fn setup() -> (Case, Verdict, Observation, Observation) {
        let surface = fixture::surface();
        let case = mcpdiff_oracle::client::conformant_case(
            &surface,
            serde_json::json!(1),
            "tools/list",
            serde_json::json!({}),
        );
        let verdict = judge(&case, &surface);
        let result = to_observation(&respond(&case, &surface));
        let refused = to_observation(&Response::empty(400));
        (case, verdict, result, refused)
    }

    #[test]
    fn a_finding_elsewhere_does_not_hide_a_disagreement() {
        let (case, verdict, result, refused) = setup();
        let mut r = record(&["a", "b", "c"]);
        let answers = vec![
            (0, 0, result.clone(), Vec::new(), OK),
            (1, 0, refused.clone(), Vec::new(), OK),
            (2, 0, refused, vec![finding()], OK),
        ];
        r.case(
            3,
            case,
            &Verdicts::One(verdict),
            &answers,
            Duration::ZERO,
            None,
        );
        assert_eq!(r.disagreements.total, 1);
        let d = &r.disagreements.kept[0];
        assert_eq!(d.case_index, 3);
        let names: Vec<_> = d.answers.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            ["a", "b"],
            "the target with a finding is not compared"
        );
        assert_eq!(
            r.tallies[2].witnesses.len(),
            0,
            "SHTTP-TEST is not a judged rule"
        );
        assert_eq!(r.requests, 3);
    }

    #[test]
    fn mutants_are_not_compared() {
        let (case, verdict, result, refused) = setup();
        let mut r = record(&["reference", "mutant:x"]);
        let answers = vec![
            (0, 0, result, Vec::new(), OK),
            (1, 0, refused, Vec::new(), OK),
        ];
        r.case(
            0,
            case,
            &Verdicts::One(verdict),
            &answers,
            Duration::ZERO,
            None,
        );
        assert_eq!(r.disagreements.total, 0);
    }

    #[test]
    fn targets_held_to_different_verdicts_are_not_compared() {
        let (case, verdict, result, refused) = setup();
        let mut other = verdict.clone();
        other.clear_expectations();
        let verdicts = Verdicts::Many(vec![verdict.clone(), other, verdict]);
        let mut r = record(&["a", "b", "c", "d"]);
        // a and b differ but were held to different verdicts; c shares a's verdict (slot 2
        // equals slot 0) and answers like a; d shares b's and answers like b
        let answers = vec![
            (0, 0, result.clone(), Vec::new(), OK),
            (1, 1, refused.clone(), Vec::new(), OK),
            (2, 2, result, Vec::new(), OK),
            (3, 1, refused, Vec::new(), OK),
        ];
        r.case(0, case, &verdicts, &answers, Duration::ZERO, None);
        assert_eq!(r.disagreements.total, 0);
    }
}
