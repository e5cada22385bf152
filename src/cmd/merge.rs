//! `mcpdiff merge r1.json ... rN.json [--json OUT] [--markdown/--junit/--html P]`: join the
//! JSON reports of the shards of one run (`run --shard K/N`) into the report of the whole
//! run (`mcpdiff::report::merge`), print it as `mcpdiff report` does, and write the files
//! asked for.

use super::exit::{self, fail_in};
use super::report::{fails, load, write_outputs, OutputArgs};
use mcpdiff::pipeline::matrix::MAX_DISAGREEMENTS;
use mcpdiff::report::markdown;
use mcpdiff::report::merge::{merge, Input};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  # three CI machines, one seed:
  mcpdiff run URL --seed 7 --shard 1/3 --json r1.json     # machine 1 (2/3, 3/3 on the others)
  mcpdiff merge r1.json r2.json r3.json --json all.json --junit junit.xml

EXIT STATUS:
  0  no MUST finding outside the baseline (with --strict: no SHOULD finding either)
  1  at least one such finding
  2  a file could not be read or written, or the files are not every shard of one run
     (different seeds, schemas or shard counts, a shard missing or given twice)")]
pub struct MergeArgs {
    /// The `run --shard K/N --json` reports of every shard of one run, in any order.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the merged result as JSON (schema mcpdiff-run/1).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: MergeArgs) -> ExitCode {
    let mut inputs = Vec::new();
    for f in &args.files {
        match load(f) {
            Ok(report) => inputs.push(Input {
                name: f.display().to_string(),
                report,
            }),
            Err(e) => return fail_in("merge", &e),
        }
    }
    let rep = match merge(inputs, MAX_DISAGREEMENTS) {
        Ok(r) => r,
        Err(e) => return fail_in("merge", &e.to_string()),
    };
    print!("{}", markdown::render(&rep));
    if let Some(p) = &args.json {
        let written = serde_json::to_string_pretty(&rep)
            .map_err(|e| e.to_string())
            .and_then(|text| mcpdiff::secrets::write(p, &text).map_err(|e| e.to_string()));
        if let Err(e) = written {
            return fail_in("merge", &format!("cannot write {}: {e}", p.display()));
        }
        eprintln!("mcpdiff: wrote {}", p.display());
    }
    if let Err(e) = write_outputs(&rep, &args.out) {
        return fail_in("merge", &e);
    }
    exit::findings(fails(&rep, args.out.strict))
}
