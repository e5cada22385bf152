//! The flags of `mcpdiff run` (`RunArgs`, with the help text's examples and exit statuses)
//! and their check: the files they name read, the plan made (`Inputs`), the per-case limits.

use mcpdiff::baseline::Baseline;
use mcpdiff::pipeline::{self, clients as pipeline_clients};
use mcpdiff::targets::Manifest;
use mcpdiff::transport::{Credentials, Endpoint, Limits, Tls};
use mcpdiff_oracle::toolset::ToolSet;
use mcpdiff_oracle::Revision;
use mcpdiff_oracle::Surface;
use std::path::PathBuf;
use std::time::Duration;

/// The shortest per-case limit `--timeout-ms` takes (`run` and `replay`).
pub const MIN_TIMEOUT_MS: u64 = 100;

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff run                                   # reference + 4 mutants + every bundled SDK target (servers, clients)
  mcpdiff run --no-bundled                      # reference server + 4 mutants only, in process
  mcpdiff run --mutants origin-unchecked        # reference server + that mutant only
  mcpdiff run --bundled python-sdk,ts-sdk       # only those two bundled SDK servers
  mcpdiff run --bundled                         # every bundled SDK server, nothing else
  mcpdiff run --bundled python-sdk --clients    # python-sdk + every bundled client target
  mcpdiff run --clients                         # only the bundled client SDK targets
  mcpdiff run --clients ts-client --tools t.json    # one client, your tool set
  mcpdiff run http://127.0.0.1:3000/mcp         # your endpoint, nothing else
  mcpdiff run URL --max-time 30 --timeout-ms 20000  # whole run within 30 s; 20 s per case
  mcpdiff run URL -H 'Authorization: Bearer TOKEN'  # a protected endpoint (+ AUTH-* rules)
  mcpdiff run URL1 URL2 --cases 5000 --seed 7 --json r.json
  mcpdiff run URL --baseline known.toml         # known findings do not fail the run
  mcpdiff run https://127.0.0.1:8443/mcp --cacert ca.pem   # https, private CA (or --insecure)
  mcpdiff run URL --sarif r.sarif               # SARIF 2.1.0 for GitHub code scanning
  mcpdiff run URL --revision 2025-11-25         # grade only the legacy (initialize) surface
  mcpdiff run URL --seed 7 --shard 2/3 --json r2.json  # CI machine 2 of 3; then `mcpdiff merge r*.json`

EXIT STATUS:
  0  no MUST finding outside the baseline
  1  at least one MUST finding outside the baseline, on any graded revision
  2  the run could not be done (bad flag, unreachable target, unwritable file, or a
     target that asks for credentials: the message says which --header to add; a
     target none of whose answers decided anything: all timed out, 401 or lost; set-up
     that took all of --max-time); a target that could not be tested still gets an
     entry in --json")]
