//! The 2025-11-25 stage of a run, between preparation and the modern cases: for each target
//! whose revision probe ran the fixed legacy sequences, the generated ones
//! (`runner::legacy_generated`: seeded, scaled by `--cases`, shrunk), then, when two or more
//! targets speak 2025-11-25, the differential (`runner::legacy_disagree`). Everything lands
//! in the target's own 2025-11-25 outcome (its evidence) and in its notes; nothing here
//! touches the 2026-07-28 run. Bounded by a share of `--max-time` and paced by `--rate`.
//!
//! Every prepared target comes here, the ones no 2026-07-28 case goes to (a 2025-11-25-only
//! server) included, and each is paired with its evidence by name, never by position: the
//! two lists need not be in the same order nor the same length.

use super::matrix::Settings;
use super::prepare::TargetEvidence;
use crate::runner::legacy::legacy_versions;
use crate::runner::legacy_disagree::{differential, LegacyPeer};
use crate::runner::legacy_generated::{extend, sequence_count, Extended, LegacyPlan};
use crate::runner::legacy_shrink::LegacyShrinkBudget;
use crate::runner::{NetSender, Pacer, Target};
use mcpdiff_oracle::Revision;
use std::time::{Duration, Instant};

/// The legacy stage's share of the time left after preparation, and its cap.
const SHARE: u32 = 4;
const CAP: Duration = Duration::from_secs(90);

/// Send the generated sequences and the differential to `targets`, each into the evidence
/// of the same name (a target without one is left alone); `end` is the end of
/// `--max-time`. Returns one line per thing worth saying (cut short, disagreements found).
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
        // each sequence is its own session, and most of its time is waiting on answers (a
        // GET's quiet stream for `Limits::sse_quiet`): twice the run's concurrency keeps the
        // stage short without piling up
        in_flight: (settings.concurrency * 2).clamp(1, 16),
        until,
        shrink: LegacyShrinkBudget {
            max_requests: settings.shrink_budget,
            max_time: Duration::from_secs(10),
            deadline: Some(until),
        },
    };
    let mut laps = super::timing::Stages::start();
    let paired = evidence.iter_mut().filter_map(|e| {
        let t = targets.iter().find(|t| t.name == e.name)?;
        Some((t, e))
    });
    let jobs = paired.map(|(t, e)| {
        let versions = legacy_versions(&e.revision.versions);
        let pacer = &pacer;
        let run = async move {
            let outcome = e
                .revision
                .revisions
                .iter_mut()
                .find(|o| o.revision == Revision::V2025_11_25)?;
            let endpoint = t.surface.endpoint.as_str();
            Some(extend(outcome, &t.sender, endpoint, &versions, &plan, pacer).await)
        };
        async move { (t.name.clone(), run.await) }
    });
    let extended: Vec<(String, Option<Extended>)> = futures::future::join_all(jobs).await;
    for (name, x) in &extended {
        if let Some(x) = x.filter(|x| x.cut > 0) {
            lines.push(format!(
                "{name}: {} of {} generated 2025-11-25 sequence(s) not sent: cut by the legacy \
                 stage's share of --max-time",
                x.cut, plan.sequences
            ));
        }
    }
    laps.lap("legacy: generated and shrunk");
    // the differential: every target with a 2025-11-25 outcome, in the targets' order
    let speaking: Vec<(&Target<NetSender>, Vec<String>)> = targets
        .iter()
        .filter_map(|t| {
            let e = evidence.iter().find(|e| e.name == t.name)?;
            let speaks = e
                .revision
                .revisions
                .iter()
                .any(|o| o.revision == Revision::V2025_11_25);
            speaks.then(|| (t, legacy_versions(&e.revision.versions)))
        })
        .collect();
    if first_shard && speaking.len() >= 2 {
        let peers: Vec<LegacyPeer<'_, NetSender>> = speaking
            .iter()
            .map(|(t, v)| LegacyPeer {
                name: &t.name,
                sender: &t.sender,
                endpoint: &t.surface.endpoint,
                versions: v,
            })
            .collect();
        let found = differential(&peers, settings.seed, until, plan.in_flight, &pacer).await;
        laps.lap("legacy: differential");
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
    let sent: u64 = extended.iter().filter_map(|(_, x)| x.map(|x| x.sent)).sum();
    if sent > 0 {
        let shrunk: usize = extended
            .iter()
            .filter_map(|(_, x)| x.map(|x| x.shrunk))
            .sum();
        lines.push(format!(
            "2025-11-25: {sent} generated sequence(s) (seed {}, up to {} per target), {shrunk} \
             finding(s) shrunk, the stage in {:.1} s",
            plan.seed,
            plan.sequences,
            now.elapsed().as_secs_f64()
        ));
    }
    // the target's notes: the outcome and each finding (after shrinking)
    for t in targets.iter_mut() {
        let Some(e) = evidence.iter().find(|e| e.name == t.name) else {
            continue;
        };
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
