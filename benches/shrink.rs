//! Shrinking speed: time from a typical finding to its minimal case. The target is the pure
//! mutant (`respond_mutant`), so this measures the candidate loop (candidates, judge, check)
//! without the network; over loopback each accepted or rejected candidate adds one request.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use mcpdiff::runner::shrink::{self, ShrinkBudget};
use mcpdiff_oracle::reference::mutants::{MCP_METHOD_PREFIX, NO_BASE64_DECODE, ORIGIN_UNCHECKED};
use mcpdiff_oracle::reference::{respond_mutant, to_observation, Mutant};
use mcpdiff_oracle::{check, judge, Case, Observation, Surface};
use std::hint::black_box;
use std::time::Duration;

/// Mutants with typical findings: a header check, a body/header mirror, a codec.
const MUTANTS: [&Mutant; 3] = [&ORIGIN_UNCHECKED, &MCP_METHOD_PREFIX, &NO_BASE64_DECODE];

/// The first generated case (seed 1) on which `m` breaks its rule.
fn first_finding(m: &Mutant, surface: &Surface, cases: &[Case]) -> Option<(Case, Observation)> {
    cases.iter().find_map(|c| {
        let obs = to_observation(&respond_mutant(m, c, surface));
        let hit = check(&judge(c, surface), &obs)
            .iter()
            .any(|f| f.rule == m.rule.0);
        hit.then(|| (c.clone(), obs))
    })
}

fn shrinking(c: &mut Criterion) {
    let surface = common::surface();
    let cases = common::runner_cases(&surface, 3000);
    let budget = ShrinkBudget::default();
    let mut g = c.benchmark_group("shrink");
    for m in MUTANTS {
        let name = m.name;
        let Some((case, obs)) = first_finding(m, &surface, &cases) else {
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
                    let o = to_observation(&respond_mutant(m, &cand, &surface));
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
