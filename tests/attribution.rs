//! Attribution: in a default-style `mcpdiff run --no-bundled` (probes, then
//! generated cases, every mutant beside the reference server, over loopback HTTP), every
//! mutant is reported under ITS OWN rule, as the report shows findings after the co-failing
//! filter, not merely with some finding.
//!
//! Settings are `run`'s defaults except `--cases 300` (the default 2,000 takes minutes in a
//! debug build with fifty-odd targets) and a shrink budget of 5 requests (shrinking picks
//! the reproducer, not which rules are reported). The `AUTH_MUTANTS` need a protected
//! server (`serve --auth`), not a default run: tests/auth_run.rs holds each to its own rule.

use mcpdiff::baseline::Baseline;
use mcpdiff::report::{self, RunReport};
use mcpdiff::runner::{self, prepare::prepare, shrink::ShrinkBudget, PropsGenerator, Quiet};
use mcpdiff::runner::{disagree::MUTANT_PREFIX, RunConfig};
use mcpdiff::serve::{spawn, Variant};
use mcpdiff::transport::{sequence_reproducer, Client, Endpoint, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::mutants::hidden_by_http_parsers;
use mcpdiff_oracle::reference::probes::probe_cases;
use mcpdiff_oracle::reference::{mutant, MUTANTS};
use std::net::SocketAddr;
use std::time::Duration;

fn config() -> RunConfig {
    RunConfig {
        shrink: ShrinkBudget {
            max_requests: 5,
            max_time: Duration::from_secs(10),
            deadline: None,
            max_time_per_target: Duration::from_secs(60),
        },
        max_disagreements: 20,
        probes: probe_cases(&fixture::surface()),
        ..RunConfig::new(300, 1, Duration::from_secs(300))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_mutant_is_reported_under_its_own_rule() {
    let mut variants = vec![("reference".to_string(), Variant::Reference)];
    for m in MUTANTS {
        if hidden_by_http_parsers(m) {
            continue;
        }
        let v = Variant::Mutant(m);
        variants.push((format!("{MUTANT_PREFIX}{}", m.name), v));
    }
    let client = Client::new(Limits::default());
    let (mut servers, mut targets) = (Vec::new(), Vec::new());
    for (name, v) in variants {
        let s = spawn(v, SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .expect("server starts");
        let p = prepare(&name, &s.url, &client, &[])
            .await
            .expect("target prepares");
        targets.push(p.target);
        servers.push(s);
    }
    let cfg = config();
    let result = runner::run(targets, &PropsGenerator::default(), &cfg, &Quiet).await;
    let rep: RunReport = report::build(&result, &cfg, &Baseline::default(), &|sent, u| {
        Endpoint::parse(u)
            .map(|e| sequence_reproducer(sent, &e, &Default::default(), &Default::default()))
            .unwrap_or_default()
    });
    for s in servers {
        s.shutdown().await;
    }
    assert!(
        rep.targets[0].findings.is_empty(),
        "reference findings: {:?}",
        rep.targets[0]
            .findings
            .iter()
            .map(|f| &f.rule)
            .collect::<Vec<_>>()
    );
    // every finding the run kept is reported, or the target's notes say why it is not (its
    // plain twin, or a rule that failed alone elsewhere, explains it): none is dropped unsaid
    let mut unsaid = Vec::new();
    for (t, r) in rep.targets.iter().zip(&result.targets) {
        for f in &r.findings {
            let reported = t.findings.iter().any(|x| x.rule == f.rule.0);
            let noted = t
                .notes
                .iter()
                .any(|n| n.starts_with(&format!("{} not reported: ", f.rule.0)));
            if !reported && !noted {
                unsaid.push(format!("{}: {}", t.name, f.rule));
            }
        }
    }
    assert!(unsaid.is_empty(), "findings left out unsaid: {unsaid:?}");
    let mut missed = Vec::new();
    for t in rep.targets.iter().skip(1) {
        let name = t.name.trim_start_matches(MUTANT_PREFIX);
        let m = mutant(name).expect("a mutant target");
        if !t.findings.iter().any(|f| f.rule == m.rule.0) {
            let got: Vec<&str> = t.findings.iter().map(|f| f.rule.as_str()).collect();
            missed.push(format!("{name}: wants {}, reported {got:?}", m.rule));
        }
    }
    assert!(
        missed.is_empty(),
        "mutants not reported under their own rule:\n{}",
        missed.join("\n")
    );
}
