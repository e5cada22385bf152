//! `mcpdiff baseline r.json > known.toml`: turn every finding of a saved run into a
//! `[[known]]` entry of the baseline format `src/baseline.rs` reads, so a team can adopt
//! mcpdiff on an imperfect server and fail only on new findings.

use super::exit::fail;
use mcpdiff::baseline::{Baseline, KnownFinding};
use mcpdiff::report::RunReport;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff run URL --json r.json
  mcpdiff baseline r.json > known.toml
  mcpdiff run URL --baseline known.toml          # only new findings fail

EXIT STATUS:
  0  the baseline was printed
  2  the file could not be read or is not an mcpdiff-run/1 report")]
pub struct BaselineArgs {
    /// A result written by `mcpdiff run --json`.
    pub file: PathBuf,
}

/// The baseline of a report: one entry per (target, rule) finding, in report order, the
/// 2025-11-25 (`L-*`) findings of a dual-era target included. The target is its name (the
/// URL for user endpoints), which `Baseline::knows` matches.
pub fn baseline_of(rep: &RunReport) -> Baseline {
    let mut known = Vec::new();
    for t in &rep.targets {
        for f in &t.findings {
            known.push(KnownFinding {
                target: t.name.clone(),
                rule: f.rule,
                reason: format!(
                    "{} finding recorded by mcpdiff {} (seed {}): expected {}, observed {}",
                    f.level, rep.mcpdiff_version, rep.seed, f.expected, f.observed
                ),
            });
        }
        // the other revisions' findings (2025-11-25, `L-*` ids) are baselined the same way
        let others = t.revision.iter().flat_map(|r| &r.revisions);
        for (o, f) in others.flat_map(|o| o.findings.iter().map(move |f| (o, f))) {
            let Some(rule) = mcpdiff_oracle::rules::all_rules().find(|r| r.id.0 == f.rule) else {
                continue;
            };
            if known
                .iter()
                .any(|k: &KnownFinding| k.target == t.name && k.rule == rule.id)
            {
                continue;
            }
            known.push(KnownFinding {
                target: t.name.clone(),
                rule: rule.id,
                reason: format!(
                    "{} {} finding recorded by mcpdiff {} (seed {}) at {}[{}]: expected {}, \
                     observed {}",
                    f.level,
                    o.revision,
                    rep.mcpdiff_version,
                    rep.seed,
                    f.sequence,
                    f.step,
                    f.expected,
                    f.observed
                ),
            });
        }
    }
    Baseline { known }
}

pub fn run(args: BaselineArgs) -> ExitCode {
    let rep = match super::report::load(&args.file) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    let b = baseline_of(&rep);
    match toml::to_string(&b) {
        Ok(text) => {
            println!(
                "# mcpdiff baseline from {} ({} known finding(s)); use with --baseline",
                args.file.display(),
                b.known.len()
            );
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(&format!("cannot write the baseline as TOML: {e}")),
    }
}