pub struct RunArgs {
    /// Endpoints to test (http://host:port/path or
    /// https://...). With no selection at all (no URL, no
    /// --bundled, --mutants, --no-bundled or --clients): the in-process reference server, four
    /// mutants, every bundled SDK server target and every bundled client target.
    pub urls: Vec<String>,
    /// Start these bundled server targets (`mcpdiff targets list`; comma-separated; no value:
    /// all) and test them beside the URLs given, nothing else. Missing ones are installed
    /// first.
    #[arg(long, value_delimiter = ',', num_args = 0.., value_name = "NAME")]
    pub bundled: Option<Vec<String>>,
    /// Only the reference server and the mutants, in process (fast and offline): no bundled
    /// SDK server or client target.
    #[arg(long, conflicts_with = "bundled")]
    pub no_bundled: bool,
    /// Cases to generate (each goes to every target of its case stream).
    #[arg(long, default_value_t = 2000)]
    pub cases: u64,
    /// Seed; the same seed gives the same cases. Default: derived from the clock, printed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Bound the whole run to this many seconds: installing and starting bundled targets,
    /// then discovery, cases, slow-tool probes, shrinking, client drivers and reports in what
    /// is left. An install is never cut: one that takes it all ends the run (status 2). A
    /// shrink cut short keeps the smallest case it reached.
    #[arg(long, default_value_t = 300)]
    pub max_time: u64,
    /// Requests per second across all targets (default: unlimited on loopback, 20 otherwise).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Cases waiting for an answer at once. Besides these, each of the `concurrency`
    /// workers keeps reading up to 8 answered cases whose SSE stream is in its short idle
    /// window after the answer, so a listen stream does not hold a slot.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
    /// Per-case time limit in milliseconds, at least 100 (connect, send, read; default 5000,
    /// an SSE stream at most 3000 unless this is given). An answer still coming at the limit
    /// is "not determined: timed out" unless what came already broke a rule.
    #[arg(long, value_name = "MS")]
    pub timeout_ms: Option<u64>,
    /// Write the whole result as JSON (schema mcpdiff-run/1, see docs/run-json.md).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Known findings (TOML, [[known]] target + rule) that do not fail the run.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// On a non-loopback target, also call this tool (repeatable). Default: readOnlyHint only.
    #[arg(long = "allow-tool")]
    pub allow_tools: Vec<String>,
    /// Run the in-process reference server and these mutants (comma-separated;
    /// `mcpdiff serve --list-mutants` names them). Without it, a run with no selection (or
    /// --no-bundled) takes four.
    #[arg(long, value_delimiter = ',')]
    pub mutants: Option<Vec<String>>,
    /// Requests the shrinker may spend per finding.
    #[arg(long, default_value_t = 200)]
    pub shrink_budget: usize,
    /// Do not send the oracle's probe set (one case per rule) before the generated cases:
    /// measures what generation alone finds.
    #[arg(long)]
    pub no_probes: bool,
    /// A tool set file (`mcpdiff toolset generate`): the in-process servers publish its tools
    /// beside the fixture, bundled targets load it at start (env MCPDIFF_TOOLS), generated
    /// cases call its tools, and the report says what each target published of it.
    #[arg(long, value_name = "FILE")]
    pub tools: Option<PathBuf>,
    /// Print passed rules and the reason for every rule not observed.
    #[arg(long)]
    pub verbose: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Save every shrunk finding as a corpus entry in DIR (same case and rule: same file);
    /// client findings too (`mcpdiff-client-corpus/1`) when client targets run.
    #[arg(long, value_name = "DIR")]
    pub save_corpus: Option<PathBuf>,
    /// Run these bundled client targets (comma-separated; no value: all): each SDK client
    /// connects to mcpdiff's recording server, lists the served tool set and calls each tool;
    /// the report gets a client matrix. Client targets run only when named here or when
    /// nothing at all is selected. Alone, only clients are run.
    /// They are served --tools when given, else the oracle's calibration and edge sets plus
    /// 40 tools generated from --seed.
    #[arg(long, value_delimiter = ',', num_args = 0.., value_name = "NAME")]
    pub clients: Option<Vec<String>>,
    /// Time limit of one client driver run, in seconds (a driver still running is killed).
    #[arg(long, default_value_t = 90)]
    pub client_timeout: u64,
    /// Driver re-runs the client shrinker may spend per client target.
    #[arg(long, default_value_t = 16)]
    pub client_shrink_runs: usize,
    /// Credentials (see `CredentialArgs`): --header, --foreign-token.
    #[command(flatten)]
    pub creds: super::credentials::CredentialArgs,
    /// --markdown / --junit / --html / --strict (see `mcpdiff report --help`).
    #[command(flatten)]
    pub out: super::report::OutputArgs,
    /// --cacert FILE / --insecure for https:// targets.
    #[command(flatten)]
    pub tls: super::tls::TlsArgs,
    /// Run only shard K of N of the case stream (CI matrix): the same --seed and --cases on N
    /// machines, `--shard 1/N` ... `--shard N/N`, run together exactly the cases of one
    /// unsharded run (the case at position i goes to shard i % N + 1, probes included);
    /// each shard shrinks its own findings; `mcpdiff merge` joins their --json reports.
    /// Needs --seed.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// The protocol revisions to grade, comma-separated: 2026-07-28 (the generated cases),
    /// 2025-11-25 (the legacy initialize/session sequences). Default: both. Each is scored
    /// apart; one the target does not speak is reported "not offered" (never a failure).
    #[arg(long, value_delimiter = ',', value_name = "REV")]
    pub revision: Option<Vec<String>>,
}

/// What the flags decide before anything is started.
pub struct Inputs {
    pub creds: Credentials,
    pub baseline: Baseline,
    pub tls: Tls,
    pub toolset: Option<ToolSet>,
    pub served_surface: Surface,
    pub target_env: Vec<(String, String)>,
    pub seed: u64,
    pub plan: pipeline::RunPlan,
    pub clients: Option<(Vec<Manifest>, ToolSet)>,
    pub shard: mcpdiff::runner::Shard,
    /// `--revision`: the revisions graded, newest first.
    pub revisions: Vec<Revision>,
}

