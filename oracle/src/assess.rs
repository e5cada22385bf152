//! `assess(case, surface, observation) -> Assessment`: what one answer to one request decided.
//!
//! The one place that spells out the order: `judge` (the Verdict: what every triggered rule
//! allows), then `check` (the rules the answer broke), then `settle` (an answer cut by a
//! limit, refused by the authorization layer or never received decides nothing beyond what it
//! already broke). Callers that send one case to several targets sharing a surface judge it
//! once and call `assess_against` per answer, which is the same minus the judging. Pure.

use crate::case::Case;
use crate::check::{check, Finding};
use crate::judge::judge;
use crate::observation::Observation;
use crate::surface::Surface;
use crate::undetermined::{settle, Undetermined};
use crate::verdict::Verdict;

/// What an answer decided against a Verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Settled {
    /// The rules the answer broke; for an undetermined answer only those no continuation of
    /// it could repair.
    pub findings: Vec<Finding>,
    /// `Some(reason)`: every rule of the Verdict not in `findings` is not determined by this
    /// answer (with `findings` empty, the whole case is).
    pub undetermined: Option<Undetermined>,
}

/// A case's Verdict and what one answer to it decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    pub verdict: Verdict,
    pub settled: Settled,
}

/// Judge `case` against `surface` and assess the answer `obs` against that Verdict.
pub fn assess(case: &Case, surface: &Surface, obs: &Observation) -> Assessment {
    let verdict = judge(case, surface);
    let settled = assess_against(&verdict, obs);
    Assessment { verdict, settled }
}

/// Assess the answer `obs` against a Verdict already judged (`assess` without the judging).
pub fn assess_against(verdict: &Verdict, obs: &Observation) -> Settled {
    let mut findings = check(verdict, obs);
    let undetermined = settle(verdict, obs, &mut findings);
    Settled {
        findings,
        undetermined,
    }
}
