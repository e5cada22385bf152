//! `targets[].revisions[]` through the run pipeline (as `mcpdiff run URL` drives it), over
//! loopback HTTP: each target is graded per revision, and a revision it does not speak is
//! "not offered" (no score), never a 0.
//!
//! - the dual-era reference (`serve --dual-era`, the main job's in-process reference): 1.0 on
//!   2026-07-28 and on 2025-11-25;
//! - the 2025-11-25-only reference (`serve --legacy-only`): graded on 2025-11-25, 2026-07-28
//!   not offered, and the modern cases it refused are no 2026-07-28 findings;
//! - the modern-only reference (plain `serve`): 2025-11-25 not offered;
//! - a dual-era server with one legacy mutant: a 2025-11-25 finding on the mutant's rule and
//!   0 there, 2026-07-28 still 1.0.
//!
//! Then `--revision` selects: with 2026-07-28 alone no legacy sequence is sent.

use mcpdiff::baseline::Baseline;
use mcpdiff::pipeline::{self, Settings, TargetSpec};
use mcpdiff::report::json::TargetReport;
use mcpdiff::report::revisions::{self, RevisionReport, RevisionStatus};
use mcpdiff::report::RunReport;
use mcpdiff::runner::Progress;
use mcpdiff::serve::legacy::LegacyVariant;
use mcpdiff::serve::{spawn_full, RunningServer, ServeOptions, Variant};
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

async fn spawn(opts: ServeOptions) -> RunningServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal address");
    spawn_full(Variant::Reference, addr, fixture::surface(), opts)
        .await
        .expect("bind loopback")
}

fn settings(revisions: &[Revision]) -> Settings {
    let limits = Limits {
        sse_max_time: Duration::from_millis(300),
        ..Limits::default()
    };
    Settings {
        concurrency: 4,
        shrink_budget: 20,
        revisions: revisions.to_vec(),
        ..Settings::new(Client::new(limits), 100, 11)
    }
}

async fn run(urls: &[&str], revisions: &[Revision]) -> RunReport {
    let specs: Vec<TargetSpec> = urls.iter().map(|u| TargetSpec::user_url(u)).collect();
    let s = settings(revisions);
    let never = std::future::pending::<()>();
    let matrix = pipeline::run_matrix(&specs, &s, &Quiet, never)
        .await
        .expect("not interrupted");
    matrix.report(&Baseline::default(), &s.client)
}

fn target<'a>(rep: &'a RunReport, url: &str) -> &'a TargetReport {
    rep.targets
        .iter()
        .find(|t| t.url == url)
        .expect("a report entry per target")
}

