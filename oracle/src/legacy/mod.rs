//! The legacy (2025-11-25) sequence judge: a legacy case is a short sequence of requests
//! (initialize, initialized, requests, GET, DELETE, a request after DELETE), and what each
//! `L-*` rule allows at a step depends on the session state the earlier answers imply.
//!
//! Pure, like the rest of the oracle: the caller sends each step's [`case_for`] and hands the
//! [`Observation`](crate::Observation) to [`judge_step`], which returns the step's findings (or
//! "not determined") and the [`Track`] for the next step. Every finding names an `L-*` rule,
//! so its revision is 2025-11-25 by construction ([`crate::rules::revision_of`]); nothing here
//! reads or writes a 2026-07-28 verdict.
//!
//! Files: `step.rs` (the steps and their requests), `track.rs` (the session state a sequence
//! implies), `demand.rs` (what one rule allows of one answer), `judge.rs` (which demands a step
//! carries, and checking them), `sequences.rs` (the sequences every legacy target gets), `era.rs` (which revision a
//! dual-era server serves a request by: shared with the dual-era reference).

mod demand;
mod era;
mod judge;
mod sequences;
mod step;
mod track;

pub use demand::Demand;
pub use era::{is_legacy_version, select_era, Era, EraReason, LEGACY_ERA_VERSIONS};
pub use judge::{expectations, judge_step, LegacyProfile, StepOutcome};
pub use sequences::{sequences, Sequence};
pub use step::{
    case_for, LegacyStep, SessionUse, VersionHeader, BOGUS_VERSION, FOREIGN_ORIGIN, UNKNOWN_SESSION,
};
pub use track::{SessionTrack, Track};
