//! `Record`: what the fuzzing phase learned, updated by every worker as it finishes a case
//! (under one mutex, held for the few map updates of one case). Recording where the case was
//! judged, instead of handing it to a tally task, saves a channel hop and a task wake-up per
//! case (issue 7 profile: ~6% of the client's CPU).

use super::disagree::{answer_class, Disagreement, Disagreements};
use super::tally::Tally;
use super::{Sender, Target};
use mcpdiff_oracle::{Case, Finding, Observation, Verdict};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Tallies per target, disagreements, counts.
pub(crate) struct Record {
    pub tallies: Vec<Tally>,
    pub disagreements: Disagreements,
    pub requests: u64,
    pub cases: u64,
    max_disagreements: usize,
}

impl Record {
    pub fn new(targets: usize, max_disagreements: usize) -> Record {
        Record {
            tallies: (0..targets).map(|_| Tally::default()).collect(),
            disagreements: Disagreements::default(),
            requests: 0,
            cases: 0,
            max_disagreements,
        }
    }

    /// Record one judged case: every answer into its target's tally, and a disagreement when
    /// targets of the group answered in different classes and none broke a rule.
    pub fn case<S: Sender>(
        &mut self,
        targets: &[Target<S>],
        index: u64,
        case: Case,
        verdict: &Verdict,
        answers: &[(usize, Observation, Vec<Finding>)],
        at: Duration,
    ) {
        self.cases += 1;
        let mut any_finding = false;
        for (t, obs, findings) in answers {
            self.requests += 1;
            any_finding |= !findings.is_empty();
            self.tallies[*t].record(index, &case, verdict, obs, findings);
            if !findings.is_empty() {
                self.tallies[*t].note_first_failures(verdict, findings, at);
            }
        }
        // one target alone cannot disagree: no answer classes to build
        if any_finding || answers.len() < 2 {
            return;
        }
        let classes: BTreeMap<String, String> = answers
            .iter()
            .map(|(t, obs, _)| (targets[*t].name.clone(), answer_class(obs)))
            .collect();
        let distinct: BTreeSet<&String> = classes.values().collect();
        if distinct.len() > 1 {
            self.disagreements.offer(
                Disagreement {
                    case_index: index,
                    answers: classes,
                    case,
                },
                self.max_disagreements,
            );
        }
    }
}
