//! `mcpdiff bench` (hidden): the measurements `benches/side_by_side.sh` needs that neither
//! criterion nor `mcpdiff run` prints as one line a script can read.
//!
//! - `mcpdiff bench judge`: Verdicts per second on one thread over the runner's own case mix
//!   (the same work criterion's `oracle/judge` bench does, as a `key=value` line);
//! - `mcpdiff bench gen`: cases per second of the runner's generator on one thread;
//! - `mcpdiff bench mutants`: every mutant served over loopback, one `mcpdiff run` each with
//!   the CLI's default settings, and when its named rule first failed (`Tally::
//!   first_failed_at`), then the median and the max.
//!
//! Output lines are `key=value` pairs separated by spaces, one record per line, so a shell
//! script can `grep` and `sed` them without a JSON parser.

use super::exit;
use mcpdiff::runner::{self, prepare::prepare, shrink::ShrinkBudget, PropsGenerator, Quiet};
use mcpdiff::serve::{spawn, Variant};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::reference::mutants::hidden_by_http_parsers;
use mcpdiff_oracle::reference::{mutant, probes::probe_cases, MUTANTS};
use mcpdiff_oracle::{fixture, judge};
use mcpdiff_props::gen::CaseGen;
use std::hint::black_box;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Verdicts per second of `judge` on one thread.
    Judge {
        /// Seconds to measure.
        #[arg(long, default_value_t = 3.0)]
        secs: f64,
        /// Slices the time is cut into; the median slice's rate is the figure.
        #[arg(long, default_value_t = 7)]
        rounds: usize,
        /// How many of the runner's cases (seed 1, from the first) are judged round and
        /// round. The figure is taken at the default, 4096, whose bytes outgrow a core's L2
        /// cache: each Verdict pays the first touch of its case. A few hundred fit in L2 and
        /// show the judge on warm data (docs/PERFORMANCE.md).
        #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..=65536))]
        cases: u32,
    },
    /// Cases per second of the runner's generator (`CaseGen`) on one thread.
    Gen {
        /// Seconds to measure.
        #[arg(long, default_value_t = 3.0)]
        secs: f64,
    },
    /// Time to the first finding of each mutant's named rule, default `run` settings.
    Mutants {
        /// Seed of every run (the CLI's default is the clock; fixed here to be repeatable).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop generating after this many seconds per mutant (the target is 5 s).
        #[arg(long, default_value_t = 10)]
        max_time: u64,
        /// Only these mutants (comma-separated; default: all).
        #[arg(long, value_delimiter = ',')]
        only: Option<Vec<String>>,
    },
}

pub fn run(args: Args) -> ExitCode {
    match args.what {
        What::Judge {
            secs,
            rounds,
            cases,
        } => judge_rate(secs, rounds, cases),
        What::Gen { secs } => gen_rate(secs),
        What::Mutants {
            seed,
            max_time,
            only,
        } => {
            // a misspelt name would silently measure nothing: refuse it
            if let Some(unknown) = only.iter().flatten().find(|n| mutant(n).is_err()) {
                return exit::fail_in(
                    "bench",
                    &format!(
                        "no mutant named '{unknown}' (`mcpdiff serve --list-mutants` names them)"
                    ),
                );
            }
            match exit::runtime() {
                Ok(rt) => rt.block_on(mutants(seed, Duration::from_secs(max_time), only)),
                Err(e) => exit::fail_in("bench", &e),
            }
        }
    }
}

/// Judge the runner's first `count` cases (seed 1; 4096 unless told) round and round for
/// `secs` on this thread, in `rounds` equal slices.
///
/// `verdicts_per_second` is the median slice's CPU-time rate: on this kind of shared 2-core
/// machine one slice now and then runs at half speed (the core's clock, a neighbour's cache),
/// and a median of several slices moves far less between runs than one long average does.
/// The min and max slices are printed beside it so the spread stays visible.
fn judge_rate(secs: f64, rounds: usize, count: u32) -> ExitCode {
    let surface = fixture::surface();
    let gen = CaseGen::new(&surface);
    let cases: Vec<_> = (0..u64::from(count)).map(|i| gen.case(1, i)).collect();
    let rounds = rounds.clamp(1, 50);
    let slice = Duration::from_secs_f64(secs.clamp(0.1, 60.0) / rounds as f64);
    let mut rates = Vec::with_capacity(rounds);
    let (mut judged, mut wall, mut cpu) = (0u64, 0.0, 0.0);
    for _ in 0..rounds {
        let start = Instant::now();
        let cpu_start = thread_cpu_secs();
        let mut n = 0u64;
        while start.elapsed() < slice {
            for c in &cases {
                black_box(judge(black_box(c), &surface));
            }
            n += cases.len() as u64;
        }
        let w = start.elapsed().as_secs_f64();
        // CPU time of this thread: on a busy machine the wall clock also counts the time
        // other processes had the core, which says nothing about the judge
        let c = match (cpu_start, thread_cpu_secs()) {
            (Some(a), Some(b)) if b > a => b - a,
            _ => w,
        };
        rates.push(n as f64 / c);
        judged += n;
        wall += w;
        cpu += c;
    }
    rates.sort_by(f64::total_cmp);
    // (`rounds` is at least 1, so `rates` is never empty and these indexes are in range)
    let median = rates[rates.len() / 2];
    println!(
        "judge verdicts={judged} verdicts_per_second={median:.0} min_round={:.0} max_round={:.0} \
         rounds={rounds} cases={count} mean_verdicts_per_second={:.0} wall_verdicts_per_second={:.0} \
         cpu_secs={cpu:.2} wall_secs={wall:.2}",
        rates[0],
        rates[rates.len() - 1],
        judged as f64 / cpu,
        judged as f64 / wall
    );
    ExitCode::SUCCESS
}

