//! The run pipeline behind `mcpdiff run`, callable without the CLI:
//!
//! 1. [`plan::plan`]: what the flags select ([`RunPlan`]);
//! 2. [`start::start`]: bring up the bundled and in-process servers it names ([`Started`],
//!    one [`TargetSpec`] per target);
//! 3. [`matrix::run_matrix`]: prepare every target ([`prepare`]: discovery, revision probe,
//!    card scan, `--tools` comparison, giving one [`TargetEvidence`] per target, or an
//!    [`Untested`] entry), fuzz the ready ones (`runner::run`), then the authorization probes;
//!    the result is a [`Matrix`];
//! 4. [`Matrix::report`]: the `RunReport`, each target's report reading its evidence by the
//!    target's name;
//! 5. [`clients`]: the client matrix (client SDK targets against the recording server).
//!
//! The caller (the CLI, or a test) owns printing: lines come through [`Events`]. With
//! `MCPDIFF_TIMING=1` each stage's wall time goes to standard error ([`timing`]).

pub mod clients;
pub mod legacy;
pub mod matrix;
pub mod plan;
pub mod prepare;
pub mod start;
pub mod timing;

pub use matrix::{run_matrix, Interrupted, Matrix, Settings};
pub use plan::{plan, RunPlan};
pub use prepare::{CardEvidence, Preparation, Ready, TargetEvidence, Untested};
pub use start::{
    start, time_left_after_setup, StartError, StartOptions, Started, TargetSpec, DEFAULT_MUTANTS,
};

/// What the pipeline tells its caller while it runs (the CLI prints it; a test may ignore
/// it). Progress of the generated cases comes through `runner::Progress`.
pub trait Events: crate::runner::Progress {
    /// One line for the operator (the CLI writes it to standard error).
    fn line(&self, _text: &str) {}
    /// The generated cases are done (the CLI clears its progress bar).
    fn fuzzed(&self) {}
}

impl Events for crate::runner::Quiet {}
