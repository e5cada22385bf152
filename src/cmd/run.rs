//! `mcpdiff run [URL...]`: the main job. With no selection it starts the reference server
//! and four mutants in process plus every bundled real-SDK target (`targets/`, installed
//! first when missing) and every bundled client target, so a newcomer's first command shows
//! real findings; with a selection (URLs, `--bundled`, `--mutants`, `--no-bundled`,
//! `--clients`) it runs exactly what is named (`run_plan.rs`). Targets are prepared at once
//! (`run_prepare.rs`); bundled client targets (`kind = "client"`) run after the server matrix
//! against mcpdiff's recording server (`run_clients.rs`). `--max-time` bounds everything after
//! set-up, reports included.

use super::{run_plan, run_prepare};
use mcpdiff::baseline::Baseline;
use mcpdiff::report::{self, terminal, undetermined};
use mcpdiff::runner::{self, shrink::ShrinkBudget, Progress, PropsGenerator, RunConfig};
use mcpdiff::transport::{reproducer_tls, Client, Endpoint, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::probes::probes;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Mutants that join the reference server when `run` gets no URL.
pub(crate) const DEFAULT_MUTANTS: [&str; 4] = [
    "origin-unchecked",
    "mcp-method-prefix",
    "no-base64-decode",
    "session-id-header",
];

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

EXIT STATUS:
  0  no MUST finding outside the baseline
  1  at least one MUST finding outside the baseline
  2  the run could not be done (bad flag, unreachable target, unwritable file, or a
     target that asks for credentials: the message says which --header to add); a
     target that could not be tested still gets an entry in --json")]
pub struct Args {
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
    /// Bound the whole run to this many seconds: discovery, cases, slow-tool probes,
    /// shrinking, client drivers and reports (installing and starting bundled targets comes
    /// before the clock starts). A shrink cut short keeps the smallest case it reached.
    #[arg(long, default_value_t = 300)]
    pub max_time: u64,
    /// Requests per second across all targets (default: unlimited on loopback, 20 otherwise).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Cases in flight at once.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
    /// Per-case time limit in milliseconds (connect, send, read; default 5000, an SSE stream
    /// at most 3000 unless this is given). An answer still coming at the limit is "not
    /// determined: timed out" unless what came already broke a rule.
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
}

struct Bar(indicatif::ProgressBar);

impl Progress for Bar {
    fn phase(&self, what: &str) {
        self.0.set_message(what.to_string());
    }
    fn case_done(&self) {
        self.0.inc(1);
    }
}

pub(crate) fn fail(msg: &str) -> ExitCode {
    eprintln!("mcpdiff: {}", mcpdiff::secrets::redact(msg));
    ExitCode::from(2)
}

pub fn run(args: Args) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return fail(&format!("cannot start the async runtime: {e}")),
    };
    rt.block_on(run_async(args))
}

