//! `mcpdiff report r.json [--markdown P] [--junit P] [--html P] [--sarif P] [--strict]`: render a saved
//! run (schema mcpdiff-run/1). Prints the review (Markdown, readable as plain text) and
//! writes the requested files. Also owns `OutputArgs`/`write_outputs`, which `mcpdiff run`
//! flattens into its own flags so a live run writes the same files.

use super::exit::{self, fail};
use mcpdiff::report::sarif::{self, Subject};
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
    /// Write SARIF 2.1.0 for GitHub code scanning: one run per target, one result per
    /// finding (docs/github-action.md).
    #[arg(long, value_name = "PATH")]
    pub sarif: Option<PathBuf>,
    /// The repository-relative file every SARIF result points at (code scanning wants a
    /// file). Default: the finding's corpus entry when the run saved it (--save-corpus),
    /// else `mcpdiff/<target>.mcp`.
    #[arg(long, value_name = "PATH", requires = "sarif")]
    pub sarif_location: Option<String>,
    /// SHOULD findings count as failures (JUnit <failure>, and exit 1 for `mcpdiff report`).
    #[arg(long)]
    pub strict: bool,
    /// The corpus folder of this run (`run --save-corpus`): a SARIF result points at its
    /// finding's entry there when the file exists. Set by `mcpdiff run`, not a flag.
    #[arg(skip)]
    pub corpus_dir: Option<PathBuf>,
}

/// Where a SARIF result points: `--sarif-location`, else a server finding's saved corpus
/// entry, else `mcpdiff/<target>.mcp`.
pub fn sarif_location(out: &OutputArgs, s: Subject) -> String {
    if let Some(p) = &out.sarif_location {
        return p.clone();
    }
    if let (Some(dir), Subject::Server(_, f)) = (&out.corpus_dir, s) {
        let entry = dir.join(mcpdiff::corpus::entry::file_name(f.rule.as_str(), &f.case));
        if entry.is_file() {
            // a URI path: forward slashes whatever the platform
            return entry.to_string_lossy().replace('\\', "/");
        }
    }
    sarif::default_location(s)
}

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff run --cases 2000 --json r.json
  mcpdiff report r.json                          # the review on the terminal
  mcpdiff report r.json --markdown review.md --junit junit.xml --html report.html
  mcpdiff report r.json --sarif r.sarif          # for GitHub code scanning (upload-sarif)

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
/// Err is a String on purpose: it is the final one-line message for `exit::fail` (the
/// typed errors below it are already rendered), and nothing matches on it.
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
/// Err is a String on purpose: it is the final one-line message for `exit::fail` (the
/// typed errors below it are already rendered), and nothing matches on it.
pub fn write_outputs(rep: &RunReport, out: &OutputArgs) -> Result<(), String> {
    let locate = |s: Subject| sarif_location(out, s);
    let jobs: [(&Option<PathBuf>, &dyn Fn() -> String); 4] = [
        (&out.markdown, &|| markdown::render(rep)),
        (&out.junit, &|| junit::render(rep, out.strict)),
        (&out.html, &|| html::render(rep)),
        (&out.sarif, &|| sarif::render(rep, &locate)),
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
            mcpdiff::report::revisions::any_blocking(t)
                || (strict
                    && mcpdiff::report::legacy_view::legacy_rules(t)
                        .iter()
                        .any(|f| f.severity() == "advisory" && !f.baselined()))
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