/// Generate the fixture surface's cases (seed 1, fresh indices) for `secs` on this thread.
fn gen_rate(secs: f64) -> ExitCode {
    let gen = CaseGen::new(&fixture::surface());
    let budget = Duration::from_secs_f64(secs.clamp(0.1, 60.0));
    let start = Instant::now();
    let cpu_start = thread_cpu_secs();
    let mut made = 0u64;
    while start.elapsed() < budget {
        for _ in 0..1024 {
            black_box(gen.case(1, made));
            made += 1;
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, thread_cpu_secs()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    };
    println!(
        "gen cases={made} cases_per_second={:.0} us_per_case={:.2} cpu_secs={cpu:.2} wall_secs={wall:.2}",
        made as f64 / cpu,
        cpu * 1e6 / made as f64
    );
    ExitCode::SUCCESS
}

/// CPU seconds of the calling thread (Linux `/proc`; `None` elsewhere): the scheduler's
/// count of nanoseconds on a CPU (`schedstat`) where the kernel keeps it, else user + system
/// time in clock ticks (`stat`: 10 ms steps, 5% of a 200 ms slice).
fn thread_cpu_secs() -> Option<f64> {
    schedstat_secs().or_else(stat_secs)
}

/// The first field of `/proc/thread-self/schedstat`: nanoseconds the thread ran.
fn schedstat_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// User + system CPU seconds of the calling thread, in clock ticks.
fn stat_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // fields after the parenthesized command name; utime and stime are the 12th and 13th
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split(' ');
    let utime: f64 = fields.nth(11)?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    // clock ticks: USER_HZ is 100 on every Linux architecture mcpdiff builds for
    Some((utime + stime) / 100.0)
}

/// One run per mutant (its own in-process server), with `mcpdiff run`'s defaults.
async fn mutants(seed: u64, max_time: Duration, only: Option<Vec<String>>) -> ExitCode {
    let defaults = RunDefaults::of_cli();
    let mut found: Vec<f64> = Vec::new();
    let mut missed = 0usize;
    let all_start = Instant::now();
    for m in MUTANTS {
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|n| n == m.name))
        {
            continue;
        }
        if hidden_by_http_parsers(m) {
            println!(
                "mutant={} rule={} status=excluded reason=invisible-over-http",
                m.name, m.rule
            );
            continue;
        }
        let server = match spawn(Variant::Mutant(m), SocketAddr::from(([127, 0, 0, 1], 0))).await {
            Ok(s) => s,
            Err(e) => {
                return exit::fail_in("bench", &format!("cannot start mutant {}: {e}", m.name));
            }
        };
        let client = Client::new(defaults.limits.clone());
        let t0 = Instant::now();
        let prepared = match prepare(m.name, &server.url, &client, &[]).await {
            Ok(p) => p,
            Err(e) => {
                server.shutdown().await;
                return exit::fail_in("bench", &e.to_string());
            }
        };
        let discovery = t0.elapsed();
        let cfg = defaults.config(seed, max_time);
        let result = runner::run(
            vec![prepared.target],
            &PropsGenerator::default(),
            &cfg,
            &Quiet,
        )
        .await;
        server.shutdown().await;
        let tally = result.targets.first().map(|t| &t.tally);
        let first_any = tally.and_then(|t| t.first_failed_at.values().min().copied());
        let named = tally.and_then(|t| t.first_failed_at.get(&m.rule).copied());
        // time from the start of discovery: what a user waits for after pressing enter
        let ms = |d: Option<Duration>| {
            d.map_or("none".to_string(), |d| {
                format!("{:.1}", (discovery + d).as_secs_f64() * 1000.0)
            })
        };
        match named {
            Some(d) => found.push((discovery + d).as_secs_f64()),
            None => missed += 1,
        }
        println!(
            "mutant={} rule={} status={} first_finding_ms={} named_rule_ms={} \
             discovery_ms={:.1} run_cases={} run_secs={:.2}",
            m.name,
            m.rule,
            if named.is_some() { "caught" } else { "missed" },
            ms(first_any),
            ms(named),
            discovery.as_secs_f64() * 1000.0,
            result.cases,
            result.elapsed.as_secs_f64(),
        );
    }
    found.sort_by(f64::total_cmp);
    let median = match found.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => found[n / 2],
        n => (found[n / 2 - 1] + found[n / 2]) / 2.0,
    };
    let max = found.last().copied().unwrap_or(f64::NAN);
    println!(
        "summary caught={} missed={missed} median_ms={:.1} max_ms={:.1} all_found_ms={:.1} \
         wall_secs={:.1}",
        found.len(),
        median * 1000.0,
        max * 1000.0,
        max * 1000.0,
        all_start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// The settings `mcpdiff run URL` uses when given no flags (src/cmd/run.rs), so the mutant
/// timings are what a user gets.
struct RunDefaults {
    limits: Limits,
    cases: u64,
    concurrency: usize,
    shrink_requests: usize,
}

impl RunDefaults {
    fn of_cli() -> RunDefaults {
        RunDefaults {
            limits: Limits {
                total: Duration::from_millis(5000),
                ..Limits::default()
            },
            cases: 2000,
            concurrency: 8,
            shrink_requests: 200,
        }
    }

    fn config(&self, seed: u64, max_time: Duration) -> runner::RunConfig {
        runner::RunConfig {
            cases: self.cases,
            seed,
            max_time,
            rate: None,
            concurrency: self.concurrency,
            shrink: ShrinkBudget {
                max_requests: self.shrink_requests,
                ..ShrinkBudget::default()
            },
            max_disagreements: 20,
            probes: probe_cases(&fixture::surface()),
            shard: runner::Shard::WHOLE,
        }
    }
}