async fn run_async(args: Args) -> ExitCode {
    let creds = match args.creds.load() {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    let baseline = match &args.baseline {
        Some(p) => match Baseline::load(p) {
            Ok(b) => b,
            Err(e) => return fail(&e),
        },
        None => Baseline::default(),
    };
    if args.cases == 0 {
        return fail("--cases must be at least 1");
    }
    let tls = match args.tls.build() {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    if let Some(w) = super::tls::warning(&tls) {
        eprintln!("mcpdiff: {w}");
    }
    // find out now, not after a long run, that a result could not be written
    if let Some(path) = &args.json {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        if dir.is_some_and(|d| !d.is_dir()) {
            return fail(&format!(
                "cannot write {}: its folder does not exist; create it or pick another --json path",
                path.display()
            ));
        }
    }
    // a URL that cannot be parsed is a usage error, not an unreachable target
    for u in &args.urls {
        if let Err(e) = Endpoint::parse(u) {
            return fail(&format!("bad target URL '{u}': {e}"));
        }
    }
    let (toolset, served_surface, target_env) = match super::toolset::for_run(args.tools.as_deref())
    {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    let plan = run_plan::plan(
        &args.urls,
        args.bundled.as_deref(),
        args.no_bundled,
        args.mutants.as_deref(),
        args.clients.as_deref(),
    );
    let client_plan = match &plan.clients {
        None => None,
        Some(names) => {
            let chosen = match super::run_clients::select(names) {
                Ok(c) => c,
                Err(e) => return fail(&e),
            };
            Some((
                chosen,
                super::run_clients::toolset_for_clients(toolset.as_ref(), seed),
            ))
        }
    };
    let client_timeout = Duration::from_secs(args.client_timeout.max(1));
    let max_time = Duration::from_secs(args.max_time.max(1));
    if let (Some((chosen, set)), true) = (&client_plan, plan.clients_only(&args.urls)) {
        let until = Instant::now() + max_time;
        return super::run_clients::clients_only(&args, chosen, set, seed, client_timeout, until)
            .await;
    }
    // start what the plan names; in-process servers stop when `servers` drops, bundled
    // targets when `launched` drops (by PID)
    let started = match run_prepare::start(&plan, &args, &served_surface, &target_env).await {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let run_prepare::Started {
        servers,
        mut specs,
        launched,
        mut bundled_notes,
    } = started;
    for u in &args.urls {
        specs.push((u.clone(), u.clone()));
    }
    if specs.is_empty() && client_plan.is_none() {
        return fail("nothing to test: no bundled target came up");
    }

    // --max-time starts here: set-up (installing and starting bundled targets) is done
    let began = Instant::now();
    let end = began + max_time;
    let total = Duration::from_millis(args.timeout_ms.unwrap_or(5000).max(100));
    let defaults = Limits::default();
    let limits = Limits {
        total,
        // an SSE stream gets the whole --timeout-ms when it is given, else the default cap
        sse_max_time: if args.timeout_ms.is_some() {
            total
        } else {
            defaults.sse_max_time.min(total)
        },
        ..defaults
    };
    let client = Client::configured(limits, creds.clone(), tls.clone());
    // discovery gets at most half of the run
    let prepared = run_prepare::prepare_all(
        &specs,
        &client,
        &args.allow_tools,
        toolset.as_ref(),
        &args.urls,
        began + max_time / 2,
    )
    .await;
    let mut targets = Vec::new();
    let mut all_loopback = true;
    let mut revisions = Vec::new();
    let mut published = Vec::new();
    let mut untested = Vec::new();
    for p in prepared {
        match p {
            Ok(r) => {
                all_loopback &= r.loopback;
                revisions.push(r.revision);
                published.push(r.published);
                targets.push(r.target);
            }
            // a bundled SDK that died after start-up is a note, not a failed run
            Err(u) if launched.iter().any(|r| r.name == u.name) => {
                bundled_notes.push(format!("bundled target skipped: {}: {}", u.name, u.error));
            }
            Err(u) => {
                let line = format!("{} not tested: {}", u.name, u.error);
                eprintln!("mcpdiff: {}", mcpdiff::secrets::redact(&line));
                untested.push(u);
            }
        }
    }
    let rate = args.rate.or(if all_loopback { None } else { Some(20.0) });
    // the client matrix, when planned, keeps a third of what is left
    let left = end.saturating_duration_since(Instant::now());
    let matrix_time = if client_plan.is_some() {
        left * 2 / 3
    } else {
        left
    };
    let cfg = RunConfig {
        cases: args.cases,
        seed,
        // a second stays for the reports
        max_time: matrix_time.saturating_sub(Duration::from_secs(1)),
        rate,
        concurrency: args.concurrency.max(1),
        shrink: ShrinkBudget {
            max_requests: args.shrink_budget,
            max_time: Duration::from_secs(10),
            max_time_per_target: Duration::from_secs(60),
            deadline: Some(end),
        },
        max_disagreements: 20,
        probes: if args.no_probes {
            Vec::new()
        } else {
            probes(&fixture::surface())
                .into_iter()
                .map(|p| (p.rule, p.case))
                .collect()
        },
    };
    let result = if targets.is_empty() {
        runner::RunResult::empty(began.elapsed())
    } else {
        eprintln!(
            "mcpdiff: {} target(s), {} cases, seed {seed}{}",
            targets.len(),
            cfg.cases,
            rate.map(|r| format!(", at most {r} requests/s"))
                .unwrap_or_default()
        );
        let bar = indicatif::ProgressBar::new(cfg.cases);
        if args.quiet {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {msg:10} [{bar:40}] {pos}/{len} cases {per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let generator = PropsGenerator::default();
        let progress = Bar(bar.clone());
        // Ctrl-C: stop the bundled targets (dropping `launched` kills them by PID) and give up
        let mut result = tokio::select! {
            r = runner::run(targets, &generator, &cfg, &progress) => r,
            _ = tokio::signal::ctrl_c() => {
                bar.finish_and_clear();
                drop(launched);
                return fail("interrupted; bundled targets stopped");
            }
        };
        bar.finish_and_clear();
        // protected targets: the authorization probe family (AUTH-* rules), within --max-time
        let probing = mcpdiff::auth::after_run(&client, &mut result);
        if tokio::time::timeout_at(end.into(), probing).await.is_err() {
            eprintln!("mcpdiff: authorization probes cut short by --max-time");
        }
        result
    };
    for s in servers {
        s.shutdown().await;
    }
    // the bundled targets are stopped here; their logs stay in targets/<name>/.log/
    let versions: Vec<(String, String)> = launched
        .iter()
        .map(|r| (r.name.clone(), r.version.clone()))
        .collect();
    drop(launched);

    let mut rep = report::build(
        &result,
        &cfg,
        &baseline,
        &|case, url| match Endpoint::parse(url) {
            // an authorization probe carries its own credentials (or none, on purpose)
            Ok(e) if mcpdiff::auth::is_auth_probe(case) => {
                reproducer_tls(case, &e, &Default::default(), tls.options())
            }
            Ok(e) => reproducer_tls(case, &e, &creds, tls.options()),
            Err(_) => String::new(),
        },
    );
    super::tls::annotate(&mut rep, &tls);
    // the runner keeps target order, so the probes line up with the report's targets
    for ((t, r), p) in rep.targets.iter_mut().zip(revisions).zip(published) {
        t.revision = Some(r);
        t.toolset = p;
    }
    for t in rep.targets.iter_mut() {
        t.version = versions
            .iter()
            .find(|(n, _)| n == &t.name)
            .map(|(_, v)| v.clone());
    }
    for u in &untested {
        rep.targets
            .push(undetermined::untested(&u.name, &u.url, u.reason, &u.error));
    }
    for n in &bundled_notes {
        println!("note: {n}");
    }
    print!(
        "{}",
        mcpdiff::secrets::redact(&terminal::render(&rep, args.verbose))
    );
    if let Some((chosen, set)) = &client_plan {
        rep.clients =
            super::run_clients::run(chosen, set, client_timeout, end, args.client_shrink_runs)
                .await;
    }
    if let Some(dir) = &args.save_corpus {
        match mcpdiff::corpus::save_run(dir, &result, seed) {
            Ok(line) => eprintln!("mcpdiff: {line}"),
            Err(e) => return fail(&e),
        }
        if client_plan.is_some() {
            if let Err(e) = super::run_clients::save_corpus(dir, &rep.clients, seed) {
                return e;
            }
        }
    }
    for k in &rep.baseline_stale {
        println!(
            "stale baseline entry: {} {} (no longer reproduces)",
            k.target, k.rule
        );
    }
    if let Err(e) = super::run_clients::write_reports(&rep, &args) {
        return fail(&e);
    }
    if !untested.is_empty() {
        // the run could not be done for every target: the report says which and why
        let names: Vec<&str> = untested.iter().map(|u| u.name.as_str()).collect();
        return fail(&format!("not tested: {}", names.join(", ")));
    }
    if rep.targets.iter().any(|t| t.blocking) || super::run_clients::blocking(&rep.clients) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
