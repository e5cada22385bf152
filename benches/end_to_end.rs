//! The whole loop over loopback: generate, send over the raw transport, judge, tally,
//! against the in-process reference server (hyper) at 1, 4 and 16 cases in flight. The
//! server and the runner share this process and the machine's cores, as in `mcpdiff run`
//! with no URL.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mcpdiff::runner::prepare::prepare;
use mcpdiff::runner::shrink::ShrinkBudget;
use mcpdiff::runner::{self, PropsGenerator, Quiet, RunConfig, Target};
use mcpdiff::serve::{spawn, Variant};
use mcpdiff::transport::{Client, Limits};
use std::hint::black_box;
use std::net::SocketAddr;
use std::time::Duration;

/// Cases per iteration (each iteration is one whole run).
const CASES: u64 = 500;

fn end_to_end(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let server = rt
        .block_on(spawn(
            Variant::Reference,
            SocketAddr::from(([127, 0, 0, 1], 0)),
        ))
        .expect("reference server starts");
    let client = Client::new(Limits::default());
    let prepared = rt
        .block_on(prepare("reference", &server.url, &client, &[]))
        .expect("reference server discovered");
    let base = prepared.target;
    let generator = PropsGenerator::default();

    let mut g = c.benchmark_group("end_to_end");
    g.throughput(Throughput::Elements(CASES));
    for concurrency in [1usize, 4, 16] {
        let cfg = RunConfig {
            cases: CASES,
            seed: 1,
            max_time: Duration::from_secs(60),
            rate: None,
            concurrency,
            shrink: ShrinkBudget::default(),
            max_disagreements: 5,
            probes: Vec::new(),
            shard: mcpdiff::runner::Shard::WHOLE,
        };
        g.bench_with_input(
            BenchmarkId::new("reference", concurrency),
            &cfg,
            |b, cfg| {
                b.iter(|| {
                    let target = Target {
                        name: base.name.clone(),
                        url: base.url.clone(),
                        sender: base.sender.clone(),
                        surface: base.surface.clone(),
                        gen_surface: base.gen_surface.clone(),
                        notes: Vec::new(),
                    };
                    let result = rt.block_on(runner::run(vec![target], &generator, cfg, &Quiet));
                    black_box(result.cases)
                })
            },
        );
    }
    g.finish();
    rt.block_on(server.shutdown());
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    targets = end_to_end
}
criterion_main!(benches);
