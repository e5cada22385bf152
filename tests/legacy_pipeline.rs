//! The 2025-11-25 surface through the run pipeline (as `mcpdiff run URL` drives it): the
//! dual-era reference and a dual-era server with one legacy mutant, both over loopback HTTP.
//! Each target's report keeps the two revisions apart: the modern findings are the
//! 2026-07-28 run's, the legacy ones sit in `revision.revisions` under 2025-11-25, and only
//! the mutant's rule is found there.

use mcpdiff::baseline::Baseline;
use mcpdiff::pipeline::{self, Settings, TargetSpec};
use mcpdiff::runner::revision::RevisionVerdict;
use mcpdiff::runner::Progress;
use mcpdiff::serve::legacy::LegacyVariant;
use mcpdiff::serve::{spawn_full, ServeOptions, Variant};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::reference::legacy::legacy_mutant;
use mcpdiff_oracle::{fixture, Revision};
use std::net::SocketAddr;
use std::time::Duration;

struct Quiet;
impl Progress for Quiet {}
impl pipeline::Events for Quiet {
    fn line(&self, _: &str) {}
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_reports_each_revision_apart() {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal address");
    let serve = |legacy| ServeOptions {
        dual_era: Some(legacy),
        ..ServeOptions::default()
    };
    let mutant = legacy_mutant("legacy-unknown-session-served").expect("a legacy mutant");
    let reference = spawn_full(
        Variant::Reference,
        addr,
        fixture::surface(),
        serve(LegacyVariant::Reference),
    )
    .await
    .expect("bind loopback");
    let broken = spawn_full(
        Variant::Reference,
        addr,
        fixture::surface(),
        serve(LegacyVariant::Mutant(mutant)),
    )
    .await
    .expect("bind loopback");
    let specs = vec![
        TargetSpec::user_url(&reference.url),
        TargetSpec::user_url(&broken.url),
    ];
    let limits = Limits {
        sse_max_time: Duration::from_millis(300),
        ..Limits::default()
    };
    let settings = Settings {
        concurrency: 4,
        shrink_budget: 20,
        ..Settings::new(Client::new(limits), 100, 5)
    };
    let never = std::future::pending::<()>();
    let matrix = pipeline::run_matrix(&specs, &settings, &Quiet, never)
        .await
        .expect("not interrupted");
    let rep = matrix.report(&Baseline::default(), &settings.client);
    reference.shutdown().await;
    broken.shutdown().await;

    for (url, legacy_rules) in [
        (&specs[0].url, vec![]),
        (&specs[1].url, vec![mutant.rule.0]),
    ] {
        let t = rep
            .targets
            .iter()
            .find(|t| &t.url == url)
            .expect("a report entry per target");
        // the modern side is the reference in both: no 2026-07-28 finding
        assert!(t.findings.is_empty(), "{url}: {:?}", t.findings);
        let rev = t.revision.as_ref().expect("the revision probe ran");
        assert_eq!(rev.verdict, RevisionVerdict::DualEra);
        let legacy = &rev.revisions[0];
        assert_eq!(legacy.revision, Revision::V2025_11_25);
        let mut found: Vec<&str> = legacy.findings.iter().map(|f| f.rule.as_str()).collect();
        found.dedup();
        assert_eq!(found, legacy_rules, "{url}");
        assert_eq!(rev.other_revision_blocking(), !legacy_rules.is_empty());
        // the report's per-revision entries carry the legacy outcome (its own section in
        // every renderer), not the notes
        let graded = t
            .revisions
            .iter()
            .find(|r| r.revision == Revision::V2025_11_25)
            .expect("a 2025-11-25 entry");
        assert_eq!(graded.findings.is_empty(), legacy_rules.is_empty());
    }
}
