//! Shrinking speed: time from a typical finding to its minimal case. The target is the pure
//! mutant (`respond_mutant`), so this measures the candidate loop (candidates, judge, check)
//! without the network; over loopback each accepted or rejected candidate adds one request.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use mcpdiff::runner::shrink::{self, ShrinkBudget};
use mcpdiff_oracle::reference::{mutant, respond_mutant, to_observation};
use mcpdiff_oracle::{check, judge, Case, Observation, Surface};
use std::hint::black_box;
use std::time::Duration;

/// Mutants with typical findings: a header check, a body/header mirror, a codec.
const MUTANTS: [&str; 3] = ["origin-unchecked", "mcp-method-prefix", "no-base64-decode"];

/// The first generated case (seed 1) on which `name` breaks its rule.
fn first_finding(name: &str, surface: &Surface, cases: &[Case]) -> Option<(Case, Observation)> {
    let rule = mutant(name)?.rule;
    cases.iter().find_map(|c| {
        let obs = to_observation(&respond_mutant(name, c, surface));
        let hit = check(&judge(c, surface), &obs)
            .iter()
            .any(|f| f.rule == rule.0);
        hit.then(|| (c.clone(), obs))
    })
}

fn shrinking(c: &mut Criterion) {
    let surface = common::surface();
    let cases = common::runner_cases(&surface, 3000);
    let budget = ShrinkBudget::default();
    let mut g = c.benchmark_group("shrink");
    for name in MUTANTS {
        let Some(m) = mutant(name) else { continue };
        let Some((case, obs)) = first_finding(name, &surface, &cases) else {
            eprintln!("shrink bench: no finding for {name} in 3000 cases; skipped");
            continue;
        };
        let shrink_once = || {
            futures::executor::block_on(shrink::shrink(
                case.clone(),
                obs.clone(),
                m.rule,
                &surface,
                budget,
                |cand| {
                    let o = to_observation(&respond_mutant(name, &cand, &surface));
                    async move { o }
                },
            ))
        };
        let (small, _, requests) = shrink_once();
        eprintln!(
            "shrink bench: {name}: {} -> {} bytes in {requests} target calls",
            shrink::size(&case),
            shrink::size(&small)
        );
        g.bench_function(name, |b| b.iter(|| black_box(shrink_once())));
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = shrinking
}
criterion_main!(benches);
