//! Legacy (2025-11-25) corpus entries (`mcpdiff-legacy-corpus/1`): a legacy finding is a
//! sequence, not one request, so its entry stores the steps (the last one failing), the rule,
//! the legacy versions the judge was told the target supports, what the rule expected at the
//! last step, and per target every answer of the sequence, the rules its last answer failed
//! and the kind of that answer (the failure signature, `oracle/src/signature.rs`'s
//! `ObservationKind`). The steps, not the bytes, are what replays: each step's request
//! carries the session id the target mints on that replay (`legacy::case_for`).
//!
//! Pure here: the format, entries from a run's legacy findings, re-judging the stored answers
//! with today's legacy judge (drift), and classifying a replayed run. Sending is
//! `runner::legacy_seq::run_steps`, called by `cmd/replay.rs`.

use super::entry::{stable_name, FieldHash};
use super::replay::Status;
use crate::runner::legacy::{LegacyFinding, RevisionOutcome};
use crate::runner::legacy_seq::{kind_of, SequenceRun};
use mcpdiff_oracle::legacy::{judge_step, LegacyProfile, LegacyStep, StepOutcome, Track};
use mcpdiff_oracle::rules::{level_of, Level};
use mcpdiff_oracle::{Observation, TransportFailure, Undetermined};
use serde::{Deserialize, Serialize};

/// The schema id of a legacy entry.
pub const LEGACY_SCHEMA: &str = "mcpdiff-legacy-corpus/1";

/// One legacy sequence and what is known about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegacyEntry {
    pub schema: String,
    /// The rule the sequence was saved for first (it names the file), then any other.
    pub rules: Vec<String>,
    /// Where it came from (`mcpdiff run --seed N`).
    pub source: String,
    /// The sequence; its last step is the one that failed.
    pub steps: Vec<LegacyStep>,
    /// The legacy versions the judge takes as supported (`LegacyProfile::supported`).
    pub supported: Vec<String>,
    /// What the first rule allowed at the last step, when saved.
    pub expected: String,
    #[serde(default)]
    pub targets: Vec<LegacyRecorded>,
}

/// What one target answered to the sequence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegacyRecorded {
    pub target: String,
    pub url: String,
    pub mcpdiff_version: String,
    /// One answer per step.
    pub observations: Vec<Observation>,
    /// The rules the last answer failed when recorded (empty: it passed).
    pub failing: Vec<String>,
    /// The kind of the last answer (status, body, JSON-RPC code): the failure's signature.
    pub signature: String,
}

impl LegacyEntry {
    /// The entry of finding `f` of the target (`name`, `url`) whose known versions are
    /// `supported`; `None` when the finding kept no answers (read back from a report).
    pub fn of_finding(
        f: &LegacyFinding,
        name: &str,
        url: &str,
        supported: &[String],
        source: &str,
    ) -> Option<LegacyEntry> {
        let last = f.observations.last()?;
        (f.observations.len() == f.steps.len()).then_some(())?;
        Some(LegacyEntry {
            schema: LEGACY_SCHEMA.to_string(),
            rules: vec![f.rule.clone()],
            source: source.to_string(),
            steps: f.steps.clone(),
            supported: supported.to_vec(),
            expected: f.expected.clone(),
            targets: vec![LegacyRecorded {
                target: name.to_string(),
                url: url.to_string(),
                mcpdiff_version: env!("CARGO_PKG_VERSION").to_string(),
                observations: f.observations.clone(),
                failing: vec![f.rule.clone()],
                signature: kind_of(last).to_string(),
            }],
        })
    }

    /// `<RULE-ID>-<hash>.json`, the hash over the steps and the versions (as JSON).
    pub fn file_name(&self) -> String {
        let mut h = FieldHash::default();
        // serializing steps and strings cannot fail
        h.feed(&serde_json::to_vec(&self.steps).unwrap_or_default());
        h.feed(&serde_json::to_vec(&self.supported).unwrap_or_default());
        let rule = self.rules.first().map_or("NO-RULE", String::as_str);
        stable_name(rule, &h.hex12())
    }

    fn profile(&self) -> LegacyProfile {
        LegacyProfile {
            supported: self.supported.clone(),
        }
    }

    /// Add or replace (by target name) what one target answered.
    pub fn record(&mut self, r: LegacyRecorded) {
        match self.targets.iter_mut().find(|t| t.target == r.target) {
            // the same failure again (session ids differ per run): keep the old record
            Some(t) if t.failing == r.failing && t.signature == r.signature => {}
            Some(t) => *t = r,
            None => self.targets.push(r),
        }
    }
}

