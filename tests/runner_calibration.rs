//! Calibration of the whole loop over real loopback HTTP: the runner finds nothing on the
//! reference server, scores the null server 0, finds every mutant's rule, gives the same
//! findings for the same seed, and finishes on hostile targets within its time limit.

use mcpdiff::baseline::Baseline;
use mcpdiff::report::{self, RunReport};
use mcpdiff::runner::{
    self, prepare::prepare, shrink::ShrinkBudget, PropsGenerator, Quiet, RunConfig,
};
use mcpdiff::serve::{spawn, RunningServer, Variant};
use mcpdiff::transport::{sequence_reproducer, Client, Endpoint, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::mutants::{
    hidden_by_http_parsers, NO_BASE64_DECODE, ORIGIN_UNCHECKED,
};
use mcpdiff_oracle::reference::probes::probe_cases;
use mcpdiff_oracle::reference::MUTANTS;
use std::net::SocketAddr;
use std::time::Duration;

fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

fn config(cases: u64, seed: u64, with_probes: bool) -> RunConfig {
    RunConfig {
        shrink: ShrinkBudget {
            max_requests: 40,
            max_time: Duration::from_secs(5),
            max_time_per_target: Duration::from_secs(20),
            deadline: None,
        },
        probes: if with_probes {
            probe_cases(&fixture::surface())
        } else {
            Vec::new()
        },
        ..RunConfig::new(cases, seed, Duration::from_secs(120))
    }
}

async fn run_against(urls: &[(String, String)], cfg: &RunConfig, limits: Limits) -> RunReport {
    let client = Client::new(limits);
    let mut targets = Vec::new();
    for (name, url) in urls {
        let p = prepare(name, url, &client, &[])
            .await
            .expect("target prepares");
        targets.push(p.target);
    }
    let result = runner::run(targets, &PropsGenerator::default(), cfg, &Quiet).await;
    report::build(&result, cfg, &Baseline::default(), &|sent, u| {
        Endpoint::parse(u)
            .map(|e| sequence_reproducer(sent, &e, &Default::default(), &Default::default()))
            .unwrap_or_default()
    })
}

async fn start(variants: Vec<(String, Variant)>) -> (Vec<RunningServer>, Vec<(String, String)>) {
    let mut servers = Vec::new();
    let mut urls = Vec::new();
    for (name, v) in variants {
        // (the page mutants are served in pages: `Variant::default_surface`)
        let s = spawn(v, loopback()).await.expect("server starts");
        urls.push((name, s.url.clone()));
        servers.push(s);
    }
    (servers, urls)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reference_clean_null_zero() {
    let (servers, urls) = start(vec![
        ("reference".into(), Variant::Reference),
        ("null".into(), Variant::Null),
    ])
    .await;
    let rep = run_against(&urls, &config(2000, 11, true), Limits::default()).await;
    let reference = &rep.targets[0];
    assert!(
        reference.findings.is_empty(),
        "reference findings: {:#?}",
        reference
            .findings
            .iter()
            .map(|f| (&f.rule, &f.observed, &f.reproducer))
            .collect::<Vec<_>>()
    );
    assert_eq!(reference.score, 1.0);
    assert!(
        reference.passed.len() >= 40,
        "passed: {:?}",
        reference.passed
    );
    let null = &rep.targets[1];
    assert_eq!(null.score, 0.0);
    assert!(null.blocking);
    for s in servers {
        s.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_mutant_is_caught_on_its_rule() {
    let mut variants = vec![("reference".to_string(), Variant::Reference)];
    for m in MUTANTS {
        if hidden_by_http_parsers(m) {
            continue;
        }
        variants.push((m.name.to_string(), Variant::Mutant(m)));
    }
    let (servers, urls) = start(variants).await;
    let mut cfg = config(100, 3, true);
    cfg.shrink.max_requests = 5;
    let rep = run_against(&urls, &cfg, Limits::default()).await;
    let mut missed = Vec::new();
    for (t, m) in rep
        .targets
        .iter()
        .skip(1)
        .zip(MUTANTS.iter().filter(|m| !hidden_by_http_parsers(m)))
    {
        assert_eq!(t.name, m.name);
        if !t.findings.iter().any(|f| f.rule == m.rule.0) {
            missed.push((
                m.name,
                m.rule.0,
                t.findings.iter().map(|f| f.rule).collect::<Vec<_>>(),
            ));
        }
    }
    assert!(
        missed.is_empty(),
        "mutants not caught on their rule: {missed:#?}"
    );
    assert!(rep.targets[0].findings.is_empty());
    for s in servers {
        s.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_seed_same_findings() {
    let (servers, urls) = start(vec![
        ("m1".into(), Variant::Mutant(&NO_BASE64_DECODE)),
        ("m2".into(), Variant::Mutant(&ORIGIN_UNCHECKED)),
    ])
    .await;
    let key = |r: &RunReport| {
        r.targets
            .iter()
            .flat_map(|t| {
                t.findings
                    .iter()
                    .map(move |f| (t.name.clone(), f.rule, f.case.clone()))
            })
            .collect::<Vec<_>>()
    };
    let a = run_against(&urls, &config(400, 7, false), Limits::default()).await;
    let b = run_against(&urls, &config(400, 7, false), Limits::default()).await;
    assert!(!key(&a).is_empty());
    assert_eq!(key(&a), key(&b));
    for s in servers {
        s.shutdown().await;
    }
}
