//! `MCPDIFF_TIMING=1`: the wall time of each stage of a run, one line per stage on standard
//! error (`mcpdiff timing: <stage> <seconds> s`), to see where a run's time goes without a
//! profiler. Off (no line, no cost beyond one clock read) unless the variable is exactly `1`.
//! Laps are wall time on a shared machine: compare them within one run, or side by side.

use std::time::Instant;

/// The variable that turns the lines on.
pub const ENV: &str = "MCPDIFF_TIMING";

/// Whether `MCPDIFF_TIMING=1`.
pub fn enabled() -> bool {
    std::env::var_os(ENV).is_some_and(|v| v == "1")
}

/// A stopwatch over consecutive stages: each [`Stages::lap`] prints the time since the
/// previous one (or since [`Stages::start`]).
pub struct Stages {
    on: bool,
    last: Instant,
}

impl Stages {
    /// Starts now; prints only when [`enabled`].
    pub fn start() -> Stages {
        Stages {
            on: enabled(),
            last: Instant::now(),
        }
    }

    /// The stage `stage` ended now.
    pub fn lap(&mut self, stage: &str) {
        if self.on {
            eprintln!(
                "mcpdiff timing: {stage} {:.2} s",
                self.last.elapsed().as_secs_f64()
            );
        }
        self.last = Instant::now();
    }
}
