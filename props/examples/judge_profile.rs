//! A driver for `valgrind --tool=callgrind` / `--tool=dhat`: judges the runner's generated
//! cases (seed 1, the same 4096 as `judge_speed`) `ROUNDS` times and nothing else, so
//! instructions per Verdict read straight off the judge's inclusive cost
//! (`--toggle-collect='*judge_and_drop'`, which includes dropping it), divided by 4096 x ROUNDS.
//!
//! Run: `valgrind --tool=callgrind --toggle-collect='*judge_and_drop' \
//!       target/release/examples/judge_profile`

use mcpdiff_oracle::{fixture, judge, Case, Surface};
use mcpdiff_props::gen::{case_for, case_strategy};
use std::hint::black_box;

/// Rounds over the 4096 cases: enough to dwarf warm-up effects, few enough for valgrind.
const ROUNDS: usize = 5;

/// One Verdict, built and dropped: the unit the callgrind toggle counts (dropping is part of
/// the cost a caller pays, as in `mcpdiff bench judge`).
#[inline(never)]
fn judge_and_drop(c: &Case, surface: &Surface) {
    black_box(judge(c, surface));
}

fn main() {
    let surface = fixture::surface();
    let strategy = case_strategy(&surface);
    let runner: Vec<Case> = (0..4096).map(|i| case_for(&strategy, 1, i)).collect();
    let in_place = runner
        .iter()
        .filter(|c| mcpdiff_oracle::judge::body_read_in_place(&c.body))
        .count();
    let bytes: usize = runner.iter().map(|c| c.body.len()).sum();
    println!(
        "{} of {} bodies read in place; {} body bytes per case",
        in_place,
        runner.len(),
        bytes / runner.len()
    );
    for _ in 0..ROUNDS {
        for c in &runner {
            judge_and_drop(black_box(c), &surface);
        }
    }
    println!("{} Verdicts", ROUNDS * runner.len());
}
