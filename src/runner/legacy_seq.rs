//! One legacy (2025-11-25) sequence over the wire: each step's request built from the track
//! the earlier answers imply (`case_for`), sent, and judged by the pure legacy judge. Every
//! user of a sequence goes through here (the fixed sequences, the generated ones, the
//! shrinker's candidates, the corpus replay, the differential), so a step means the same
//! request and the same judgement wherever it is sent.

use super::legacy::{request_text, LegacyFinding};
use mcpdiff_oracle::legacy::{
    case_for, expectations, judge_step, LegacyProfile, LegacyStep, SessionTrack, StepOutcome, Track,
};
use mcpdiff_oracle::signature::ObservationKind;
use mcpdiff_oracle::{Case, Observation, Surface};
use std::future::Future;

/// One step as sent and judged.
#[derive(Clone, Debug)]
pub struct StepRecord {
    pub step: LegacyStep,
    /// The session state the earlier answers implied when the step was sent.
    pub before: Track,
    pub case: Case,
    pub observation: Observation,
    /// The rules this step could have failed (empty when it decided nothing).
    pub checked: Vec<String>,
    pub outcome: StepOutcome,
}

/// What sending one sequence gave.
#[derive(Clone, Debug, Default)]
pub struct SequenceRun {
    pub records: Vec<StepRecord>,
}

impl SequenceRun {
    /// Steps with no answer to judge.
    pub fn not_determined(&self) -> usize {
        self.records
            .iter()
            .filter(|r| matches!(r.outcome, StepOutcome::NotDetermined(_)))
            .count()
    }

    /// Every finding of the run, each with the steps up to its own (named `name`).
    pub fn findings(&self, name: &str) -> Vec<LegacyFinding> {
        let mut out = Vec::new();
        for (i, r) in self.records.iter().enumerate() {
            let StepOutcome::Judged(fs) = &r.outcome else {
                continue;
            };
            for f in fs {
                out.push(LegacyFinding {
                    sequence: name.to_string(),
                    step: i,
                    rule: f.rule.clone(),
                    level: f.level.clone(),
                    expected: f.expected.clone(),
                    observed: f.observed.clone(),
                    steps: self.records[..=i].iter().map(|r| r.step.clone()).collect(),
                    request: request_text(&r.case),
                    shrunk_from: None,
                    baselined: false,
                    observations: self.records[..=i]
                        .iter()
                        .map(|r| r.observation.clone())
                        .collect(),
                });
            }
        }
        out
    }

    /// Whether the last step broke `rule` with an answer of kind `kind` (the failure
    /// signature a shrunk sequence must keep).
    pub fn last_fails(&self, rule: &str, kind: &ObservationKind) -> bool {
        let Some(last) = self.records.last() else {
            return false;
        };
        let StepOutcome::Judged(fs) = &last.outcome else {
            return false;
        };
        fs.iter().any(|f| f.rule == rule) && kind_of(&last.observation) == *kind
    }
}

/// The kind of answer a legacy finding is about. Every legacy demand names exact statuses
/// or a body shape, so the exact status is kept (a 404 that became a 400 is another failure).
pub fn kind_of(obs: &Observation) -> ObservationKind {
    ObservationKind::of(obs, true)
}

/// Send `steps` one at a time to the endpoint `endpoint` with `send`, judging each answer.
/// With `close`, a session the sequence leaves live is ended with a DELETE afterwards (not
/// judged: only so generated sequences do not pile up sessions on the target).
pub async fn run_steps<F, Fut>(
    steps: &[LegacyStep],
    endpoint: &str,
    profile: &LegacyProfile,
    close: bool,
    mut send: F,
) -> SequenceRun
where
    F: FnMut(Case) -> Fut,
    Fut: Future<Output = Observation>,
{
    let surface = Surface::minimal(endpoint);
    let mut track = Track::start();
    let mut run = SequenceRun::default();
    for (i, step) in steps.iter().enumerate() {
        let case = case_for(step, &track, &surface, i);
        let observation = send(case.clone()).await;
        let demands = expectations(step, &track, profile);
        let (outcome, next) = judge_step(step, &track, &observation, profile);
        let before = std::mem::replace(&mut track, next);
        let checked = match outcome {
            StepOutcome::Judged(_) => demands.iter().map(|(r, _)| r.0.to_string()).collect(),
            StepOutcome::NotDetermined(_) => Vec::new(),
        };
        run.records.push(StepRecord {
            step: step.clone(),
            before,
            case,
            observation,
            checked,
            outcome,
        });
    }
    if close {
        if let SessionTrack::Live(id) = &track.session {
            let mut del = Case::post(endpoint, &[("Mcp-Session-Id", id.as_str())], "");
            del.method = "DELETE".to_string();
            let _ = send(del).await;
        }
    }
    run
}
