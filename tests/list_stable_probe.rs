//! The list probe (TOOLS-LIST-STABLE, RES-LIST-STABLE, PROMPTS-LIST-STABLE; DEVIATIONS.md
//! D-150..D-152) over real loopback HTTP: the reference lists the same set on fresh
//! connections and after another request on a reused one, each `*-list-side-effect` mutant
//! does not and is caught on its own rule alone, the null server decides nothing, and after a
//! run the judgements reach the report.

mod common;

use common::probe_run::{report_after, ConnectionProbe};
use mcpdiff::auth::AuthResult;
use mcpdiff::runner::list_stable_probe;
use mcpdiff::serve::{spawn, spawn_with, RunningServer, Variant};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::list_stable::ListKind;
use std::net::SocketAddr;

async fn start(v: Variant) -> RunningServer {
    spawn(v, SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("server starts")
}

/// The rules judged, and the rules failed, by one probe of `v`.
async fn judged(v: Variant) -> (Vec<String>, Vec<String>) {
    let s = start(v).await;
    let (judged, sent) = probe(&s, &fixture::surface()).await;
    assert_eq!(sent, 12, "{v:?}");
    s.shutdown().await;
    rules_of(&judged)
}

/// One probe of the server `s`, whose surface is `surface`.
async fn probe(s: &RunningServer, surface: &mcpdiff_oracle::Surface) -> (Vec<AuthResult>, u64) {
    let client = Client::new(Limits::default());
    let e = Endpoint::parse(&s.url).expect("url");
    list_stable_probe::probe(&client, &e, surface).await
}

/// The rules judged and the rules failed.
fn rules_of(judged: &[AuthResult]) -> (Vec<String>, Vec<String>) {
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

/// A server that lists its tools two a page (`serve --page-size 2`): each reading of the
/// list follows its cursors, the reference passes, and each side-effect mutant (which leaves
/// out the first item of every page on a connection that carried the other request) is still
/// caught on its own rule alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_served_in_pages_is_read_whole_and_judged() {
    let paged = fixture::paged_surface();
    let tool_pages = fixture::surface().tools.len().div_ceil(fixture::PAGE_SIZE) as u64;
    assert!(tool_pages > 1);
    for v in [Variant::Reference]
        .into_iter()
        .chain(ListKind::ALL.map(Variant::ListSideEffect))
    {
        let s = spawn_with(v, SocketAddr::from(([127, 0, 0, 1], 0)), paged.clone())
            .await
            .expect("server starts");
        let (judged, sent) = probe(&s, &paged).await;
        s.shutdown().await;
        // the tools read in pages three times: (pages - 1) requests more each time
        assert_eq!(sent, 12 + 3 * (tool_pages - 1), "{v:?}");
        let (all, failed) = rules_of(&judged);
        assert_eq!(
            all,
            [
                "TOOLS-LIST-STABLE",
                "RES-LIST-STABLE",
                "PROMPTS-LIST-STABLE"
            ],
            "{v:?}"
        );
        match v {
            Variant::ListSideEffect(k) => assert_eq!(failed, [k.rule().0], "{v:?}"),
            _ => assert!(failed.is_empty(), "{failed:?}"),
        }
        // a finding's reproducer resends the tools' pages as read: A's and C's each alone,
        // B's after the call on one connection
        if let Some(j) = judged
            .iter()
            .find(|j| j.finding.is_some() && j.rule.0 == "TOOLS-LIST-STABLE")
        {
            let per_connection: Vec<usize> = j.connections.iter().map(Vec::len).collect();
            let pages = tool_pages as usize;
            let mut want = vec![1; pages];
            want.push(1 + pages);
            want.extend(vec![1; pages]);
            assert_eq!(per_connection, want);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_run_the_judgements_reach_the_report() {
    let rep = report_after(
        Variant::ListSideEffect(ListKind::Tools),
        ConnectionProbe::ListStable,
    )
    .await;
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
}
