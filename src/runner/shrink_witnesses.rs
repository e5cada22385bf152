//! The shrink phase of one target: each rule's witness made as small as the budget allows
//! (`shrink::shrink`), then settled against the original (`shrink::settle`).

use super::tally::Tally;
use super::{shrink, RunConfig, Sender, ShrunkFinding, Target, TargetOutcome};
use mcpdiff_oracle::isolation::benign::{without_benign, BENIGN_RULES};
use mcpdiff_oracle::Observation;
use std::time::Instant;

/// Shrink every witness of one target; returns the outcome and the requests spent.
pub(super) async fn shrink_target<S: Sender>(
    t: &Target<S>,
    tally: Tally,
    cfg: &RunConfig,
) -> (TargetOutcome, u64) {
    let mut findings = Vec::new();
    let mut spent = 0u64;
    let started = Instant::now();
    let end = cfg
        .shrink
        .deadline
        .unwrap_or_else(|| started + cfg.max_time);
    for (rule, w) in &tally.witnesses {
        // a target that did not answer at all gains nothing from a smaller case, and every
        // candidate would cost a full time limit
        let unanswered = matches!(w.observation, Observation::Transport { .. });
        let out_of_time =
            started.elapsed() >= cfg.shrink.max_time_per_target || Instant::now() >= end;
        let began = Instant::now();
        let (case, observation, shrink_requests) = if unanswered || out_of_time {
            (w.case.clone(), w.observation.clone(), 0)
        } else {
            let sender = t.sender.clone();
            shrink::shrink(
                w.case.clone(),
                w.observation.clone(),
                *rule,
                &t.surface,
                cfg.shrink,
                |c| {
                    let s = sender.clone();
                    // the run's end cuts a send in flight too (undetermined: not reproducing)
                    async move {
                        tokio::time::timeout_at(end.into(), s.send(c))
                            .await
                            .unwrap_or(Observation::Transport {
                                failure: mcpdiff_oracle::TransportFailure::Timeout,
                            })
                    }
                },
            )
            .await
        };
        let cut_short = !unanswered
            && (out_of_time
                || shrink_requests >= cfg.shrink.max_requests
                || began.elapsed() >= cfg.shrink.max_time
                || Instant::now() >= end);
        spent += shrink_requests as u64;
        let (case, observation, kept_original) = shrink::settle(
            &t.surface,
            *rule,
            (&w.case, &w.observation),
            (case, observation),
        );
        // the reproducer sent once more, alone on a new connection, as a maintainer will
        // send it: a failure that needed the run's earlier requests on a connection says so
        let alone = if unanswered || Instant::now() >= end {
            None
        } else {
            spent += 1;
            let sent = tokio::time::timeout_at(end.into(), t.sender.send_alone(&case)).await;
            sent.ok().and_then(|answer| {
                let original = (&w.case, &w.observation);
                shrink::alone_note(&t.surface, *rule, original, &case, &answer)
            })
        };
        // a benign input's finding stands only if the request without it is served: the
        // plain twin sent alone, as the spec says the benign input must not change the answer
        // (the twin is built only for those rules: it parses and rewrites the case)
        let plain = BENIGN_RULES
            .contains(rule)
            .then(|| without_benign(&case))
            .filter(|plain| *plain != case);
        let twin = match plain {
            Some(plain) if !unanswered && Instant::now() < end => {
                spent += 1;
                let sent = tokio::time::timeout_at(end.into(), t.sender.send_alone(&plain)).await;
                sent.ok()
                    .and_then(|answer| shrink::twin_note(&t.surface, *rule, &plain, &answer))
            }
            _ => None,
        };
        findings.push(ShrunkFinding {
            rule: *rule,
            original: w.case.clone(),
            original_observation: w.observation.clone(),
            case,
            observation,
            kept_original,
            count: w.count,
            shrink_requests,
            cut_short,
            connections: Vec::new(),
            alone,
            twin,
        });
    }
    let outcome = TargetOutcome {
        name: t.name.clone(),
        url: t.url.clone(),
        surface: t.surface.clone(),
        notes: t.notes.clone(),
        tally,
        findings,
    };
    (outcome, spent)
}
