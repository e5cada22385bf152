//! Shrinking a legacy finding as a sequence: drop steps before the failing one and re-run the
//! shorter sequence on the target, keeping it only when its last step still breaks the same
//! rule with the same kind of answer (exact status, body kind, JSON-RPC code: the signature
//! `oracle/src/signature.rs` keeps for modern cases). The failing step itself is never
//! dropped. The `initialize` a session-bound step relies on is dropped only when the rule
//! still fails without it: a candidate is kept on what the target answers, never assumed.
//!
//! Candidates are pure ([`candidates`]); [`shrink`] drives them within a budget of requests
//! and time, and a shrink cut short keeps the shortest sequence it reached.

use super::legacy::LegacyFinding;
use super::legacy_seq::{kind_of, run_steps};
use mcpdiff_oracle::legacy::{LegacyProfile, LegacyStep};
use mcpdiff_oracle::{Case, Observation};
use std::future::Future;
use std::time::{Duration, Instant};

/// What one finding's shrink may spend.
#[derive(Clone, Copy, Debug)]
pub struct LegacyShrinkBudget {
    /// Requests sent (each candidate costs its steps, plus a closing DELETE).
    pub max_requests: usize,
    pub max_time: Duration,
    /// A hard end (the run's `--max-time`), whichever comes first.
    pub deadline: Option<Instant>,
}

/// Shorter sequences than `steps` that still end with its last (failing) step, most
/// promising first: everything before the last `initialize` preceding the failing step (an
/// earlier session the step does not use), then each earlier step alone, latest first.
pub fn candidates(steps: &[LegacyStep]) -> Vec<Vec<LegacyStep>> {
    let mut out = Vec::new();
    let Some(last) = steps.len().checked_sub(1) else {
        return out;
    };
    let opening = steps[..last]
        .iter()
        .rposition(|s| matches!(s, LegacyStep::Initialize { .. }));
    if let Some(k) = opening.filter(|k| *k > 0) {
        out.push(steps[k..].to_vec());
    }
    for j in (0..last).rev() {
        let mut c = steps.to_vec();
        c.remove(j);
        out.push(c);
    }
    out
}

/// Shrink `finding` (found on the target `send` reaches at `endpoint`). `None`: the finding
/// has no recorded answer to take the signature from, or no shorter sequence kept it.
pub async fn shrink<F, Fut>(
    finding: &LegacyFinding,
    endpoint: &str,
    profile: &LegacyProfile,
    budget: LegacyShrinkBudget,
    mut send: F,
) -> Option<LegacyFinding>
where
    F: FnMut(Case) -> Fut,
    Fut: Future<Output = Observation>,
{
    let kind = kind_of(finding.observations.last()?);
    let start = Instant::now();
    let mut end = start + budget.max_time;
    if let Some(d) = budget.deadline {
        end = end.min(d);
    }
    let mut spent = 0usize;
    let mut best: Option<LegacyFinding> = None;
    let mut current = finding.steps.clone();
    'outer: loop {
        for cand in candidates(&current) {
            if Instant::now() >= end || spent + cand.len() + 1 > budget.max_requests {
                break 'outer;
            }
            spent += cand.len() + 1;
            let timed = tokio::time::timeout_at(
                end.into(),
                run_steps(&cand, endpoint, profile, true, &mut send),
            );
            let Ok(run) = timed.await else {
                break 'outer;
            };
            if !run.last_fails(&finding.rule, &kind) {
                continue;
            }
            let last = cand.len() - 1;
            let found = run
                .findings(&finding.sequence)
                .into_iter()
                .find(|f| f.step == last && f.rule == finding.rule);
            if let Some(mut f) = found {
                f.shrunk_from = Some(finding.steps.len());
                f.baselined = finding.baselined;
                best = Some(f);
                current = cand;
                continue 'outer;
            }
        }
        break;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::legacy::SessionUse;

    fn init(v: &str) -> LegacyStep {
        LegacyStep::Initialize {
            version: v.to_string(),
        }
    }

    #[test]
    fn candidates_keep_the_failing_step_and_are_shorter() {
        let get = LegacyStep::Get {
            session: SessionUse::Current,
        };
        let steps = vec![init("a"), LegacyStep::Initialized, init("b"), get.clone()];
        let c = candidates(&steps);
        // the earlier session first: from the last initialize on
        assert_eq!(c[0], vec![init("b"), get.clone()]);
        assert!(c
            .iter()
            .all(|s| s.len() < steps.len() && s.last() == Some(&get)));
        // then each earlier step alone, latest first
        assert_eq!(c[1], vec![init("a"), LegacyStep::Initialized, get.clone()]);
        assert_eq!(c.len(), 1 + 3);
        assert!(candidates(std::slice::from_ref(&get)).is_empty());
        assert!(candidates(&[]).is_empty());
    }
}
