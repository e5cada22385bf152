//! The 2025-11-25 stage finds each target's evidence by the target's name, not by position,
//! and sends its generated sequences to every prepared target that speaks 2025-11-25, the
//! ones no 2026-07-28 case goes to (a 2025-11-25-only server) included. Loopback servers:
//! a dual-era reference with one legacy mutant, a modern-only reference, and a legacy-only
//! reference (`serve --legacy-only`).

use mcpdiff::pipeline::legacy::legacy_stage;
use mcpdiff::pipeline::prepare::{prepare_all, PrepareOptions, TargetEvidence};
use mcpdiff::pipeline::{self, Settings, TargetSpec};
use mcpdiff::runner::legacy::RevisionOutcome;
use mcpdiff::runner::legacy_generated::sequence_count;
use mcpdiff::runner::Progress;
use mcpdiff::serve::legacy::LegacyVariant;
use mcpdiff::serve::{spawn_full, RunningServer, ServeOptions, Variant};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::reference::legacy::legacy_mutant;
use mcpdiff_oracle::{fixture, Revision};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

struct Quiet;
impl Progress for Quiet {}
impl pipeline::Events for Quiet {}

async fn serve(opts: ServeOptions) -> RunningServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal address");
    spawn_full(Variant::Reference, addr, fixture::surface(), opts)
        .await
        .expect("bind loopback")
}

fn settings(cases: u64) -> Settings {
    // short stream limits: the fixed sequences' GET streams are read to them
    let limits = Limits {
        sse_max_time: Duration::from_millis(300),
        ..Limits::default()
    };
    Settings {
        concurrency: 4,
        shrink_budget: 20,
        ..Settings::new(Client::new(limits), cases, 11)
    }
}

fn legacy_outcome(e: &TargetEvidence) -> Option<&RevisionOutcome> {
    e.revision
        .revisions
        .iter()
        .find(|o| o.revision == Revision::V2025_11_25)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_target_is_paired_with_its_own_evidence_whatever_the_order() {
    let mutant = legacy_mutant("legacy-unknown-session-served").expect("a legacy mutant");
    let dual = serve(ServeOptions {
        dual_era: Some(LegacyVariant::Mutant(mutant)),
        ..ServeOptions::default()
    })
    .await;
    let modern = serve(ServeOptions::default()).await;
    let dual_url = dual.url.clone();
    let specs = vec![
        TargetSpec::user_url(&dual.url),
        TargetSpec::user_url(&modern.url),
    ];
    let settings = settings(64);
    let opts = PrepareOptions {
        client: &settings.client,
        allow_tools: &[],
        toolset: None,
        revisions: &settings.revisions,
    };
    let until = Instant::now() + Duration::from_secs(60);
    let mut targets = Vec::new();
    let mut evidence = Vec::new();
    for p in prepare_all(&specs, &opts, until).await {
        let ready = p.unwrap_or_else(|u| panic!("{} not prepared: {}", u.name, u.error));
        targets.push(ready.target);
        evidence.push(ready.evidence);
    }
    // the evidence in the other order than the targets (and so, by position, each target
    // would get the other's)
    evidence.reverse();
    assert_eq!(evidence[1].name, dual_url);
    assert!(
        legacy_outcome(&evidence[0]).is_none(),
        "the modern-only one"
    );
    let lines = legacy_stage(
        &mut targets,
        &mut evidence,
        &settings,
        true,
        Instant::now() + Duration::from_secs(60),
    )
    .await;
    dual.shutdown().await;
    modern.shutdown().await;

    let outcome = legacy_outcome(&evidence[1]).expect("the dual-era target's outcome");
    assert_eq!(
        outcome.generated as u64,
        sequence_count(64),
        "{lines:#?}\n{outcome:#?}"
    );
    assert!(
        outcome
            .findings
            .iter()
            .any(|f| f.rule == "L-SHTTP-SESSION-404"),
        "{outcome:#?}"
    );
    assert!(legacy_outcome(&evidence[0]).is_none());
    // the notes land on the target the outcome belongs to
    let legacy_note = |notes: &[String]| notes.iter().any(|n| n.contains("(legacy path)"));
    assert_eq!(targets[0].name, dual_url);
    assert!(legacy_note(&targets[0].notes), "{:#?}", targets[0].notes);
    assert!(!legacy_note(&targets[1].notes), "{:#?}", targets[1].notes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_only_target_gets_generated_sequences_too() {
    let legacy_only = serve(ServeOptions {
        legacy_only: true,
        ..ServeOptions::default()
    })
    .await;
    let dual = serve(ServeOptions {
        dual_era: Some(LegacyVariant::Reference),
        ..ServeOptions::default()
    })
    .await;
    // the legacy-only one first: prepared first, yet not fuzzed
    let urls = [legacy_only.url.clone(), dual.url.clone()];
    let specs = vec![
        TargetSpec::user_url(&urls[0]),
        TargetSpec::user_url(&urls[1]),
    ];
    let settings = settings(32);
    let never = std::future::pending::<()>();
    let matrix = pipeline::run_matrix(&specs, &settings, &Quiet, never)
        .await
        .expect("not interrupted");
    legacy_only.shutdown().await;
    dual.shutdown().await;

    assert!(
        matrix.not_fuzzed.iter().any(|n| n.name == urls[0]),
        "the legacy-only target is not fuzzed"
    );
    for url in &urls {
        let e = matrix.evidence_of(url).expect("evidence");
        let outcome = legacy_outcome(e).expect("a 2025-11-25 outcome");
        assert_eq!(
            outcome.generated as u64,
            sequence_count(32),
            "{url}: {outcome:#?}"
        );
        // the reference, legacy-only or dual-era, breaks no legacy rule
        assert!(outcome.findings.is_empty(), "{url}: {outcome:#?}");
    }
}
