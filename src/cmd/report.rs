//! `mcpdiff report r.json [--markdown P] [--junit P] [--html P] [--strict]`: render a saved
//! run (schema mcpdiff-run/1). Prints the review (Markdown, readable as plain text) and
//! writes the requested files. Also owns `OutputArgs`/`write_outputs`, which `mcpdiff run`
//! flattens into its own flags so a live run writes the same files.

use super::exit::{self, fail};
use mcpdiff::report::{html, json::SCHEMA, junit, markdown, RunReport};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The report files a run or a saved report can write.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct OutputArgs {
    /// Write the review as Markdown (fit for a PR comment).
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// Write JUnit XML: one testsuite per target, one testcase per judged rule.
    #[arg(long, value_name = "PATH")]
    pub junit: Option<PathBuf>,
    /// Write one self-contained HTML file: the rules x targets matrix and every finding.
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// SHOULD findings count as failures (JUnit <failure>, and exit 1 for `mcpdiff report`).
    #[arg(long)]
    pub strict: bool,
}

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff run --cases 2000 --json r.json
  mcpdiff report r.json                          # the review on the terminal
  mcpdiff report r.json --markdown review.md --junit junit.xml --html report.html

EXIT STATUS:
  0  no MUST finding outside the baseline (with --strict: no SHOULD finding either)
  1  at least one such finding
  2  the file could not be read or is not an mcpdiff-run/1 report, or an output is unwritable")]
pub struct ReportArgs {
    /// A result written by `mcpdiff run --json`.
    pub file: PathBuf,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Read and parse a saved report; the error is one line naming the file.
pub fn load(path: &Path) -> Result<RunReport, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let rep: RunReport = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not an mcpdiff run report ({e}); write one with `mcpdiff run --json`",
            path.display()
        )
    })?;
    // only the major version matters: fields are added within mcpdiff-run/1
    if rep.schema != SCHEMA {
        return Err(format!(
            "{} has schema '{}', this mcpdiff reads '{SCHEMA}'",
            path.display(),
            rep.schema
        ));
    }
    Ok(rep)
}

/// Write every file `out` asks for. The error names the file that could not be written.
pub fn write_outputs(rep: &RunReport, out: &OutputArgs) -> Result<(), String> {
    let jobs: [(&Option<PathBuf>, &dyn Fn() -> String); 3] = [
        (&out.markdown, &|| markdown::render(rep)),
        (&out.junit, &|| junit::render(rep, out.strict)),
        (&out.html, &|| html::render(rep)),
    ];
    for (path, render) in jobs {
        if let Some(p) = path {
            mcpdiff::secrets::write(p, &render())
                .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            eprintln!("mcpdiff: wrote {}", p.display());
        }
    }
    Ok(())
}

/// Whether the report fails a gate: a MUST finding outside the baseline, or with `strict`
/// also a SHOULD finding outside it.
pub fn fails(rep: &RunReport, strict: bool) -> bool {
    let clients = rep.clients.iter().any(|c| {
        c.verdict == mcpdiff::clients::ClientStatus::Fail || (strict && !c.findings.is_empty())
    });
    clients
        || rep.targets.iter().any(|t| {
            t.blocking
                || (strict
                    && t.findings
                        .iter()
                        .any(|f| f.severity == "advisory" && !f.baselined))
        })
}

pub fn run(args: ReportArgs) -> ExitCode {
    let rep = match load(&args.file) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    print!("{}", markdown::render(&rep));
    if let Err(e) = write_outputs(&rep, &args.out) {
        return fail(&e);
    }
    exit::findings(fails(&rep, args.out.strict))
}
