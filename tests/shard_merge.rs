//! `run --shard K/N` and `mcpdiff merge`: the N shards of one seed send, together, exactly
//! the cases of the unsharded run (no case twice), and merging their reports gives the
//! unsharded run's findings (rule and failure kind per target), passed and not-observed
//! rules and scores. The cases are counted where they arrive (a recording in-process
//! target), the findings come from the pipeline against the in-process reference server and
//! mutants.

use mcpdiff::baseline::Baseline;
use mcpdiff::pipeline::{self, matrix::MAX_DISAGREEMENTS, Settings, StartOptions};
use mcpdiff::report::merge::{merge, Input};
use mcpdiff::report::RunReport;
use mcpdiff::runner::{self, PropsGenerator, Quiet, RunConfig, Sender, Shard, Target};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::reference::probes::probe_cases;
use mcpdiff_oracle::reference::{respond, to_observation};
use mcpdiff_oracle::{fixture, Case, Observation};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const SEED: u64 = 41;
const SHARDS: u64 = 3;

/// The reference server in process, remembering every case it was sent.
#[derive(Clone, Default)]
struct Recorder {
    seen: Arc<Mutex<Vec<Case>>>,
}

impl Sender for Recorder {
    async fn send(&self, case: Case) -> Observation {
        self.send_ref(&case).await
    }

    async fn send_ref(&self, case: &Case) -> Observation {
        self.seen.lock().expect("not poisoned").push(case.clone());
        to_observation(&respond(case, &fixture::surface()))
    }
}

