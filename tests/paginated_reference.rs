//! The reference server listing in pages (`serve --page-size N`): discovery follows every
//! `nextCursor` (the surface holds every tool, and the cursors it was given), and the runner
//! scores the paginated reference 1.0 with no finding at all — «a conformant server with
//! ... paginated lists draws no MUST finding» (issue 23) — the page rules (PAGE-STABLE,
//! CACHE-SCOPE-PAGES) passed on the pages its own cursors open.

use mcpdiff::baseline::Baseline;
use mcpdiff::report;
use mcpdiff::runner::{self, prepare::prepare, PropsGenerator, Quiet, RunConfig};
use mcpdiff::serve::{spawn_with, Variant};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::pages::with_page_size;
use mcpdiff_oracle::reference::probes::probe_cases;
use std::net::SocketAddr;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_paginated_reference_scores_clean() {
    // one item a page: every list of more than one item is paged, two a page: tools only
    for size in [1, fixture::PAGE_SIZE] {
        let served = with_page_size(fixture::surface(), size);
        let addr = SocketAddr::from(([127, 0, 0, 1], 0));
        let server = spawn_with(Variant::Reference, addr, served.clone())
            .await
            .expect("server starts");
        let client = Client::new(Limits::default());
        let p = prepare("paged", &server.url, &client, &[])
            .await
            .expect("target prepares");
        let seen = &p.target.surface;
        // discovery followed the cursors: the whole lists, and the cursors the pages carried
        let names: Vec<&str> = seen.tools.iter().map(|t| t.name.as_str()).collect();
        let declared: Vec<&str> = served.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, declared, "page size {size}");
        assert_eq!(seen.resources, served.resources);
        assert_eq!(seen.prompts, served.prompts);
        assert_eq!(
            seen.pagination.lists, served.pagination.lists,
            "page size {size}"
        );
        let cfg = RunConfig {
            probes: probe_cases(&fixture::surface()),
            ..RunConfig::new(600, 5, Duration::from_secs(120))
        };
        let result = runner::run(vec![p.target], &PropsGenerator::default(), &cfg, &Quiet).await;
        let rep = report::build(&result, &cfg, &Baseline::default(), &|_, _| String::new());
        let t = &rep.targets[0];
        assert!(
            t.findings.is_empty(),
            "page size {size}: {:#?}",
            t.findings
                .iter()
                .map(|f| (&f.rule, &f.observed))
                .collect::<Vec<_>>()
        );
        assert_eq!(t.score, 1.0);
        // the page probes were built from the target's own cursors and passed
        for rule in ["PAGE-STABLE", "CACHE-SCOPE-PAGES", "PAGE-INVALID-CURSOR"] {
            assert!(
                t.passed.iter().any(|r| r == rule),
                "page size {size}: {rule} not passed ({:?})",
                t.passed
            );
        }
        server.shutdown().await;
    }
}
