//! The set-up the connection probes' report tests share: a short run over the in-process
//! reference, one mutant and the null server (in that order), then one connection probe after
//! it, and the report built from the result.

use mcpdiff::baseline::Baseline;
use mcpdiff::report::{self, RunReport};
use mcpdiff::runner::{
    self, list_stable_probe, reuse_probe, shrink::ShrinkBudget, PropsGenerator, Quiet, RunConfig,
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
    let client = Client::new(Limits::default());
    let mut targets = Vec::new();
    for (name, s) in ["reference", "mutant", "null"].iter().zip(&servers) {
        let p = runner::prepare::prepare(name, &s.url, &client, &[])
            .await
            .expect("target prepares");
        targets.push(p.target);
    }
    let cfg = RunConfig {
        shrink: ShrinkBudget {
            max_requests: 5,
            max_time: Duration::from_secs(5),
            max_time_per_target: Duration::from_secs(10),
            deadline: None,
        },
        probes: probe_cases(&fixture::surface()),
        ..RunConfig::new(20, 5, Duration::from_secs(60))
    };
    let mut result = runner::run(targets, &PropsGenerator::default(), &cfg, &Quiet).await;
    match probe {
        ConnectionProbe::Reuse => reuse_probe::after_run(&client, &mut result).await,
        ConnectionProbe::ListStable => list_stable_probe::after_run(&client, &mut result).await,
    }
    let rep = report::build(&result, &cfg, &Baseline::default(), &|_, _| String::new());
    for s in servers {
        s.shutdown().await;
    }
    rep
}
