//! The client half of `mcpdiff run` (`--clients`, and the no-URL default): which tool set to
//! serve, which bundled client targets to run, the client matrix on the terminal, saving
//! its findings to the corpus, a clients-only run, and writing a run's report files.

use mcpdiff::clients::{self, ClientTargetReport, Verdict};
use mcpdiff::report;
use mcpdiff::targets::manifest::{self, TargetKind};
use mcpdiff_oracle::client_judge::{calibration_set, edge_set};
use mcpdiff_oracle::toolset::ToolSet;
use mcpdiff_props::toolgen::generate_toolset;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Generated tools added to the calibration set when no `--toolset` is given.
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
pub fn select(names: &[String]) -> Result<Vec<manifest::Manifest>, String> {
    let all = manifest::load_all(&manifest::targets_dir())?;
    manifest::select(manifest::of_kind(all, TargetKind::Client), names)
}

/// Run the client targets and print their matrix.
pub async fn run(
    chosen: &[manifest::Manifest],
    set: &ToolSet,
    timeout: Duration,
    until: std::time::Instant,
    shrink_runs: usize,
) -> Vec<ClientTargetReport> {
    eprintln!(
        "mcpdiff: serving {} tools ({} invalid) to {} client target(s)",
        set.tools.len(),
        set.tools.iter().filter(|t| !t.valid).count(),
        chosen.len()
    );
    let limit = clients::DriverLimit {
        per_run: timeout,
        until,
    };
    let rows = clients::run_all(chosen, set, limit, shrink_runs, &|l| {
        eprintln!("mcpdiff: {l}")
    })
    .await;
    print!("{}", clients::report::render_terminal(&rows));
    rows
}

/// Whether a client row fails the run (a MUST client rule broken).
pub fn blocking(rows: &[ClientTargetReport]) -> bool {
    rows.iter().any(|r| r.verdict == Verdict::Fail)
}

/// `--save-corpus` for the client matrix: one `mcpdiff-client-corpus/1` entry per finding
/// with a recording to stand on. Err: the exit status (the error is printed).
pub fn save_corpus(
    dir: &std::path::Path,
    rows: &[ClientTargetReport],
    seed: u64,
) -> Result<(), std::process::ExitCode> {
    match mcpdiff::corpus::save_clients(dir, rows, seed) {
        Ok(line) => {
            eprintln!("mcpdiff: {line}");
            Ok(())
        }
        Err(e) => {
            eprintln!("mcpdiff: {e}");
            Err(std::process::ExitCode::from(2))
        }
    }
}

/// `run --clients` alone (`Plan::clients_only`): only the client matrix, in the same JSON
/// shape (no server targets).
pub async fn clients_only(
    args: &super::run::Args,
    chosen: &[mcpdiff::targets::Manifest],
    set: &mcpdiff_oracle::toolset::ToolSet,
    seed: u64,
    timeout: Duration,
    until: Instant,
) -> ExitCode {
    let started = std::time::Instant::now();
    let rows = run(chosen, set, timeout, until, args.client_shrink_runs).await;
    if let Some(dir) = &args.save_corpus {
        if let Err(e) = save_corpus(dir, &rows, seed) {
            return e;
        }
    }
    let rep = report::RunReport {
        schema: report::json::SCHEMA.to_string(),
        mcpdiff_version: env!("CARGO_PKG_VERSION").to_string(),
        seed,
        stats: report::json::Stats {
            cases: 0,
            requests: 0,
            seconds: started.elapsed().as_secs_f64(),
            cases_per_second: 0.0,
            stopped_by_time: false,
            disagreements_total: 0,
        },
        targets: Vec::new(),
        disagreements: Vec::new(),
        baseline_stale: Vec::new(),
        clients: rows,
    };
    if let Err(e) = write_reports(&rep, args) {
        return super::run::fail(&e);
    }
    if blocking(&rep.clients) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `--json` and the other report files of `args`. The findings are on the terminal already
/// when this fails, so nothing is lost.
pub fn write_reports(rep: &report::RunReport, args: &super::run::Args) -> Result<(), String> {
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(rep)
            .map_err(|e| format!("cannot serialize the result: {e}"))?;
        mcpdiff::secrets::write(path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("mcpdiff: wrote {}", path.display());
    }
    super::report::write_outputs(rep, &args.out)
}
