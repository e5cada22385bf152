//! Legacy disagreements: when several targets of a run speak 2025-11-25, the same sequences
//! (the fixed ones, then a few generated ones, opening with a version every one of them
//! supports) go to each, and a step where every target broke no rule, from the same session
//! state and held to the same demands, yet the answers fall in different classes is
//! reported. The oracle allows each of those answers (or says nothing of the step, as of a
//! DELETE), so it is no violation: an interop risk, as modern disagreements are
//! (`runner::disagree`). Mutants are not compared (`disagree::compared`).

use super::disagree::{answer_class, compared};
use super::legacy_generated::paced;
use super::legacy_seq::{run_steps, SequenceRun};
use super::pacer::Pacer;
use super::Sender;
use futures::stream::{self, StreamExt};
use mcpdiff_oracle::legacy::{sequences, LegacyProfile, LegacyStep, StepOutcome};
use mcpdiff_props::legacy_gen::legacy_sequence;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Instant;

/// Disagreements kept per run (one per distinct pattern of answers).
pub const MAX_LEGACY_DISAGREEMENTS: usize = 20;

/// Generated sequences the differential sends besides the fixed ones.
pub const DIFFERENTIAL_GENERATED: u64 = 8;

/// One step on which clean targets answered in different classes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegacyDisagreement {
    pub sequence: String,
    pub step: usize,
    /// The sequence up to the step.
    pub steps: Vec<LegacyStep>,
    /// target name -> answer class (`404 empty`, `200 result`, ...).
    pub answers: BTreeMap<String, String>,
}

/// The steps of one sequence on which the targets of `runs` (name, run) disagree. At each
/// step the targets that broke no rule are grouped by what the oracle held them to (the
/// session state their own earlier answers implied, and the rules the step could fail):
/// within a group of two or more, different answer classes are a disagreement. A target
/// that took another path (session-less, or a finding at the step) is left out of that
/// step, not of the sequence.
pub fn compare(sequence: &str, runs: &[(String, SequenceRun)]) -> Vec<LegacyDisagreement> {
    let mut out = Vec::new();
    let len = runs.iter().map(|(_, r)| r.records.len()).min().unwrap_or(0);
    for i in 0..len {
        let mut groups: Vec<(String, BTreeMap<String, String>)> = Vec::new();
        for (name, run) in runs {
            let rec = &run.records[i];
            if !matches!(&rec.outcome, StepOutcome::Judged(f) if f.is_empty()) {
                continue;
            }
            let held = format!(
                "{:?} {:?}",
                std::mem::discriminant(&rec.before.session),
                rec.checked
            );
            let class = answer_class(&rec.observation);
            match groups.iter_mut().find(|(h, _)| *h == held) {
                Some((_, g)) => {
                    g.insert(name.clone(), class);
                }
                None => groups.push((held, BTreeMap::from([(name.clone(), class)]))),
            }
        }
        for (_, answers) in groups {
            let mut classes: Vec<&String> = answers.values().collect();
            classes.sort();
            classes.dedup();
            if answers.len() >= 2 && classes.len() > 1 {
                let at = runs
                    .iter()
                    .find(|(n, _)| answers.contains_key(n))
                    .map_or(&runs[0].1, |(_, r)| r);
                out.push(LegacyDisagreement {
                    sequence: sequence.to_string(),
                    step: i,
                    steps: first_steps(at, i),
                    answers,
                });
            }
        }
    }
    out
}

fn first_steps(run: &SequenceRun, i: usize) -> Vec<LegacyStep> {
    run.records[..=i].iter().map(|r| r.step.clone()).collect()
}

/// One sequence's name and each peer's run of it.
type NamedRuns = (String, Vec<(String, SequenceRun)>);

/// One target of the differential: its name, how to reach it, its endpoint path and its
/// known legacy versions (newest first).
pub struct LegacyPeer<'a, S> {
    pub name: &'a str,
    pub sender: &'a S,
    pub endpoint: &'a str,
    pub versions: &'a [String],
}

