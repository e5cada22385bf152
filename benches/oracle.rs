//! Oracle speed on one core: `judge` (Verdicts per second) over the runner's generated cases
//! and over the probe set, and `check` (Observations judged per second) over a fixed mix of
//! generated cases answered by the reference server and three mutants. No I/O: this is the
//! ceiling the network loop can approach.

mod common;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use mcpdiff_oracle::{check, judge, Case};
use std::hint::black_box;
use std::time::Duration;

fn oracle(c: &mut Criterion) {
    let surface = common::surface();
    let cases = common::runner_cases(&surface, 2000);
    let mix = common::judged_mix(&surface, &cases[..500]);

    let mut g = c.benchmark_group("oracle");
    g.throughput(Throughput::Elements(cases.len() as u64));
    g.bench_function("judge", |b| {
        b.iter(|| {
            for case in &cases {
                black_box(judge(black_box(case), &surface));
            }
        })
    });
    // the same cases copied into one fresh run of the heap, in order: `judge` above reads
    // each case where the generator left it, among its own temporaries, and pays a cache miss
    // on nearly every case's header fields; the difference between the two is the memory
    // layout's, not the judge's (docs/PERFORMANCE.md)
    let packed: Vec<Case> = cases.to_vec();
    g.bench_function("judge(cases packed in order)", |b| {
        b.iter(|| {
            for case in &packed {
                black_box(judge(black_box(case), &surface));
            }
        })
    });
    // as the runner judges: each case right after it is generated (its bytes still in the
    // cache), only the judging timed
    let strategy = mcpdiff_props::gen::case_strategy(&surface);
    g.throughput(Throughput::Elements(1));
    let mut i = 0u64;
    g.bench_function("judge(each case just generated)", |b| {
        b.iter_batched(
            || {
                i = (i + 1) % 2000;
                mcpdiff_props::gen::case_for(&strategy, 1, i)
            },
            |case| judge(black_box(&case), &surface),
            BatchSize::PerIteration,
        )
    });
    let probes: Vec<_> = mcpdiff_oracle::reference::probes(&surface)
        .into_iter()
        .map(|p| p.case)
        .collect();
    g.throughput(Throughput::Elements(probes.len() as u64));
    g.bench_function("judge(probes)", |b| {
        b.iter(|| {
            for case in &probes {
                black_box(judge(black_box(case), &surface));
            }
        })
    });
    g.throughput(Throughput::Elements(mix.len() as u64));
    g.bench_function("check", |b| {
        b.iter(|| {
            for (verdict, obs) in &mix {
                black_box(check(black_box(verdict), black_box(obs)));
            }
        })
    });
    g.throughput(Throughput::Elements(cases.len() as u64));
    g.bench_function("judge+check(reference answer)", |b| {
        // the runner's per-answer work: judge the case, check the target's observation
        let answers: Vec<_> = cases
            .iter()
            .map(|c| {
                mcpdiff_oracle::reference::to_observation(&mcpdiff_oracle::reference::respond(
                    c, &surface,
                ))
            })
            .collect();
        b.iter(|| {
            for (case, obs) in cases.iter().zip(&answers) {
                let v = judge(case, &surface);
                black_box(check(&v, obs));
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = oracle
}
criterion_main!(benches);
