//! The client half of `mcpdiff run` (`--clients`, and the no-URL default): which tool set to
//! serve, which bundled client targets to run, and the client matrix on the terminal.

use mcpdiff::clients::{self, ClientTargetReport, Verdict};
use mcpdiff::targets::manifest::{self, TargetKind};
use mcpdiff_oracle::client_judge::{calibration_set, edge_set};
use mcpdiff_oracle::toolset::ToolSet;
use mcpdiff_props::toolgen::generate_toolset;
use std::path::Path;
use std::time::Duration;

/// Generated tools added to the calibration set when no `--toolset` is given.
pub const GENERATED_TOOLS: usize = 40;

/// The tool set to serve: the file given, else the oracle's calibration and edge sets plus
/// [`GENERATED_TOOLS`] generated from `seed` (names already taken are skipped).
pub fn load_toolset(file: Option<&Path>, seed: u64) -> Result<ToolSet, String> {
    if let Some(p) = file {
        let text = std::fs::read_to_string(p)
            .map_err(|e| format!("cannot read tool set {}: {e}", p.display()))?;
        return ToolSet::from_json(&text).map_err(|e| {
            format!(
                "{}: {e} (`mcpdiff toolset generate` writes a valid file)",
                p.display()
            )
        });
    }
    let mut set = calibration_set();
    set.tools.extend(edge_set().tools);
    set.seed = Some(seed);
    for t in generate_toolset(seed, GENERATED_TOOLS).tools {
        if !set.tools.iter().any(|x| x.name() == t.name()) {
            set.tools.push(t);
        }
    }
    Ok(set)
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
    shrink_runs: usize,
) -> Vec<ClientTargetReport> {
    eprintln!(
        "mcpdiff: serving {} tools ({} invalid) to {} client target(s)",
        set.tools.len(),
        set.tools.iter().filter(|t| !t.valid).count(),
        chosen.len()
    );
    let rows = clients::run_all(chosen, set, timeout, shrink_runs, &|l| {
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
