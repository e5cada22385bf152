//! The prepare stage's fixed 2025-11-25 sequences read a GET stream that resumes nothing
//! until it stays quiet (`Limits::sse_quiet`), not to `sse_max_time`
//! (`runner::legacy::run`), and decide the same: with a 20 s SSE time limit, preparing the
//! dual-era reference (whose listening GET stream stays open and silent) and each legacy
//! mutant served dual-era takes well under that limit, the reference stays clean and every
//! mutant is still caught on its own rule and on no other (as `tests/legacy_http.rs` finds
//! with full reads of 300 ms).

use mcpdiff::pipeline::prepare::{prepare_one, PrepareOptions};
use mcpdiff::pipeline::TargetSpec;
use mcpdiff::serve::legacy::LegacyVariant;
use mcpdiff::serve::{spawn_full, ServeOptions, Variant};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::reference::legacy::LEGACY_MUTANTS;
use mcpdiff_oracle::{fixture, Revision};
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Far above what a quiet read needs (300 ms per silent GET).
const SSE_LIMIT: Duration = Duration::from_secs(20);
/// Preparing one target within this shows the silent GET was not read to `SSE_LIMIT`.
const WITHIN: Duration = Duration::from_secs(10);

/// The legacy rules preparing a dual-era server with `variant` found, and how long it took.
async fn prepare_served(variant: LegacyVariant) -> (BTreeSet<String>, usize, Duration) {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal address");
    let opts = ServeOptions {
        dual_era: Some(variant),
        ..ServeOptions::default()
    };
    let server = spawn_full(Variant::Reference, addr, fixture::surface(), opts)
        .await
        .expect("bind loopback");
    let limits = Limits {
        sse_max_time: SSE_LIMIT,
        total: SSE_LIMIT + Duration::from_secs(5),
        ..Limits::default()
    };
    let client = Client::new(limits);
    let opts = PrepareOptions {
        client: &client,
        allow_tools: &[],
        toolset: None,
        revisions: &[Revision::V2026_07_28, Revision::V2025_11_25],
    };
    let began = Instant::now();
    let ready = prepare_one(&TargetSpec::user_url(&server.url), &opts)
        .await
        .expect("the loopback server is prepared");
    let took = began.elapsed();
    server.shutdown().await;
    let legacy = ready
        .evidence
        .revision
        .revisions
        .iter()
        .find(|o| o.revision == Revision::V2025_11_25)
        .expect("a dual-era server gets the 2025-11-25 sequences");
    let rules = legacy.findings.iter().map(|f| f.rule.clone()).collect();
    (rules, legacy.not_determined, took)
}

#[tokio::test]
async fn the_fixed_sequences_read_silent_get_streams_quietly_and_judge_the_same() {
    let (rules, not_determined, took) = prepare_served(LegacyVariant::Reference).await;
    assert!(
        took < WITHIN,
        "the reference took {took:?}: a silent GET stream was read to its limit"
    );
    assert!(rules.is_empty(), "{rules:?}");
    assert_eq!(not_determined, 0);
    let mut failures = Vec::new();
    for m in LEGACY_MUTANTS {
        let (rules, not_determined, took) = prepare_served(LegacyVariant::Mutant(m)).await;
        if took >= WITHIN {
            failures.push(format!("{}: took {took:?}", m.name));
            // every further mutant would wait as long: the finding is made
            break;
        }
        if rules != BTreeSet::from([m.rule.0.to_string()]) {
            failures.push(format!("{} (breaks {}): {rules:?}", m.name, m.rule));
        }
        if not_determined != 0 {
            failures.push(format!(
                "{}: {not_determined} step(s) not determined",
                m.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
