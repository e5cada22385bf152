//! The generated half of a target's 2025-11-25 outcome: after the fixed sequences
//! (`runner::legacy`), `mcpdiff run` sends a seeded number of generated sequences
//! (`mcpdiff_props::legacy_gen`, a pure function of seed and index: the same seed sends the
//! same sequences), tallies their findings into the same outcome, keeps one finding per rule
//! (the shortest sequence that shows it: the best witness) and shrinks each one
//! (`legacy_shrink`). Bounded in count (`sequence_count`), in time (`LegacyPlan::until`) and
//! paced by the run's `--rate`.

use super::legacy::{score, LegacyFinding, RevisionOutcome};
use super::legacy_seq::{run_steps, send_step, SequenceRun};
use super::legacy_shrink::{shrink, LegacyShrinkBudget};
use super::pacer::Pacer;
use super::Sender;
use futures::stream::{self, StreamExt};
use mcpdiff_oracle::legacy::LegacyProfile;
use mcpdiff_oracle::{Case, Observation};
use mcpdiff_props::legacy_gen::legacy_sequence;
use std::collections::BTreeSet;
use std::future::Future;
use std::time::Instant;

/// Generated sequences per target, at most (each is up to ten requests; a GET's stream is
/// read until it stays quiet, `legacy_seq::quiet_get`, a resumption's to the SSE time limit).
pub const MAX_GENERATED: u64 = 32;

/// Generated sequences for a run of `cases` cases: one per sixteen cases, at least one when
/// any case is asked for, at most [`MAX_GENERATED`] (the default 2000 cases reach the cap:
/// with the differential, a 2025-11-25 stage of about 3 s on the bundled servers, release
/// build, 2026-12-05; docs/PERFORMANCE.md).
pub fn sequence_count(cases: u64) -> u64 {
    (cases / 16).clamp(cases.min(1), MAX_GENERATED)
}

/// How the generated sequences of one target are sent.
#[derive(Clone, Copy, Debug)]
pub struct LegacyPlan {
    pub seed: u64,
    /// How many ([`sequence_count`]).
    pub sequences: u64,
    /// Sequences in flight at once (each is its own session, so they do not interfere).
    pub in_flight: usize,
    /// No sequence starts after this, and one still running then is dropped.
    pub until: Instant,
    /// Per finding.
    pub shrink: LegacyShrinkBudget,
}

/// What the generated sequences added, for a note.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extended {
    /// Sequences sent to the end.
    pub sent: u64,
    /// Sequences not sent or dropped at `until`.
    pub cut: u64,
    /// Findings whose sequence a shorter one replaced.
    pub shrunk: usize,
}

/// One finding per rule: the one with the fewest steps (the first of equals, so a fixed
/// sequence's finding is kept over a generated one of the same length).
pub fn best_per_rule(findings: Vec<LegacyFinding>) -> Vec<LegacyFinding> {
    let mut out: Vec<LegacyFinding> = Vec::new();
    for f in findings {
        match out.iter_mut().find(|k| k.rule == f.rule) {
            Some(k) if f.steps.len() < k.steps.len() => *k = f,
            Some(_) => {}
            None => out.push(f),
        }
    }
    out
}

/// Send the sequences of `plan` to the target `sender` reaches at `endpoint`, fold them into
/// `outcome`, keep the best witness per rule and shrink it. `versions`: the target's known
/// legacy versions, newest first.
pub async fn extend<S: Sender>(
    outcome: &mut RevisionOutcome,
    sender: &S,
    endpoint: &str,
    versions: &[String],
    plan: &LegacyPlan,
    pacer: &Pacer,
) -> Extended {
    let profile = LegacyProfile {
        supported: versions.to_vec(),
    };
    let send = paced(sender, pacer);
    let profile_ref = &profile;
    let runs: Vec<Option<(u64, SequenceRun)>> = stream::iter(0..plan.sequences)
        .map(|i| async move {
            if Instant::now() >= plan.until {
                return None;
            }
            let steps = legacy_sequence(plan.seed, i, versions);
            let run = run_steps(&steps, endpoint, profile_ref, true, send);
            tokio::time::timeout_at(plan.until.into(), run)
                .await
                .ok()
                .map(|r| (i, r))
        })
        .buffered(plan.in_flight.max(1))
        .collect()
        .await;
    let mut ext = Extended::default();
    let mut checked: BTreeSet<String> = outcome.rules_checked.iter().cloned().collect();
    let mut findings = std::mem::take(&mut outcome.findings);
    for r in &runs {
        let Some((i, run)) = r else {
            ext.cut += 1;
            continue;
        };
        ext.sent += 1;
        outcome.steps += run.records.len();
        outcome.not_determined += run.not_determined();
        checked.extend(run.records.iter().flat_map(|r| r.checked.iter().cloned()));
        findings.extend(run.findings(&format!("generated-{i}")));
    }
    let mut best = best_per_rule(findings);
    for f in best.iter_mut() {
        if Instant::now() >= plan.until.max(plan.shrink.deadline.unwrap_or(plan.until)) {
            break;
        }
        if let Some(smaller) = shrink(f, endpoint, &profile, plan.shrink, send).await {
            *f = smaller;
            ext.shrunk += 1;
        }
    }
    outcome.generated += ext.sent as usize;
    outcome.score = score(&checked, &best);
    outcome.findings = best;
    outcome.rules_checked = checked.into_iter().collect();
    ext
}

/// `sender` behind the run's shared `--rate` schedule; a GET that resumes nothing is read
/// as a listening stream (`legacy_seq::quiet_get`).
pub(crate) fn paced<'a, S: Sender>(
    sender: &'a S,
    pacer: &'a Pacer,
) -> impl Fn(Case) -> std::pin::Pin<Box<dyn Future<Output = Observation> + Send + 'a>> + Copy + 'a {
    move |c: Case| {
        let s = sender.clone();
        Box::pin(async move {
            pacer.wait().await;
            send_step(&s, c).await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_scales_with_cases_and_is_bounded() {
        assert_eq!(sequence_count(0), 0);
        assert_eq!(sequence_count(1), 1);
        assert_eq!(sequence_count(200), 12);
        assert_eq!(sequence_count(1_000_000), MAX_GENERATED);
    }
}
