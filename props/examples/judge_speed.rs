//! `judge` (the fast reader and the rules) beside the same rules over the simple reader
//! (`read_simple`), same inputs, same process, interleaved: the runner's generated cases
//! (seed 1) and the probe set, best of 5 rounds each, with heap allocations per Verdict;
//! then `check` over the first 500 runner cases answered by the reference server and three
//! mutants. A relative figure that holds on a busy machine, beside the absolute ones of
//! `mcpdiff bench judge` and `benches/oracle.rs`.
//!
//! Run: `cargo run --release -p mcpdiff-props --example judge_speed`

use mcpdiff_oracle::judge::{judge_view, read_simple};
use mcpdiff_oracle::reference::mutants::{MCP_METHOD_PREFIX, NO_BASE64_DECODE, ORIGIN_UNCHECKED};
use mcpdiff_oracle::reference::{probes, respond, respond_mutant, to_observation};
use mcpdiff_oracle::{check, fixture, judge, Case, Observation, Surface, Verdict};
use mcpdiff_props::alloc_count::{allocations_per, CountingAllocator};
use mcpdiff_props::gen::{case_for, case_strategy};
use std::hint::black_box;
use std::time::Instant;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

type Judge = fn(&Case, &Surface) -> Verdict;

/// The rules over the simple reader's view.
fn judge_simple(case: &Case, surface: &Surface) -> Verdict {
    let mut tree = None;
    let view = read_simple(case, &mut tree);
    judge_view(&view, surface)
}

/// Allocations per Verdict of `f` over `cases`.
fn allocations(f: Judge, cases: &[Case], surface: &Surface) -> f64 {
    allocations_per(cases, |c| {
        black_box(f(c, surface));
    })
}

/// Seconds per Verdict of each of `fs` over `cases`: best of 5 rounds, the functions
/// interleaved within each round so both see the same machine load.
fn seconds(fs: [Judge; 2], cases: &[Case], surface: &Surface) -> [f64; 2] {
    let reps = 200_000 / cases.len() + 1;
    let mut best = [f64::MAX; 2];
    for _ in 0..5 {
        for (f, best) in fs.iter().zip(&mut best) {
            let t = Instant::now();
            for _ in 0..reps {
                for c in cases {
                    black_box(f(black_box(c), surface));
                }
            }
            *best = best.min(t.elapsed().as_secs_f64() / (reps * cases.len()) as f64);
        }
    }
    best
}

fn main() {
    let surface = fixture::surface();
    let strategy = case_strategy(&surface);
    let runner: Vec<Case> = (0..4096).map(|i| case_for(&strategy, 1, i)).collect();
    let probe_cases: Vec<Case> = probes(&surface).into_iter().map(|p| p.case).collect();
    for (name, cases) in [("runner cases", &runner), ("probe set", &probe_cases)] {
        let new_allocs = allocations(judge, cases, &surface);
        let old_allocs = allocations(judge_simple, cases, &surface);
        let [new, old] = seconds([judge, judge_simple], cases, &surface);
        println!(
            "{name} ({} cases): judge {:.0} Verdicts/s ({:.0} ns, {new_allocs:.2} allocations); \
             simple reader {:.0} Verdicts/s ({:.0} ns, {old_allocs:.2} allocations); {:.2}x",
            cases.len(),
            1.0 / new,
            new * 1e9,
            1.0 / old,
            old * 1e9,
            old / new
        );
    }
    let mut mix: Vec<(Verdict, Observation)> = Vec::new();
    for c in &runner[..500] {
        let v = judge(c, &surface);
        mix.push((v.clone(), to_observation(&respond(c, &surface))));
        for m in [&ORIGIN_UNCHECKED, &MCP_METHOD_PREFIX, &NO_BASE64_DECODE] {
            mix.push((v.clone(), to_observation(&respond_mutant(m, c, &surface))));
        }
    }
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..20 {
            for (v, o) in &mix {
                black_box(check(black_box(v), black_box(o)));
            }
        }
        best = best.min(t.elapsed().as_secs_f64() / (20 * mix.len()) as f64);
    }
    println!(
        "check ({} observations): {:.0} per second ({:.0} ns)",
        mix.len(),
        1.0 / best,
        best * 1e9,
    );
}
