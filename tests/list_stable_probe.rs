//! The list probe (TOOLS-LIST-STABLE, RES-LIST-STABLE, PROMPTS-LIST-STABLE; DEVIATIONS.md
//! D-150..D-152) over real loopback HTTP: the reference lists the same set on fresh
//! connections and after another request on a reused one, each `*-list-side-effect` mutant
//! does not and is caught on its own rule alone, the null server decides nothing, and after a
//! run the judgements reach the report.

use mcpdiff::baseline::Baseline;
use mcpdiff::report;
use mcpdiff::runner::{
    self, list_stable_probe, shrink::ShrinkBudget, PropsGenerator, Quiet, RunConfig,
};
use mcpdiff::serve::{spawn, RunningServer, Variant};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::list_stable::ListKind;
use mcpdiff_oracle::reference::probes::probe_cases;
use std::net::SocketAddr;
use std::time::Duration;

async fn start(v: Variant) -> RunningServer {
    spawn(v, SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("server starts")
}

/// The rules judged, and the rules failed, by one probe of `v`.
async fn judged(v: Variant) -> (Vec<String>, Vec<String>) {
    let client = Client::new(Limits::default());
    let s = start(v).await;
    let e = Endpoint::parse(&s.url).expect("url");
    let (judged, sent) = list_stable_probe::probe(&client, &e, &fixture::surface()).await;
    assert_eq!(sent, 12, "{v:?}");
    s.shutdown().await;
    let all = judged.iter().map(|j| j.rule.0.to_string()).collect();
    let failed = judged
        .iter()
        .filter_map(|j| j.finding.as_ref().map(|f| f.rule.clone()))
        .collect();
    (all, failed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probe_decides_the_reference_and_catches_each_mutant_on_its_rule() {
    let every = [
        "TOOLS-LIST-STABLE",
        "RES-LIST-STABLE",
        "PROMPTS-LIST-STABLE",
    ];
    let (all, failed) = judged(Variant::Reference).await;
    assert_eq!(all, every);
    assert!(failed.is_empty(), "{failed:?}");
    for k in ListKind::ALL {
        let (all, failed) = judged(Variant::ListSideEffect(k)).await;
        assert_eq!(all, every, "{k:?}");
        assert_eq!(failed, [k.rule().0], "{k:?}");
    }
    // the connection mutant of BASE-STATELESS-NO-PRIOR keeps its lists
    let (_, failed) = judged(Variant::TrustsKnownConnection).await;
    assert!(failed.is_empty(), "{failed:?}");
    // the null server's `200 {}` carries no list: nothing decided
    let (all, _) = judged(Variant::Null).await;
    assert!(all.is_empty(), "{all:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_run_the_judgements_reach_the_report() {
    let servers = [
        start(Variant::Reference).await,
        start(Variant::ListSideEffect(ListKind::Tools)).await,
        start(Variant::Null).await,
    ];
    let client = Client::new(Limits::default());
    let mut targets = Vec::new();
    for (name, s) in ["reference", "mutant", "null"].iter().zip(&servers) {
        let p = runner::prepare::prepare(name, &s.url, &client, &[])
            .await
            .expect("target prepares");
        targets.push(p.target);
    }
    let cfg = RunConfig {
        shrink: ShrinkBudget {
            max_requests: 5,
            max_time: Duration::from_secs(5),
            max_time_per_target: Duration::from_secs(10),
            deadline: None,
        },
        probes: probe_cases(&fixture::surface()),
        ..RunConfig::new(20, 5, Duration::from_secs(60))
    };
    let mut result = runner::run(targets, &PropsGenerator::default(), &cfg, &Quiet).await;
    list_stable_probe::after_run(&client, &mut result).await;
    let rep = report::build(&result, &cfg, &Baseline::default(), &|_, _| String::new());
    let (reference, mutant, null) = (&rep.targets[0], &rep.targets[1], &rep.targets[2]);
    assert!(reference.findings.is_empty(), "{:?}", reference.findings);
    assert_eq!(reference.score, 1.0);
    for r in [
        "TOOLS-LIST-STABLE",
        "RES-LIST-STABLE",
        "PROMPTS-LIST-STABLE",
    ] {
        assert!(reference.passed.iter().any(|p| p == r), "{r}");
    }
    assert!(mutant
        .findings
        .iter()
        .any(|f| f.rule.0 == "TOOLS-LIST-STABLE"));
    assert!(!mutant
        .findings
        .iter()
        .any(|f| f.rule.0 == "RES-LIST-STABLE" || f.rule.0 == "PROMPTS-LIST-STABLE"));
    assert_eq!(null.score, 0.0);
    for s in servers {
        s.shutdown().await;
    }
}