/// The entries of a run's 2025-11-25 findings on one target.
pub fn entries_of(
    outcome: &RevisionOutcome,
    name: &str,
    url: &str,
    supported: &[String],
    seed: u64,
) -> Vec<LegacyEntry> {
    let source = format!("mcpdiff run --seed {seed}");
    outcome
        .findings
        .iter()
        .filter_map(|f| LegacyEntry::of_finding(f, name, url, supported, &source))
        .collect()
}

/// The rules the last step fails when `steps` were answered with `answers`, judged by
/// today's legacy judge; `Err` with why when the last answer decides nothing.
pub fn judge_answers(
    steps: &[LegacyStep],
    answers: &[Observation],
    profile: &LegacyProfile,
) -> Result<Vec<String>, String> {
    let mut track = Track::start();
    let mut last = Ok(Vec::new());
    for (step, obs) in steps.iter().zip(answers) {
        let (outcome, next) = judge_step(step, &track, obs, profile);
        track = next;
        last = match outcome {
            StepOutcome::Judged(fs) => Ok(fs.into_iter().map(|f| f.rule).collect()),
            StepOutcome::NotDetermined(why) => Err(why),
        };
    }
    last
}

/// Stored answers re-judged with today's legacy judge: one line per target whose last
/// answer now fails other rules than recorded (empty: no drift).
pub fn rejudge(entry: &LegacyEntry) -> Vec<String> {
    let profile = entry.profile();
    let mut drift = Vec::new();
    for r in &entry.targets {
        if r.observations.len() != entry.steps.len() {
            drift.push(format!(
                "{}: {} answer(s) stored for {} step(s)",
                r.target,
                r.observations.len(),
                entry.steps.len()
            ));
            continue;
        }
        match judge_answers(&entry.steps, &r.observations, &profile) {
            Ok(now) if now == r.failing => {}
            Ok(now) => drift.push(format!(
                "{}: the last step failed {:?} when saved, {:?} today",
                r.target, r.failing, now
            )),
            Err(why) => drift.push(format!(
                "{}: the stored last answer decides nothing today ({why})",
                r.target
            )),
        }
    }
    drift
}

/// Today's findings with the rules stored for the target.
pub fn rebless(entry: &mut LegacyEntry) {
    let profile = entry.profile();
    for r in entry.targets.iter_mut() {
        if let Ok(now) = judge_answers(&entry.steps, &r.observations, &profile) {
            r.failing = now;
        }
    }
}

/// The stored record of a target: by name, then by URL.
pub fn stored_for<'a>(entry: &'a LegacyEntry, name: &str, url: &str) -> Option<&'a LegacyRecorded> {
    entry
        .targets
        .iter()
        .find(|r| r.target == name)
        .or_else(|| entry.targets.iter().find(|r| r.url == url))
}

/// A replayed sequence against what was recorded for the target: (status, rules failing
/// now at the last step, whether one is MUST-level).
pub fn classify(stored: Option<&LegacyRecorded>, run: &SequenceRun) -> (Status, Vec<String>, bool) {
    let failing: Vec<String> = match run.records.last() {
        Some(r) => match &r.outcome {
            StepOutcome::Judged(fs) => fs.iter().map(|f| f.rule.clone()).collect(),
            StepOutcome::NotDetermined(_) => {
                return (
                    Status::NotDetermined(undetermined(&r.observation)),
                    Vec::new(),
                    false,
                )
            }
        },
        None => Vec::new(),
    };
    let blocking = failing.iter().any(|id| {
        mcpdiff_oracle::rules::all_rules()
            .find(|r| r.id.0 == id)
            .is_some_and(|r| matches!(level_of(r.id), Level::Must | Level::MustNot))
    });
    let was_failing = stored.is_some_and(|r| !r.failing.is_empty());
    let status = match (was_failing, failing.is_empty()) {
        (true, true) => Status::Fixed,
        (true, false) => Status::StillFailing,
        (false, false) => Status::NewlyFailing,
        (false, true) => Status::Passing,
    };
    (status, failing, blocking)
}

/// Why the legacy judge decided nothing on `obs`: no connection, an authorization challenge
/// (the only HTTP answer it leaves undecided), or an answer that did not come in time.
fn undetermined(obs: &Observation) -> Undetermined {
    match obs {
        Observation::Transport {
            failure: TransportFailure::Refused,
        } => Undetermined::Unreachable,
        Observation::Http(_) => Undetermined::Unauthorized,
        Observation::Transport { .. } => Undetermined::TimedOut,
    }
}
