//! `mcpdiff run [URL...]`: the main job. With URLs it fuzzes those endpoints; with none it
//! starts the reference server and four mutants in process plus every bundled real-SDK
//! target (`targets/`, installed first when missing; `--no-bundled` skips them), so a
//! newcomer's first command shows real findings. Bundled client targets (`kind = "client"`)
//! run after the server matrix against mcpdiff's recording server (`run_clients.rs`).

use mcpdiff::baseline::Baseline;
use mcpdiff::report::{self, terminal};
use mcpdiff::runner::{self, shrink::ShrinkBudget, Progress, PropsGenerator, RunConfig};
use mcpdiff::serve::{self, Variant};
use mcpdiff::transport::{reproducer_tls, Client, Endpoint, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::probes::probes;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Mutants that join the reference server when `run` gets no URL.
const DEFAULT_MUTANTS: [&str; 4] = [
    "origin-unchecked",
    "mcp-method-prefix",
    "no-base64-decode",
    "session-id-header",
];

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff run                                   # reference + 4 mutants + every bundled SDK target (servers, clients)
  mcpdiff run --no-bundled                      # reference server + mutants only, in process
  mcpdiff run --bundled python-sdk,ts-sdk       # only those bundled SDK targets (+ URLs given)
  mcpdiff run --clients                         # only the bundled client SDK targets
  mcpdiff run --clients ts-client --tools t.json    # one client, your tool set
  mcpdiff run http://127.0.0.1:3000/mcp         # your endpoint
  mcpdiff run URL1 URL2 --cases 5000 --seed 7 --json r.json
  mcpdiff run URL --baseline known.toml         # known findings do not fail the run
  mcpdiff run https://127.0.0.1:8443/mcp --cacert ca.pem   # https, private CA (or --insecure)
  mcpdiff run URL -H 'Authorization: Bearer TOKEN'  # a protected endpoint (+ AUTH-* rules)

EXIT STATUS:
  0  no MUST finding outside the baseline
  1  at least one MUST finding outside the baseline
  2  the run could not be done (bad flag, unreachable target, unwritable file, or a
     target that asks for credentials: the message says which --header to add)")]
pub struct Args {
    /// Endpoints to test (http://host:port/path or https://...). None: the in-process reference server, the
    /// mutants named by --mutants (four by default), every bundled SDK server target and
    /// every bundled client target.
    pub urls: Vec<String>,
    /// Start these bundled targets (`mcpdiff targets list`; comma-separated; no value: all)
    /// and test them beside the URLs given. Missing ones are installed first.
    #[arg(long, value_delimiter = ',', num_args = 0.., value_name = "NAME")]
    pub bundled: Option<Vec<String>>,
    /// With no URL: do not start the bundled SDK targets; only the reference server and the
    /// mutants, in process (fast and offline).
    #[arg(long, conflicts_with = "bundled")]
    pub no_bundled: bool,
    /// Cases to generate (each goes to every target of its case stream).
    #[arg(long, default_value_t = 2000)]
    pub cases: u64,
    /// Seed; the same seed gives the same cases. Default: derived from the clock, printed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop generating after this many seconds (shrinking still runs, bounded per finding).
    #[arg(long, default_value_t = 300)]
    pub max_time: u64,
    /// Requests per second across all targets (default: unlimited on loopback, 20 otherwise).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Cases in flight at once.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
    /// Per-case time limit in milliseconds (connect, send, read).
    #[arg(long, default_value_t = 5000)]
    pub timeout_ms: u64,
    /// Write the whole result as JSON (schema mcpdiff-run/1, see docs/run-json.md).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Known findings (TOML, [[known]] target + rule) that do not fail the run.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// On a non-loopback target, also call this tool (repeatable). Default: readOnlyHint only.
    #[arg(long = "allow-tool")]
    pub allow_tools: Vec<String>,
    /// Mutants to run beside the reference server when no URL is given (comma-separated;
    /// `mcpdiff serve --list-mutants` names them). Default: four.
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
    /// the report gets a client matrix. Alone (no URL, no --bundled) only clients are run.
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

fn fail(msg: &str) -> ExitCode {
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
    // client targets: the named ones, or all of them on a no-URL bundled run
    let client_names = match (&args.clients, args.urls.is_empty() && !args.no_bundled) {
        (Some(names), _) => Some(names.clone()),
        (None, true) => Some(Vec::new()),
        (None, false) => None,
    };
    let client_plan = match &client_names {
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
    if let (Some((chosen, set)), true) = (
        &client_plan,
        args.clients.is_some() && args.urls.is_empty() && args.bundled.is_none(),
    ) {
        return clients_only(&args, chosen, set, seed, client_timeout).await;
    }
    // start in-process servers when no URL is given; they stop when `servers` drops
    let mut servers = Vec::new();
    let mut specs: Vec<(String, String)> = Vec::new();
    // bundled SDK targets: with no URL all of them (unless --no-bundled), else those named
    let bundled_names = match (&args.bundled, args.urls.is_empty() && !args.no_bundled) {
        (Some(names), _) => Some(names.clone()),
        (None, true) => Some(Vec::new()),
        (None, false) => None,
    };
    let mut bundled_notes = Vec::new();
    let mut launched: Vec<mcpdiff::targets::Running> = Vec::new();
    if let Some(names) = &bundled_names {
        let all = match mcpdiff::targets::manifest::load_all(
            &mcpdiff::targets::manifest::targets_dir(),
        ) {
            Ok(a) => mcpdiff::targets::manifest::of_kind(
                a,
                mcpdiff::targets::manifest::TargetKind::Server,
            ),
            Err(e) => return fail(&e),
        };
        let chosen = match mcpdiff::targets::manifest::select(all, names) {
            Ok(c) => c,
            Err(e) => return fail(&e),
        };
        let (up, notes) =
            mcpdiff::targets::bring_up_with(&chosen, &target_env, &|l| eprintln!("mcpdiff: {l}"))
                .await;
        for n in &notes {
            eprintln!("mcpdiff: {n}");
        }
        bundled_notes = notes;
        for r in &up {
            specs.push((r.name.clone(), r.url.clone()));
        }
        launched = up;
    }
    if args.urls.is_empty() {
        // the mutants show what a finding looks like even when no SDK could be installed
        let default_mutants: Vec<String> = DEFAULT_MUTANTS.iter().map(|s| s.to_string()).collect();
        let names: Vec<String> = args.mutants.clone().unwrap_or(default_mutants);
        let mut variants = vec![("reference".to_string(), Variant::Reference)];
        for n in names {
            match Variant::mutant(&n) {
                Some(v) => variants.push((format!("{}{n}", runner::disagree::MUTANT_PREFIX), v)),
                None => {
                    return fail(&format!(
                        "unknown mutant '{n}'; `mcpdiff serve --list-mutants` lists them"
                    ))
                }
            }
        }
        for (name, v) in variants {
            let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
            match serve::spawn_with(v, loopback, served_surface.clone()).await {
                Ok(s) => {
                    specs.push((name, s.url.clone()));
                    servers.push(s);
                }
                Err(e) => return fail(&format!("cannot start the in-process {name}: {e}")),
            }
        }
        eprintln!(
            "mcpdiff: no URL given; testing {} bundled SDK target(s), the in-process reference \
             server and {} mutant(s) (pass URLs to test your own endpoints)",
            launched.len(),
            specs.len() - 1 - launched.len()
        );
    } else {
        for u in &args.urls {
            specs.push((u.clone(), u.clone()));
        }
    }

    let limits = Limits {
        total: Duration::from_millis(args.timeout_ms.max(100)),
        ..Limits::default()
    };
    let client = Client::configured(limits, creds.clone(), tls.clone());
    let mut targets = Vec::new();
    let mut all_loopback = true;
    let mut revisions = Vec::new();
    let mut published = Vec::new();
    for (name, url) in &specs {
        match runner::prepare::prepare(name, url, &client, &args.allow_tools).await {
            Ok(t) => {
                all_loopback &= t.loopback;
                // which era the target speaks: evidence for the review (runner::revision)
                let s = t.target.sender.clone();
                let send = |c| runner::Sender::send(&s, c);
                let rev = runner::revision::probe(&t.target.surface.endpoint, send).await;
                let mut target = t.target;
                // only the endpoints the user named are theirs to call protected
                target.surface.protected &= args.urls.contains(url);
                if rev.verdict == runner::revision::RevisionVerdict::DualEra {
                    // rules addressed to servers that support only this revision step aside
                    target.surface.legacy_era = true;
                    target.gen_surface.legacy_era = true;
                    target.notes.push(
                        "answers the legacy initialize handshake too: judged as dual-era".into(),
                    );
                }
                // the origin's server card, the way the public scanner reads it (issue 8)
                let card_opts = mcpdiff::card::ScanOptions {
                    timeout: Duration::from_secs(2),
                    truth: false,
                    catalog: false,
                    tls: tls.clone(),
                    credentials: creds.clone(),
                    ..Default::default()
                };
                match mcpdiff::card::scan(url, &card_opts).await {
                    Ok(c) => {
                        let fix = c.fix.map(|f| format!("; ship: {f}")).unwrap_or_default();
                        target.notes.push(format!(
                            "server card: {} ({}){fix}",
                            c.verdict.as_str(),
                            c.detail
                        ));
                    }
                    Err(e) => target.notes.push(format!("server card: not scanned ({e})")),
                }
                revisions.push(rev);
                // what the target made of the tool set it was asked to load
                published.push(
                    toolset
                        .as_ref()
                        .map(|set| set.compare_published(&target.surface.tools)),
                );
                targets.push(target);
            }
            // a bundled SDK that died after start-up is a note, not a failed run
            Err(e) if launched.iter().any(|r| &r.name == name) => {
                bundled_notes.push(format!("bundled target skipped: {name}: {e}"));
            }
            Err(e) => return fail(&e),
        }
    }
    if targets.is_empty() {
        return fail("no target left to test");
    }
    let rate = args.rate.or(if all_loopback { None } else { Some(20.0) });
    let cfg = RunConfig {
        cases: args.cases,
        seed,
        max_time: Duration::from_secs(args.max_time),
        rate,
        concurrency: args.concurrency.max(1),
        shrink: ShrinkBudget {
            max_requests: args.shrink_budget,
            max_time: Duration::from_secs(10),
            max_time_per_target: Duration::from_secs(60),
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
    // protected targets: the authorization probe family (AUTH-* rules, issue 15)
    mcpdiff::auth::after_run(&client, &mut result).await;
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
    for n in &bundled_notes {
        println!("note: {n}");
    }
    print!(
        "{}",
        mcpdiff::secrets::redact(&terminal::render(&rep, args.verbose))
    );
    if let Some((chosen, set)) = &client_plan {
        rep.clients =
            super::run_clients::run(chosen, set, client_timeout, args.client_shrink_runs).await;
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
    if let Err(e) = write_reports(&rep, &args) {
        return fail(&e);
    }
    if rep.targets.iter().any(|t| t.blocking) || super::run_clients::blocking(&rep.clients) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `run --clients` with no URL and no `--bundled`: only the client matrix, in the same JSON
/// shape (no server targets).
async fn clients_only(
    args: &Args,
    chosen: &[mcpdiff::targets::Manifest],
    set: &mcpdiff_oracle::toolset::ToolSet,
    seed: u64,
    timeout: Duration,
) -> ExitCode {
    let started = std::time::Instant::now();
    let rows = super::run_clients::run(chosen, set, timeout, args.client_shrink_runs).await;
    if let Some(dir) = &args.save_corpus {
        if let Err(e) = super::run_clients::save_corpus(dir, &rows, seed) {
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
        return fail(&e);
    }
    if super::run_clients::blocking(&rep.clients) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `--json` and the other report files of `args`. The findings are on the terminal already
/// when this fails, so nothing is lost.
fn write_reports(rep: &report::RunReport, args: &Args) -> Result<(), String> {
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(rep)
            .map_err(|e| format!("cannot serialize the result: {e}"))?;
        mcpdiff::secrets::write(path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("mcpdiff: wrote {}", path.display());
    }
    super::report::write_outputs(rep, &args.out)
}