impl RunArgs {
    /// Check the flags and read the files they name. The error is one line.
    /// Err is a String on purpose: it is the final one-line message for `exit::fail` (the
    /// typed errors below it are already rendered), and nothing matches on it.
    pub fn check(&self) -> Result<Inputs, String> {
        let creds = self.creds.load()?;
        let baseline = match &self.baseline {
            Some(p) => Baseline::load(p).map_err(|e| e.to_string())?,
            None => Baseline::default(),
        };
        if self.cases == 0 {
            return Err("--cases must be at least 1".into());
        }
        // each of these was silently raised to its floor (or, for --rate, read as no limit at
        // all): a value the run would not honour is refused with the one it would
        if self.max_time == 0 {
            return Err("--max-time must be at least 1 (seconds for the whole run)".into());
        }
        if self.timeout_ms.is_some_and(|ms| ms < MIN_TIMEOUT_MS) {
            return Err(format!(
                "--timeout-ms must be at least {MIN_TIMEOUT_MS} (milliseconds per case)"
            ));
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if self.client_timeout == 0 {
            return Err("--client-timeout must be at least 1 (seconds per client driver)".into());
        }
        if self.rate.is_some_and(|r| !(r.is_finite() && r > 0.0)) {
            return Err(
                "--rate must be a positive number of requests per second; leave it out for \
                 no limit on loopback (20 per second otherwise)"
                    .into(),
            );
        }
        let shard = match &self.shard {
            Some(text) => mcpdiff::runner::Shard::parse(text).map_err(|e| e.to_string())?,
            None => mcpdiff::runner::Shard::WHOLE,
        };
        // a seed from each machine's clock would give each shard another stream
        if !shard.is_whole() && self.seed.is_none() {
            return Err(format!(
                "--shard {} needs --seed: pass the same --seed to every shard",
                shard.label()
            ));
        }
        let revisions = parse_revisions(self.revision.as_deref())?;
        let tls = self.tls.build()?;
        if let Some(w) = super::tls::warning(&tls) {
            eprintln!("mcpdiff: {w}");
        }
        // find out now, not after a long run, that a result could not be written
        if let Some(path) = &self.json {
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
            if dir.is_some_and(|d| !d.is_dir()) {
                return Err(format!(
                    "cannot write {}: its folder does not exist; create it or pick another \
                     --json path",
                    path.display()
                ));
            }
        }
        // a URL that cannot be parsed is a usage error, not an unreachable target
        for u in &self.urls {
            Endpoint::parse(u).map_err(|e| format!("bad target URL '{u}': {e}"))?;
        }
        let (toolset, served_surface, target_env) = super::toolset::for_run(self.tools.as_deref())?;
        let seed = self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        });
        let plan = pipeline::plan(
            &self.urls,
            self.bundled.as_deref(),
            self.no_bundled,
            self.mutants.as_deref(),
            self.clients.as_deref(),
        );
        let clients = match &plan.clients {
            None => None,
            Some(names) => Some((
                pipeline_clients::select(names).map_err(|e| e.to_string())?,
                pipeline_clients::toolset_for_clients(toolset.as_ref(), seed),
            )),
        };
        Ok(Inputs {
            creds,
            baseline,
            tls,
            toolset,
            served_surface,
            target_env,
            seed,
            plan,
            clients,
            shard,
            revisions,
        })
    }

    /// The per-case limits of `--timeout-ms`.
    pub fn limits(&self) -> Limits {
        let total = Duration::from_millis(self.timeout_ms.unwrap_or(5000).max(MIN_TIMEOUT_MS));
        let defaults = Limits::default();
        Limits {
            total,
            // an SSE stream gets the whole --timeout-ms when it is given, else the default cap
            sse_max_time: if self.timeout_ms.is_some() {
                total
            } else {
                defaults.sse_max_time.min(total)
            },
            ..defaults
        }
    }
}

/// `--revision A,B`: the named revisions, newest first (none named: both).
fn parse_revisions(named: Option<&[String]>) -> Result<Vec<Revision>, String> {
    let Some(named) = named else {
        return Ok(Revision::ALL.to_vec());
    };
    let mut chosen = Vec::new();
    for n in named.iter().map(|n| n.trim()) {
        match Revision::ALL.iter().find(|r| r.as_str() == n) {
            Some(r) => chosen.push(*r),
            None => {
                return Err(format!(
                    "--revision: unknown revision '{n}' (known: {})",
                    Revision::ALL.map(Revision::as_str).join(", ")
                ))
            }
        }
    }
    if chosen.is_empty() {
        return Err("--revision names no revision".into());
    }
    Ok(Revision::ALL
        .into_iter()
        .filter(|r| chosen.contains(r))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_parse_newest_first_and_default_to_both() {
        assert_eq!(parse_revisions(None), Ok(Revision::ALL.to_vec()));
        let both = ["2025-11-25".to_string(), "2026-07-28".to_string()];
        assert_eq!(parse_revisions(Some(&both)), Ok(Revision::ALL.to_vec()));
        assert_eq!(
            parse_revisions(Some(&both[..1])),
            Ok(vec![Revision::V2025_11_25])
        );
        assert!(parse_revisions(Some(&["2024-11-05".to_string()])).is_err());
    }
}
