//! The client half of `mcpdiff run` (`--clients`, and the no-URL default): which tool set to
//! serve, which bundled client targets to run, the client matrix on the terminal, and saving
//! its findings to the corpus.

use mcpdiff::clients::{self, ClientTargetReport, Verdict};
use mcpdiff::targets::manifest::{self, TargetKind};
use mcpdiff_oracle::client_judge::{calibration_set, edge_set};
use mcpdiff_oracle::toolset::ToolSet;
use mcpdiff_props::toolgen::generate_toolset;
use std::time::Duration;

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