fn revision(t: &TargetReport, r: Revision) -> &RevisionReport {
    t.revisions
        .iter()
        .find(|x| x.revision == r)
        .unwrap_or_else(|| panic!("{}: no {r} entry in {:#?}", t.url, t.revisions))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_reference_is_graded_on_the_revisions_it_speaks() {
    let dual = spawn(ServeOptions {
        dual_era: Some(LegacyVariant::Reference),
        ..ServeOptions::default()
    })
    .await;
    let legacy_only = spawn(ServeOptions {
        legacy_only: true,
        ..ServeOptions::default()
    })
    .await;
    let modern = spawn(ServeOptions::default()).await;
    let mutant = legacy_mutant("legacy-unknown-session-served").expect("a legacy mutant");
    let broken = spawn(ServeOptions {
        dual_era: Some(LegacyVariant::Mutant(mutant)),
        ..ServeOptions::default()
    })
    .await;
    let owned = [
        dual.url.clone(),
        legacy_only.url.clone(),
        modern.url.clone(),
        broken.url.clone(),
    ];
    let urls = owned.each_ref().map(String::as_str);
    let rep = run(&urls, &Revision::ALL).await;
    for s in [dual, legacy_only, modern, broken] {
        s.shutdown().await;
    }
    // the JSON carries both revisions, newest first, for every target
    for t in &rep.targets {
        let order: Vec<Revision> = t.revisions.iter().map(|r| r.revision).collect();
        assert_eq!(order, Revision::ALL, "{}", t.url);
        // what a saved file gives back is what the run wrote
        let json = serde_json::to_string(t).expect("serializable");
        let back: TargetReport = serde_json::from_str(&json).expect("readable");
        assert_eq!(back.revisions, t.revisions);
    }

    let t = target(&rep, urls[0]);
    for r in Revision::ALL {
        let x = revision(t, r);
        assert_eq!(
            (x.status, x.score),
            (RevisionStatus::Graded, Some(1.0)),
            "dual-era reference, {r}: {x:#?}"
        );
        assert!(x.findings.is_empty(), "{r}: {:?}", x.findings);
    }

    let t = target(&rep, urls[1]);
    let m = revision(t, Revision::V2026_07_28);
    assert_eq!((m.status, m.score), (RevisionStatus::NotOffered, None));
    assert!(m.findings.is_empty() && m.reason.is_some(), "{m:#?}");
    // the modern cases were not sent, so they cannot be 2026-07-28 findings
    assert!(t.findings.is_empty() && t.cases == 0, "{:?}", t.findings);
    let l = revision(t, Revision::V2025_11_25);
    assert_eq!(
        (l.status, l.score),
        (RevisionStatus::Graded, Some(1.0)),
        "legacy-only reference: {l:#?}"
    );
    assert!(!revisions::any_blocking(t));
    assert_eq!(
        t.score, 1.0,
        "the top-level score carries the graded revision"
    );

    let t = target(&rep, urls[2]);
    let m = revision(t, Revision::V2026_07_28);
    assert_eq!((m.status, m.score), (RevisionStatus::Graded, Some(1.0)));
    let l = revision(t, Revision::V2025_11_25);
    assert_eq!((l.status, l.score), (RevisionStatus::NotOffered, None));
    assert!(l.findings.is_empty());

    let t = target(&rep, urls[3]);
    let m = revision(t, Revision::V2026_07_28);
    assert_eq!((m.status, m.score), (RevisionStatus::Graded, Some(1.0)));
    assert!(m.findings.is_empty(), "{:?}", m.findings);
    let l = revision(t, Revision::V2025_11_25);
    assert_eq!((l.status, l.score), (RevisionStatus::Graded, Some(0.0)));
    let rules: Vec<&str> = l.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, [mutant.rule.0], "{l:#?}");
    assert!(l.blocking() && revisions::any_blocking(t));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revision_selects_the_surfaces_graded() {
    let mutant = legacy_mutant("legacy-unknown-session-served").expect("a legacy mutant");
    let broken = spawn(ServeOptions {
        dual_era: Some(LegacyVariant::Mutant(mutant)),
        ..ServeOptions::default()
    })
    .await;
    let url = broken.url.clone();
    // 2026-07-28 alone: no legacy sequence, so the legacy mutant is not seen
    let rep = run(&[&url], &[Revision::V2026_07_28]).await;
    let t = target(&rep, &url);
    assert_eq!(t.revisions.len(), 1, "{:#?}", t.revisions);
    assert_eq!(t.revisions[0].status, RevisionStatus::Graded);
    let probe = t.revision.as_ref().expect("the revision probe still ran");
    assert!(probe.revisions.is_empty(), "{:#?}", probe.revisions);
    assert!(!revisions::any_blocking(t));
    // 2025-11-25 alone: no generated case, the legacy finding graded
    let rep = run(&[&url], &[Revision::V2025_11_25]).await;
    broken.shutdown().await;
    let t = target(&rep, &url);
    assert_eq!(t.cases, 0);
    assert_eq!(t.revisions.len(), 1, "{:#?}", t.revisions);
    let l = &t.revisions[0];
    assert_eq!(
        (l.revision, l.status),
        (Revision::V2025_11_25, RevisionStatus::Graded)
    );
    assert!(l.blocking() && revisions::any_blocking(t) && t.blocking);
}

/// `mcpdiff run URL --revision ...`: a MUST finding on 2025-11-25 alone fails the run (exit
/// 1); with that revision not selected the same server passes (exit 0).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_must_finding_fails_the_run_when_2025_11_25_is_graded() {
    let mutant = legacy_mutant("legacy-unknown-session-served").expect("a legacy mutant");
    let broken = spawn(ServeOptions {
        dual_era: Some(LegacyVariant::Mutant(mutant)),
        ..ServeOptions::default()
    })
    .await;
    let url = broken.url.clone();
    let status = |revision: &'static str| {
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
                .args(["run", &url, "--cases", "50", "--seed", "3", "--quiet"])
                .args(["--max-time", "60", "--revision", revision])
                .output()
                .expect("mcpdiff runs")
        })
    };
    let legacy = status("2025-11-25").await.expect("joined");
    let modern = status("2026-07-28").await.expect("joined");
    broken.shutdown().await;
    let text = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(legacy.status.code(), Some(1), "{}", text(&legacy));
    assert!(text(&legacy).contains("2025-11-25: graded, score 0.00"));
    assert!(text(&legacy).contains(mutant.rule.0));
    assert_eq!(modern.status.code(), Some(0), "{}", text(&modern));
    assert!(!text(&modern).contains("2025-11-25"), "{}", text(&modern));
}

