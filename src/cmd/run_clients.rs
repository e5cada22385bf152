//! The printing side of `mcpdiff run`'s client half and report files: the client matrix on
//! the terminal, its corpus entries, a clients-only run, and writing a run's report files
//! (`--json`, `--markdown`, `--junit`, `--html`). The work is `mcpdiff::pipeline::clients`.

use super::exit::{self, fail};
use super::run_args::RunArgs;
use mcpdiff::clients::ClientTargetReport;
use mcpdiff::pipeline::clients as pipeline_clients;
use mcpdiff::report::RunReport;
use mcpdiff::targets::Manifest;
use mcpdiff_oracle::toolset::ToolSet;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Run the client targets and print their matrix.
pub async fn run(
    chosen: &[Manifest],
    set: &ToolSet,
    timeout: Duration,
    until: Instant,
    shrink_runs: usize,
) -> Vec<ClientTargetReport> {
    let log = |l: &str| eprintln!("mcpdiff: {l}");
    let rows = pipeline_clients::run(chosen, set, timeout, until, shrink_runs, &log).await;
    print!("{}", mcpdiff::report::client_matrix::terminal(&rows));
    rows
}

/// `--save-corpus` for the client matrix: one `mcpdiff-client-corpus/1` entry per finding
/// with a recording to stand on. Err: the exit status (the error is printed).
pub fn save_corpus(
    dir: &std::path::Path,
    rows: &[ClientTargetReport],
    seed: u64,
) -> Result<(), ExitCode> {
    match mcpdiff::corpus::save_clients(dir, rows, seed) {
        Ok(line) => {
            eprintln!("mcpdiff: {line}");
            Ok(())
        }
        Err(e) => Err(fail(&e.to_string())),
    }
}

/// `run --clients` alone (`RunPlan::clients_only`): only the client matrix, in the same JSON
/// shape (no server targets).
pub async fn clients_only(
    args: &RunArgs,
    chosen: &[Manifest],
    set: &ToolSet,
    seed: u64,
    timeout: Duration,
    until: Instant,
) -> ExitCode {
    let started = Instant::now();
    let rows = run(chosen, set, timeout, until, args.client_shrink_runs).await;
    if let Some(dir) = &args.save_corpus {
        if let Err(e) = save_corpus(dir, &rows, seed) {
            return e;
        }
    }
    let rep = pipeline_clients::clients_only_report(rows, seed, started.elapsed().as_secs_f64());
    if let Err(e) = write_reports(&rep, args) {
        return fail(&e);
    }
    exit::findings(pipeline_clients::blocking(&rep.clients))
}

/// `--json` and the other report files of `args`. The findings are on the terminal already
/// when this fails, so nothing is lost.
/// Err is a String on purpose: it is the final one-line message for `exit::fail` (the
/// typed errors below it are already rendered), and nothing matches on it.
pub fn write_reports(rep: &RunReport, args: &RunArgs) -> Result<(), String> {
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(rep)
            .map_err(|e| format!("cannot serialize the result: {e}"))?;
        mcpdiff::secrets::write(path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("mcpdiff: wrote {}", path.display());
    }
    // a SARIF result points at its finding's corpus entry when this run saved one
    let out = super::report::OutputArgs {
        corpus_dir: args.save_corpus.clone(),
        ..args.out.clone()
    };
    super::report::write_outputs(rep, &out)
}