/// The cases one run (of `shard`) sent, counted by their JSON text.
async fn cases_sent(cases: u64, shard: Shard) -> (BTreeMap<String, u64>, u64) {
    let rec = Recorder::default();
    let target = Target {
        name: "reference".into(),
        url: "inproc://reference".into(),
        sender: rec.clone(),
        surface: fixture::surface(),
        gen_surface: fixture::surface(),
        notes: Vec::new(),
    };
    let cfg = RunConfig {
        probes: probe_cases(&fixture::surface()),
        shard,
        ..RunConfig::new(cases, SEED, Duration::from_secs(120))
    };
    let result = runner::run(vec![target], &PropsGenerator::default(), &cfg, &Quiet).await;
    assert!(!result.stopped_by_time, "shard {shard:?} ran out of time");
    assert!(
        result.targets[0].findings.is_empty(),
        "the reference breaks no rule"
    );
    let mut counted = BTreeMap::new();
    for c in rec.seen.lock().expect("not poisoned").iter() {
        let text = serde_json::to_string(c).expect("a case serializes");
        *counted.entry(text).or_insert(0u64) += 1;
    }
    (counted, result.cases)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shards_send_exactly_the_cases_of_the_unsharded_run() {
    let began = Instant::now();
    let cases = 500;
    let (whole, whole_cases) = cases_sent(cases, Shard::WHOLE).await;
    let probes = probe_cases(&fixture::surface()).len() as u64;
    assert!(
        probes > 0 && whole_cases > cases,
        "probes go first: {whole_cases}"
    );
    let mut union: BTreeMap<String, u64> = BTreeMap::new();
    let mut per_shard = Vec::new();
    for index in 1..=SHARDS {
        let shard = Shard {
            index,
            count: SHARDS,
        };
        let (sent, n) = cases_sent(cases, shard).await;
        per_shard.push(n);
        for (c, k) in sent {
            *union.entry(c).or_insert(0) += k;
        }
    }
    // every case as often as the unsharded run sent it: the same cases, none sent twice
    assert_eq!(per_shard.iter().sum::<u64>(), whole_cases, "{per_shard:?}");
    assert_eq!(union, whole);
    // shares differ by at most one case
    let (lo, hi) = (per_shard.iter().min(), per_shard.iter().max());
    assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{per_shard:?}");
    eprintln!(
        "cases per shard {per_shard:?} of {whole_cases} ({probes} probes), {:.1} s",
        began.elapsed().as_secs_f64()
    );
}

/// Per target: (rule, failure kind) of every finding, passed rules, not-observed rules,
/// score.
type Summary = BTreeMap<String, (BTreeSet<(String, String)>, Vec<String>, Vec<String>, f64)>;

fn summary(r: &RunReport) -> Summary {
    r.targets
        .iter()
        .map(|t| {
            let findings = t
                .findings
                .iter()
                .map(|f| (f.rule.to_string(), f.kind.clone()))
                .collect();
            let not_observed = t.not_observed.iter().map(|n| n.rule.to_string()).collect();
            (
                t.name.clone(),
                (findings, t.passed.clone(), not_observed, t.score),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn merging_the_shard_reports_gives_the_unsharded_findings() {
    let began = Instant::now();
    let served = fixture::surface();
    let plan = pipeline::plan(&[], None, true, None, None);
    let opts = StartOptions {
        mutants: None,
        served_surface: &served,
        target_env: &[],
        has_user_urls: true,
    };
    let started = pipeline::start(&plan, &opts, &|_| {})
        .await
        .expect("in-process servers start");
    let run = |shard: Shard| {
        let specs = started.specs.clone();
        async move {
            let settings = Settings {
                max_time: Duration::from_secs(150),
                shard,
                ..Settings::new(Client::new(Limits::default()), 240, SEED)
            };
            let never = std::future::pending::<()>();
            let m = pipeline::run_matrix(&specs, &settings, &Quiet, never)
                .await
                .expect("not interrupted");
            assert!(!m.result.stopped_by_time, "shard {shard:?} ran out of time");
            m.report(&Baseline::default(), &settings.client)
        }
    };
    let whole = run(Shard::WHOLE).await;
    let mut inputs = Vec::new();
    // out of order on purpose: merge sorts them
    for index in (1..=SHARDS).rev() {
        let shard = Shard {
            index,
            count: SHARDS,
        };
        let report = run(shard).await;
        assert_eq!(report.shard, Some(shard));
        inputs.push(Input {
            name: format!("r{index}.json"),
            report,
        });
    }
    started.stop().await;
    let shard_cases: Vec<u64> = inputs.iter().map(|i| i.report.stats.cases).collect();
    let shard_findings: Vec<usize> = inputs
        .iter()
        .map(|i| i.report.targets.iter().map(|t| t.findings.len()).sum())
        .collect();
    let merged = merge(inputs, MAX_DISAGREEMENTS).expect("the shards of one run merge");
    assert_eq!(merged.stats.cases, whole.stats.cases, "{shard_cases:?}");
    assert_eq!(merged.seed, SEED);
    let (want, got) = (summary(&whole), summary(&merged));
    assert_eq!(got, want);
    let findings: usize = want.values().map(|v| v.0.len()).sum();
    assert!(
        findings >= 4,
        "the mutants are caught: {findings} findings in {want:?}"
    );
    for t in &merged.targets {
        let w = whole
            .targets
            .iter()
            .find(|x| x.name == t.name)
            .expect("same targets");
        assert_eq!(t.cases, w.cases, "{}", t.name);
        assert_eq!(t.blocking, w.blocking, "{}", t.name);
    }
    eprintln!(
        "{} cases split {shard_cases:?}, {findings} findings (per shard {shard_findings:?}), \
         {:.1} s",
        whole.stats.cases,
        began.elapsed().as_secs_f64()
    );
}

fn report(seed: u64, shard: Option<Shard>) -> RunReport {
    let text = include_str!("data/run-seed1.json");
    let mut r: RunReport = serde_json::from_str(text).expect("the fixture parses");
    r.seed = seed;
    r.shard = shard;
    r
}

#[test]
fn merge_refuses_what_is_not_every_shard_of_one_run() {
    let s = |index, count| Some(Shard { index, count });
    let input = |name: &str, r| Input {
        name: name.into(),
        report: r,
    };
    let cases: Vec<(Vec<Input>, &str)> = vec![
        (
            vec![
                input("a", report(1, s(1, 2))),
                input("b", report(2, s(2, 2))),
            ],
            "same --seed",
        ),
        (
            vec![
                input("a", report(1, s(1, 2))),
                input("b", report(1, s(2, 3))),
            ],
            "same N",
        ),
        (
            vec![
                input("a", report(1, s(1, 2))),
                input("b", report(1, s(1, 2))),
            ],
            "given twice",
        ),
        (vec![input("a", report(1, s(1, 3)))], "2/3, 3/3 missing"),
        (vec![], "nothing to merge"),
    ];
    for (inputs, says) in cases {
        let e = merge(inputs, 20).expect_err(says).to_string();
        assert!(e.contains(says) && !e.contains('\n'), "{says}: {e}");
    }
    let mut other = report(1, s(2, 2));
    other.schema = "mcpdiff-run/2".into();
    let e = merge(vec![input("a", report(1, s(1, 2))), input("b", other)], 20)
        .expect_err("schemas differ")
        .to_string();
    assert!(e.contains("schema"), "{e}");
    // one unsharded report merges into itself
    let one = merge(vec![input("a", report(1, None))], 20).expect("a whole run");
    assert_eq!(summary(&one), summary(&report(1, None)));
}
