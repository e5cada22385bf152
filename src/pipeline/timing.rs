//! `MCPDIFF_TIMING=1`: the wall time of each stage of a run, one line per stage on standard
//! error (`mcpdiff timing: <stage> <seconds> s`), to see where a run's time goes without a
//! profiler. Off (no line, no cost beyond one clock read) unless the variable is exactly `1`.
//! Laps are wall time on a shared machine: compare them within one run, or side by side.

use mcpdiff_oracle::case::HeaderField;
use mcpdiff_oracle::Case;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

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

/// The time the GET requests of one target's revision probe (its fixed 2025-11-25 sequences)
/// spent, by whether they resume a stream (`Last-Event-ID`) or not, for the `prepare` lines:
/// the stage's share that waits on streams the target keeps open.
#[derive(Debug, Default)]
pub struct GetClock {
    /// (nanoseconds, requests) of GETs without `Last-Event-ID`.
    listening: (AtomicU64, AtomicU64),
    /// The same, of GETs with it.
    resuming: (AtomicU64, AtomicU64),
}

impl GetClock {
    /// What [`GetClock::add`] counts a request as: `None` for anything but a GET, else
    /// whether it resumes a stream (`Last-Event-ID`).
    pub fn kind(case: &Case) -> Option<bool> {
        (case.method == "GET").then(|| !matches!(case.header("Last-Event-ID"), HeaderField::Absent))
    }

    /// Count `spent` against a request of kind `kind` ([`GetClock::kind`]).
    pub fn add(&self, kind: Option<bool>, spent: Duration) {
        let (nanos, count) = match kind {
            None => return,
            Some(false) => &self.listening,
            Some(true) => &self.resuming,
        };
        let n = u64::try_from(spent.as_nanos()).unwrap_or(u64::MAX);
        nanos.fetch_add(n, Ordering::Relaxed);
        count.fetch_add(1, Ordering::Relaxed);
    }

    /// One line for `stage` (when [`enabled`]): the GETs' time by kind.
    pub fn print(&self, stage: &str) {
        if !enabled() {
            return;
        }
        let secs = |(n, c): &(AtomicU64, AtomicU64)| {
            let s = n.load(Ordering::Relaxed) as f64 / 1e9;
            format!("{s:.2} s in {}", c.load(Ordering::Relaxed))
        };
        eprintln!(
            "mcpdiff timing: {stage} GET streams: resuming nothing {}, resuming {}",
            secs(&self.listening),
            secs(&self.resuming)
        );
    }
}