/// Send the same sequences to every compared peer (two or more, sharing a legacy version)
/// (`in_flight` sequences at once) and keep one disagreement per pattern of answers, at most
/// [`MAX_LEGACY_DISAGREEMENTS`].
pub async fn differential<S: Sender>(
    peers: &[LegacyPeer<'_, S>],
    seed: u64,
    until: Instant,
    in_flight: usize,
    pacer: &Pacer,
) -> Vec<LegacyDisagreement> {
    let peers: Vec<&LegacyPeer<'_, S>> = peers.iter().filter(|p| compared(p.name)).collect();
    let Some(first) = peers.first() else {
        return Vec::new();
    };
    // versions every peer supports, in the first one's order (newest first)
    let common: Vec<String> = first
        .versions
        .iter()
        .filter(|v| peers.iter().all(|p| p.versions.contains(v)))
        .cloned()
        .collect();
    if peers.len() < 2 || common.is_empty() {
        return Vec::new();
    }
    let profile = LegacyProfile {
        supported: common.clone(),
    };
    let mut all: Vec<(String, Vec<LegacyStep>)> =
        sequences(&common[0], common.get(1).map(|s| s.as_str()))
            .into_iter()
            .map(|s| (s.name.to_string(), s.steps))
            .collect();
    all.extend(
        (0..DIFFERENTIAL_GENERATED)
            .map(|i| (format!("generated-{i}"), legacy_sequence(seed, i, &common))),
    );
    let (peers, profile) = (&peers, &profile);
    // sequences run side by side (each its own session on every peer), compared in order
    let sent: Vec<Option<NamedRuns>> = stream::iter(all)
        .map(|(name, steps)| async move {
            if Instant::now() >= until {
                return None;
            }
            let sends = peers.iter().map(|p| {
                let steps = &steps;
                async move {
                    let send = paced(p.sender, pacer);
                    let run = run_steps(steps, p.endpoint, profile, true, send);
                    let run = tokio::time::timeout_at(until.into(), run).await.ok()?;
                    Some((p.name.to_string(), run))
                }
            });
            let runs: Option<Vec<(String, SequenceRun)>> =
                futures::future::join_all(sends).await.into_iter().collect();
            runs.map(|r| (name, r))
        })
        .buffered(in_flight.max(1))
        .collect()
        .await;
    let mut kept: Vec<LegacyDisagreement> = Vec::new();
    for (name, runs) in sent.into_iter().flatten() {
        for d in compare(&name, &runs) {
            // one per kind of step and pattern of answers
            let pattern = |x: &LegacyDisagreement| {
                let answers: Vec<&String> = x.answers.values().collect();
                format!("{:?} {answers:?}", x.steps.last())
            };
            if kept.len() < MAX_LEGACY_DISAGREEMENTS
                && !kept.iter().any(|k| pattern(k) == pattern(&d))
            {
                kept.push(d);
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::legacy_seq::StepRecord;
    use mcpdiff_oracle::legacy::{SessionTrack, SessionUse, Track};
    use mcpdiff_oracle::{Body, Case, HttpAnswer, Observation};

    fn record(step: LegacyStep, status: u16, findings: usize, checked: &[&str]) -> StepRecord {
        let finding = mcpdiff_oracle::check::Finding {
            rule: "L-X".into(),
            level: "MUST".into(),
            expected: String::new(),
            observed: String::new(),
            co_failing: Vec::new(),
        };
        StepRecord {
            step,
            before: Track {
                session: SessionTrack::Live("s".into()),
                ..Track::start()
            },
            case: Case::post("/mcp", &[], ""),
            observation: Observation::Http(HttpAnswer::new(status, None, Body::Empty)),
            checked: checked.iter().map(|s| s.to_string()).collect(),
            outcome: StepOutcome::Judged(vec![finding; findings]),
        }
    }

    fn run(records: Vec<StepRecord>) -> SequenceRun {
        SequenceRun { records }
    }

    #[test]
    fn clean_steps_held_to_the_same_demands_are_compared() {
        let delete = LegacyStep::Delete {
            session: SessionUse::Current,
        };
        let get = LegacyStep::Get {
            session: SessionUse::Current,
        };
        let a = run(vec![
            // DELETE: no rule binds it, 200 and 405 both allowed (D-L5)
            record(delete.clone(), 200, 0, &[]),
            // GET: clean on one, a finding on the other: not a disagreement
            record(get.clone(), 405, 0, &["L-SHTTP-GET-SSE-OR-405"]),
        ]);
        let b = run(vec![
            record(delete.clone(), 405, 0, &[]),
            record(get.clone(), 200, 1, &["L-SHTTP-GET-SSE-OR-405"]),
        ]);
        // a session-less third target is held to other demands: left out, not in the way
        let mut c = run(vec![record(delete.clone(), 404, 0, &[])]);
        c.records[0].before.session = SessionTrack::Sessionless;
        let found = compare("s", &[("a".into(), a), ("b".into(), b), ("c".into(), c)]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].step, 0);
        assert_eq!(found[0].steps, vec![delete.clone()]);
        assert_eq!(found[0].answers["a"], "200 empty");
        assert_eq!(found[0].answers["b"], "405 empty");
        assert!(!found[0].answers.contains_key("c"));
        // the same class on both: nothing to report
        let same = compare(
            "s",
            &[
                ("a".into(), run(vec![record(delete.clone(), 200, 0, &[])])),
                ("b".into(), run(vec![record(delete, 200, 0, &[])])),
            ],
        );
        assert!(same.is_empty());
    }
}
