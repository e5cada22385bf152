//! The 2025-11-25 surface end to end over loopback HTTP: `serve --dual-era` (the modern
//! reference plus the pure legacy reference behind `reference::legacy::route`) probed by the
//! revision probe through the run's own transport, as `mcpdiff run` does. The dual-era
//! reference is clean on every legacy rule; every legacy mutant is caught on its own rule and
//! on no other; the default `serve` stays modern-only.

use mcpdiff::runner::revision::{probe, RevisionEvidence, RevisionVerdict};
use mcpdiff::serve::legacy::LegacyVariant;
use mcpdiff::serve::{spawn_full, ServeOptions, Variant};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::reference::legacy::LEGACY_MUTANTS;
use mcpdiff_oracle::rules::{level_of, Level};
use mcpdiff_oracle::{fixture, Revision};
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::Duration;

/// Probe a server started with `dual_era` through the real transport; a GET stream is read
/// for 300 ms (the reference keeps it open and quiet).
async fn probe_served(dual_era: Option<LegacyVariant>) -> RevisionEvidence {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal address");
    let opts = ServeOptions {
        dual_era,
        ..ServeOptions::default()
    };
    let server = spawn_full(Variant::Reference, addr, fixture::surface(), opts)
        .await
        .expect("bind loopback");
    let limits = Limits {
        sse_max_time: Duration::from_millis(300),
        ..Limits::default()
    };
    let client = Client::new(limits);
    let endpoint = Endpoint::parse(&server.url).expect("the server's own URL");
    let ev = probe("/mcp", |c| {
        let (client, endpoint) = (&client, &endpoint);
        async move { client.send(&c, endpoint).await }
    })
    .await;
    server.shutdown().await;
    ev
}

#[tokio::test]
async fn the_dual_era_reference_is_clean_on_2025_11_25_over_http() {
    let ev = probe_served(Some(LegacyVariant::Reference)).await;
    assert_eq!(ev.verdict, RevisionVerdict::DualEra, "{ev:#?}");
    let legacy = &ev.revisions[0];
    assert_eq!(legacy.revision, Revision::V2025_11_25);
    assert!(legacy.findings.is_empty(), "{:#?}", legacy.findings);
    assert_eq!(legacy.not_determined, 0, "{ev:#?}");
    assert_eq!(legacy.score, 1.0);
    assert!(!ev.other_revision_blocking());
}

#[tokio::test]
async fn the_default_serve_stays_modern_only() {
    let ev = probe_served(None).await;
    assert_eq!(ev.verdict, RevisionVerdict::Modern, "{ev:#?}");
    assert!(ev.revisions.is_empty());
}

#[tokio::test]
async fn every_legacy_mutant_is_caught_on_its_rule_over_http() {
    let mut failures = Vec::new();
    for m in LEGACY_MUTANTS {
        let ev = probe_served(Some(LegacyVariant::Mutant(m))).await;
        let rules: BTreeSet<&str> = ev
            .revisions
            .iter()
            .flat_map(|r| &r.findings)
            .map(|f| f.rule.as_str())
            .collect();
        if rules != BTreeSet::from([m.rule.0]) {
            failures.push(format!("{} (breaks {}): {rules:?}", m.name, m.rule));
        }
        // a MUST finding of 2025-11-25 fails the run; its score is that revision's alone
        let must = matches!(level_of(m.rule), Level::Must | Level::MustNot);
        if ev.other_revision_blocking() != must {
            failures.push(format!("{}: blocking is not {must}", m.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
