//! The 2025-11-25 stage of a run, between preparation and the modern cases: for each target
//! whose revision probe ran the fixed legacy sequences, the generated ones
//! (`runner::legacy_generated`: seeded, scaled by `--cases`, shrunk), then, when two or more
//! targets speak 2025-11-25, the differential (`runner::legacy_disagree`). Everything lands
//! in the target's own 2025-11-25 outcome (its evidence) and in its notes; nothing here
//! touches the 2026-07-28 run. Bounded by a share of `--max-time` and paced by `--rate`.

use super::matrix::Settings;
use super::prepare::TargetEvidence;
use crate::runner::legacy::legacy_versions;
use crate::runner::legacy_disagree::{differential, LegacyPeer};
use crate::runner::legacy_generated::{extend, sequence_count, LegacyPlan};
use crate::runner::legacy_shrink::LegacyShrinkBudget;
use crate::runner::{NetSender, Pacer, Target};
use mcpdiff_oracle::Revision;
use std::time::{Duration, Instant};

/// The legacy stage's share of the time left after preparation, and its cap.
const SHARE: u32 = 4;
const CAP: Duration = Duration::from_secs(90);

/// Send the generated sequences and the differential; `end` is the end of `--max-time`.
/// Returns one line per thing worth saying (cut short, disagreements found).
pub async fn legacy_stage(
    targets: &mut [Target<NetSender>],
    evidence: &mut [TargetEvidence],
    settings: &Settings,
    all_loopback: bool,
    end: Instant,
) -> Vec<String> {
    let mut lines = Vec::new();
    let now = Instant::now();
    let until = now + (end.saturating_duration_since(now) / SHARE).min(CAP);
    let rate = settings
        .rate
        .or(if all_loopback { None } else { Some(20.0) });
    let pacer = Pacer::new(rate);
    // a sharded run sends the generated sequences and the differential once, from its first
    // shard (as the authorization probes); every shard still runs the fixed sequences
    let first_shard = settings.shard.index == 1;
    let plan = LegacyPlan {
        seed: settings.seed,
        sequences: if first_shard {
            sequence_count(settings.cases)
        } else {
            0
        },
        // each sequence is its own session, and most of its time is a quiet GET stream read to
        // its limit: twice the run's concurrency keeps the stage short without piling up
        in_flight: (settings.concurrency * 2).clamp(1, 16),
        until,
        shrink: LegacyShrinkBudget {
            max_requests: settings.shrink_budget,
            max_time: Duration::from_secs(10),
            deadline: Some(until),
        },
    };
    let jobs = targets.iter().zip(evidence.iter_mut()).map(|(t, e)| {
        let versions = legacy_versions(&e.revision.versions);
        let pacer = &pacer;
        async move {
            let outcome = e
                .revision
                .revisions
                .iter_mut()
                .find(|o| o.revision == Revision::V2025_11_25)?;
            let endpoint = t.surface.endpoint.as_str();
            Some(extend(outcome, &t.sender, endpoint, &versions, &plan, pacer).await)
        }
    });
    let extended = futures::future::join_all(jobs).await;
    for (e, x) in evidence.iter().zip(&extended) {
        if let Some(x) = x.filter(|x| x.cut > 0) {
            lines.push(format!(
                "{}: {} of {} generated 2025-11-25 sequence(s) not sent: cut by the legacy \
                 stage's share of --max-time",
                e.name, x.cut, plan.sequences
            ));
        }
    }
    // the differential: every target with a 2025-11-25 outcome
    let speaking: Vec<(usize, Vec<String>)> = evidence
        .iter()
        .enumerate()
        // only targets with a sender (a legacy-only target is not fuzzed: its evidence
        // follows the fuzzed targets', see `Matrix`)
        .take(targets.len())
        .filter(|(_, e)| {
            e.revision
                .revisions
                .iter()
                .any(|o| o.revision == Revision::V2025_11_25)
        })
        .map(|(i, e)| (i, legacy_versions(&e.revision.versions)))
        .collect();
    if first_shard && speaking.len() >= 2 {
        let peers: Vec<LegacyPeer<'_, NetSender>> = speaking
            .iter()
            .map(|(i, v)| LegacyPeer {
                name: &targets[*i].name,
                sender: &targets[*i].sender,
                endpoint: &targets[*i].surface.endpoint,
                versions: v,
            })
            .collect();
        let found = differential(&peers, settings.seed, until, plan.in_flight, &pacer).await;
        for d in &found {
            let answers: Vec<String> = d.answers.iter().map(|(n, a)| format!("{n}: {a}")).collect();
            lines.push(format!(
                "2025-11-25 disagreement at {}[{}] ({:?}), no rule broken: {}",
                d.sequence,
                d.step,
                d.steps.last(),
                answers.join("; ")
            ));
        }
        for e in evidence.iter_mut() {
            let name = e.name.clone();
            for o in e.revision.revisions.iter_mut() {
                if o.revision == Revision::V2025_11_25 {
                    o.disagreements = found
                        .iter()
                        .filter(|d| d.answers.contains_key(&name))
                        .cloned()
                        .collect();
                }
            }
        }
    }
    let sent: u64 = extended.iter().flatten().map(|x| x.sent).sum();
    if sent > 0 {
        let shrunk: usize = extended.iter().flatten().map(|x| x.shrunk).sum();
        lines.push(format!(
            "2025-11-25: {sent} generated sequence(s) (seed {}, up to {} per target), {shrunk} \
             finding(s) shrunk, the stage in {:.1} s",
            plan.seed,
            plan.sequences,
            now.elapsed().as_secs_f64()
        ));
    }
    // the target's notes: the outcome and each finding (after shrinking)
    for (t, e) in targets.iter_mut().zip(evidence.iter()) {
        for outcome in &e.revision.revisions {
            t.notes.push(outcome.summary());
            for f in &outcome.findings {
                let shrunk = f
                    .shrunk_from
                    .map(|n| format!(" (shrunk from {n} steps)"))
                    .unwrap_or_default();
                t.notes.push(format!(
                    "{} {} ({}) at {}[{}]{shrunk}: expected {}, got {}",
                    f.level, f.rule, outcome.revision, f.sequence, f.step, f.expected, f.observed
                ));
            }
        }
    }
    lines
}
