//! The connection probe (BASE-STATELESS-NO-PRIOR, DEVIATIONS.md D-181) over real loopback
//! HTTP: the reference answers a request the same on a fresh and on a reused connection, the
//! `trusts-known-connection` mutant does not and is caught on that rule alone by the probe,
//! and after a run the judgements reach the report (reference 1.0 and clean, the mutant
//! failing the rule, the null server 0).

mod common;

use common::probe_run::{report_after, ConnectionProbe};
use mcpdiff::runner::reuse_probe;
use mcpdiff::serve::{spawn, RunningServer, Variant};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::fixture;
use std::net::SocketAddr;

async fn start(v: Variant) -> RunningServer {
    spawn(v, SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("server starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probe_tells_the_reference_from_the_connection_mutant() {
    let client = Client::new(Limits::default());
    let surface = fixture::surface();
    // (variant, pairs decided, pairs failed): the null server's `200 {}` carries no result,
    // so its pairs decide nothing
    for (v, decided, failing) in [
        (Variant::Reference, 2, 0),
        (Variant::TrustsKnownConnection, 2, 2),
        (Variant::Null, 0, 0),
    ] {
        let s = start(v).await;
        let e = Endpoint::parse(&s.url).expect("url");
        let (judged, sent) = reuse_probe::probe(&client, &e, &surface).await;
        assert_eq!(sent, 6);
        assert_eq!(judged.len(), decided, "{v:?}");
        let rules: Vec<_> = judged
            .iter()
            .filter_map(|j| j.finding.as_ref().map(|f| f.rule.clone()))
            .collect();
        assert_eq!(rules.len(), failing, "{v:?}: {rules:?}");
        assert!(
            rules.iter().all(|r| r == "BASE-STATELESS-NO-PRIOR"),
            "{rules:?}"
        );
        s.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_run_the_judgements_reach_the_report() {
    let rep = report_after(Variant::TrustsKnownConnection, ConnectionProbe::Reuse).await;
    let (reference, mutant, null) = (&rep.targets[0], &rep.targets[1], &rep.targets[2]);
    assert!(reference.findings.is_empty(), "{:?}", reference.findings);
    assert_eq!(reference.score, 1.0);
    assert!(reference
        .passed
        .iter()
        .any(|r| r == "BASE-STATELESS-NO-PRIOR"));
    assert!(mutant
        .findings
        .iter()
        .any(|f| f.rule.0 == "BASE-STATELESS-NO-PRIOR"));
    assert_eq!(null.score, 0.0);
}
