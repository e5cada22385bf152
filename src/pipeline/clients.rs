//! The client half of a run: which tool set to serve, which bundled client targets to run,
//! running them (`clients::run_all`), whether their rows fail the run, and the report of a
//! clients-only run.

use crate::clients::{self, ClientStatus, ClientTargetReport};
use crate::report::{self, RunReport};
use crate::targets::manifest::{self, Manifest, TargetKind};
use mcpdiff_oracle::client_judge::{calibration_set, edge_set};
use mcpdiff_oracle::toolset::ToolSet;
use mcpdiff_props::toolgen::generate_toolset;
use std::time::{Duration, Instant};

/// Generated tools added to the calibration set when no `--tools` is given.
pub const GENERATED_TOOLS: usize = 40;

/// The tool set served to client targets: the run's `--tools` set when given, else the
/// oracle's calibration and edge sets plus [`GENERATED_TOOLS`] generated from `seed` (names
/// already taken are skipped).
pub fn toolset_for_clients(given: Option<&ToolSet>, seed: u64) -> ToolSet {
    if let Some(set) = given {
        return set.clone();
    }
    let mut set = calibration_set();
    set.tools.extend(edge_set().tools);
    set.seed = Some(seed);
    for t in generate_toolset(seed, GENERATED_TOOLS).tools {
        if !set.tools.iter().any(|x| x.name() == t.name()) {
            set.tools.push(t);
        }
    }
    set
}

/// The bundled client manifests named (all when `names` is empty).
pub fn select(names: &[String]) -> Result<Vec<Manifest>, String> {
    let all = manifest::load_all(&manifest::targets_dir())?;
    manifest::select(manifest::of_kind(all, TargetKind::Client), names)
}

/// Run the client targets, each driver run bounded by `per_run` and `until`; `log` gets one
/// line per step.
pub async fn run(
    chosen: &[Manifest],
    set: &ToolSet,
    per_run: Duration,
    until: Instant,
    shrink_runs: usize,
    log: &dyn Fn(&str),
) -> Vec<ClientTargetReport> {
    log(&format!(
        "serving {} tools ({} invalid) to {} client target(s)",
        set.tools.len(),
        set.tools.iter().filter(|t| !t.valid).count(),
        chosen.len()
    ));
    let limit = clients::DriverLimit { per_run, until };
    clients::run_all(chosen, set, limit, shrink_runs, log).await
}

/// Whether a client row fails the run (a MUST client rule broken).
pub fn blocking(rows: &[ClientTargetReport]) -> bool {
    rows.iter().any(|r| r.verdict == ClientStatus::Fail)
}

/// The report of a run of client targets only: no server target, the client rows.
pub fn clients_only_report(rows: Vec<ClientTargetReport>, seed: u64, seconds: f64) -> RunReport {
    RunReport {
        schema: report::json::SCHEMA.to_string(),
        mcpdiff_version: env!("CARGO_PKG_VERSION").to_string(),
        seed,
        stats: report::json::Stats {
            cases: 0,
            requests: 0,
            seconds,
            cases_per_second: 0.0,
            stopped_by_time: false,
            disagreements_total: 0,
        },
        targets: Vec::new(),
        disagreements: Vec::new(),
        baseline_stale: Vec::new(),
        clients: rows,
        shard: None,
    }
}
