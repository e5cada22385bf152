//! Generation speed: cases per second per strategy family. `runner/case_for` is the runner's
//! generator behind `case_strategy` on the fixture surface (a ChaCha RNG picks each
//! (seed, index)); the `props/*` families are the property tests' strategies (valid cases,
//! cases with planted edits, garbage, and their mix), drawn from one proptest runner.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcpdiff_props::gen::{case_for, case_strategy};
use mcpdiff_props::strategies::case::{garbage_case, mixed_case, near_valid_case, valid_case};
use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::hint::black_box;
use std::time::Duration;

const BATCH: u64 = 200;

fn family(c: &mut Criterion, name: &str, strategy: BoxedStrategy<mcpdiff_oracle::Case>) {
    let mut g = c.benchmark_group("generation");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function(name, |b| {
        let mut runner = TestRunner::deterministic();
        b.iter(|| {
            for _ in 0..BATCH {
                // strategies here do not reject; a rejection would only skip one case
                if let Ok(tree) = strategy.new_tree(&mut runner) {
                    black_box(tree.current());
                }
            }
        })
    });
    g.finish();
}

fn generation(c: &mut Criterion) {
    let surface = common::surface();
    let strategy = case_strategy(&surface);
    let mut g = c.benchmark_group("generation");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("runner/case_for", |b| {
        let mut next = 0u64;
        b.iter(|| {
            for _ in 0..BATCH {
                black_box(case_for(&strategy, 1, next));
                next += 1;
            }
        })
    });
    g.finish();
    family(c, "props/valid_case", valid_case().boxed());
    family(c, "props/near_valid_case", near_valid_case().boxed());
    family(c, "props/garbage_case", garbage_case().boxed());
    family(c, "props/mixed_case", mixed_case().boxed());
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = generation
}
criterion_main!(benches);