/// `--baseline` naming a 2025-11-25 MUST rule: the finding is still reported, marked
/// baselined, and fails nothing (no blocking revision, no blocking target, the entry not
/// stale), on a dual-era target (fuzzed on 2026-07-28 too) and on a 2025-11-25-only one (not
/// fuzzed); without the baseline both block.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_baselined_legacy_must_finding_does_not_block() {
    use mcpdiff::baseline::KnownFinding;
    let mutant = legacy_mutant("legacy-unknown-session-served").expect("a legacy mutant");
    let dual = spawn(ServeOptions {
        dual_era: Some(LegacyVariant::Mutant(mutant)),
        ..ServeOptions::default()
    })
    .await;
    let legacy_only = spawn(ServeOptions {
        dual_era: Some(LegacyVariant::Mutant(mutant)),
        legacy_only: true,
        ..ServeOptions::default()
    })
    .await;
    let urls = [dual.url.clone(), legacy_only.url.clone()];
    let specs: Vec<TargetSpec> = urls.iter().map(|u| TargetSpec::user_url(u)).collect();
    let s = settings(&Revision::ALL);
    let never = std::future::pending::<()>();
    let matrix = pipeline::run_matrix(&specs, &s, &Quiet, never)
        .await
        .expect("not interrupted");
    dual.shutdown().await;
    legacy_only.shutdown().await;
    let known = Baseline {
        known: vec![KnownFinding {
            target: "*".to_string(),
            rule: mutant.rule,
            reason: String::new(),
        }],
    };
    let plain = matrix.report(&Baseline::default(), &s.client);
    let baselined = matrix.report(&known, &s.client);
    assert!(
        baselined.baseline_stale.is_empty(),
        "{:#?}",
        baselined.baseline_stale
    );
    for url in &urls {
        let t = target(&plain, url);
        assert!(revisions::any_blocking(t), "{url}: {:#?}", t.revisions);
        let t = target(&baselined, url);
        let l = revision(t, Revision::V2025_11_25);
        assert_eq!(l.status, RevisionStatus::Graded, "{url}: {l:#?}");
        let f = l
            .findings
            .iter()
            .find(|f| f.rule == mutant.rule.0)
            .unwrap_or_else(|| panic!("{url}: no {} finding in {l:#?}", mutant.rule));
        assert_eq!(f.level, "MUST");
        assert!(!f.blocking, "{url}: {l:#?}");
        let outcome = &t.revision.as_ref().expect("probed").revisions[0];
        assert!(outcome.findings.iter().all(|f| f.baselined), "{url}");
        assert!(
            !revisions::any_blocking(t) && !t.blocking,
            "{url}: {:#?}",
            t.revisions
        );
    }
    // the renderers say so too: JUnit notes it instead of failing, SARIF suppresses it
    use mcpdiff::report::{junit, sarif};
    assert!(junit::render(&plain, false).contains("<failure"));
    let xml = junit::render(&baselined, false);
    assert!(!xml.contains("<failure"), "{xml}");
    let doc = sarif::render(&baselined, &sarif::default_location);
    let doc: serde_json::Value = serde_json::from_str(&doc).expect("SARIF is JSON");
    let legacy: Vec<&serde_json::Value> = doc["runs"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["results"].as_array().into_iter().flatten())
        .filter(|r| r["ruleId"] == mutant.rule.0)
        .collect();
    assert_eq!(legacy.len(), 2, "{doc:#}");
    for r in legacy {
        assert_eq!(r["properties"]["baselined"], true, "{r:#}");
        assert!(r["suppressions"].is_array(), "{r:#}");
    }
}
