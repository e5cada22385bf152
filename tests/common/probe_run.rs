//! The set-up the connection probes' tests share: a short run over loopback servers, then
//! the connection probes after it (and, for the report tests, the report built from it).

use mcpdiff::baseline::Baseline;
use mcpdiff::report::{self, RunReport};
use mcpdiff::runner::{
    self, list_stable_probe, reuse_probe, shrink::ShrinkBudget, PropsGenerator, Quiet, RunConfig,
    RunResult,
};
use mcpdiff::serve::{spawn, Variant};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::probes::probe_cases;
use std::net::SocketAddr;
use std::time::Duration;

/// Which connection probe runs after the cases.
pub enum ConnectionProbe {
    /// BASE-STATELESS-NO-PRIOR (`reuse_probe`).
    Reuse,
    /// TOOLS-/RES-/PROMPTS-LIST-STABLE (`list_stable_probe`).
    ListStable,
}

/// The report of 20 cases to the reference, `mutant` and the null server, with `probe` run
/// after them: its targets are those three, in that order.
pub async fn report_after(mutant: Variant, probe: ConnectionProbe) -> RunReport {
    let mut servers = Vec::new();
    for v in [Variant::Reference, mutant, Variant::Null] {
        let s = spawn(v, SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .expect("server starts");
        servers.push(s);
    }
    let named: Vec<(&str, &str)> = ["reference", "mutant", "null"]
        .into_iter()
        .zip(servers.iter().map(|s| s.url.as_str()))
        .collect();
    let (result, cfg) = run_then(&named, 20, &[probe]).await;
    let rep = report::build(&result, &cfg, &Baseline::default(), &|_, _| String::new());
    for s in servers {
        s.shutdown().await;
    }
    rep
}

/// `cases` cases (after the probe set) to each `(name, url)` target, then each of `probes`:
/// the run's result, and its configuration.
pub async fn run_then(
    targets: &[(&str, &str)],
    cases: u64,
    probes: &[ConnectionProbe],
) -> (RunResult, RunConfig) {
    let client = Client::new(Limits::default());
    let mut prepared = Vec::new();
    for (name, url) in targets {
        let p = runner::prepare::prepare(name, url, &client, &[])
            .await
            .expect("target prepares");
        prepared.push(p.target);
    }
    let cfg = RunConfig {
        shrink: ShrinkBudget {
            max_requests: 5,
            max_time: Duration::from_secs(5),
            max_time_per_target: Duration::from_secs(10),
            deadline: None,
        },
        probes: probe_cases(&fixture::surface()),
        ..RunConfig::new(cases, 5, Duration::from_secs(60))
    };
    let mut result = runner::run(prepared, &PropsGenerator::default(), &cfg, &Quiet).await;
    for probe in probes {
        match probe {
            ConnectionProbe::Reuse => reuse_probe::after_run(&client, &mut result).await,
            ConnectionProbe::ListStable => list_stable_probe::after_run(&client, &mut result).await,
        }
    }
    (result, cfg)
}
