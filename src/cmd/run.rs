//! `mcpdiff run [URL...]`: checks the flags (`run_args.rs`), hands the run to the library
//! pipeline (`mcpdiff::pipeline`: plan, start, prepare, fuzz, report), and prints: progress,
//! the terminal summary, the client matrix (`run_clients.rs`) and the report files.
//! `--max-time` bounds the whole run: installing and starting bundled targets, then the
//! matrix and the reports in what is left.

use super::exit::{self, fail};
use super::run_args::RunArgs;
use super::run_clients;
use mcpdiff::pipeline::{self, clients as pipeline_clients, Settings, StartOptions, TargetSpec};
use mcpdiff::report::{revisions, terminal, undetermined};
use mcpdiff::runner::Progress;
use mcpdiff::transport::Client;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The progress bar, and the pipeline's lines on standard error.
struct Bar(indicatif::ProgressBar);

impl Progress for Bar {
    fn phase(&self, what: &str) {
        self.0.set_message(what.to_string());
    }
    fn case_done(&self) {
        self.0.inc(1);
    }
}

impl pipeline::Events for Bar {
    fn line(&self, text: &str) {
        eprintln!("mcpdiff: {}", mcpdiff::secrets::redact(text));
    }
    fn fuzzed(&self) {
        self.0.finish_and_clear();
    }
}

pub fn run(args: RunArgs) -> ExitCode {
    match exit::runtime() {
        Ok(rt) => rt.block_on(run_async(args)),
        Err(e) => fail(&e),
    }
}

async fn run_async(args: RunArgs) -> ExitCode {
    let mut inp = match args.check() {
        Ok(i) => i,
        Err(e) => return fail(&e),
    };
    let client_timeout = Duration::from_secs(args.client_timeout.max(1));
    // --max-time starts now: installing and starting bundled targets count
    let began = Instant::now();
    let max_time = Duration::from_secs(args.max_time.max(1));
    if let (Some((chosen, set)), true) = (&inp.clients, inp.plan.clients_only(&args.urls)) {
        let until = Instant::now() + max_time;
        return run_clients::clients_only(&args, chosen, set, inp.seed, client_timeout, until)
            .await;
    }
    let log = |l: &str| eprintln!("mcpdiff: {l}");
    // the client matrix is not part of the case stream: once per sharded run, like the
    // authorization probes (`mcpdiff merge` keeps the one it finds)
    if inp.shard.index > 1 && inp.clients.take().is_some() {
        log("client targets run with --shard 1/N only");
    }
    let opts = StartOptions {
        mutants: args.mutants.as_deref(),
        served_surface: &inp.served_surface,
        target_env: &inp.target_env,
        has_user_urls: !args.urls.is_empty(),
    };
    let mut laps = pipeline::timing::Stages::start();
    let mut started = match pipeline::start(&inp.plan, &opts, &log).await {
        Ok(s) => s,
        Err(e) => return fail(&e.to_string()),
    };
    let max_time = match pipeline::time_left_after_setup(began.elapsed(), max_time) {
        Ok(left) => left,
        Err(e) => {
            started.stop().await;
            return fail(&e.to_string());
        }
    };
    laps.lap("start");
    let mut specs = started.specs.clone();
    specs.extend(args.urls.iter().map(|u| TargetSpec::user_url(u)));
    if specs.is_empty() && inp.clients.is_none() {
        return fail("nothing to test: no bundled target came up");
    }
    let settings = Settings {
        client: Client::configured(args.limits(), inp.creds, inp.tls),
        allow_tools: args.allow_tools.clone(),
        toolset: inp.toolset,
        cases: args.cases,
        seed: inp.seed,
        rate: args.rate,
        concurrency: args.concurrency,
        shrink_budget: args.shrink_budget,
        probes: !args.no_probes,
        max_time,
        clients_after: inp.clients.is_some(),
        shard: inp.shard,
        revisions: inp.revisions.clone(),
    };
    let bar = Bar(indicatif::ProgressBar::new(inp.shard.share(args.cases)));
    if args.quiet {
        bar.0
            .set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.0.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {msg:10} [{bar:40}] {pos}/{len} cases {per_sec} eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // Ctrl-C while fuzzing: stop the bundled targets (dropping them kills them by PID)
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let matrix = match pipeline::run_matrix(&specs, &settings, &bar, ctrl_c).await {
        Ok(m) => m,
        Err(pipeline::Interrupted) => {
            drop(started);
            return fail("interrupted; bundled targets stopped");
        }
    };
    laps.lap("server matrix");
    let mut notes = std::mem::take(&mut started.notes);
    started.stop().await;
    laps.lap("stop");
    let mut rep = matrix.report(&inp.baseline, &settings.client);
    notes.extend(matrix.notes.iter().cloned());
    for n in &notes {
        println!("note: {n}");
    }
    let summary = terminal::render(&rep, args.verbose);
    print!("{}", mcpdiff::secrets::redact(&summary));
    if let Some((chosen, set)) = &inp.clients {
        let shrink_runs = args.client_shrink_runs;
        laps.lap("report");
        rep.clients = run_clients::run(chosen, set, client_timeout, matrix.end, shrink_runs).await;
        laps.lap("clients");
    }
    if let Some(dir) = &args.save_corpus {
        match mcpdiff::corpus::save_run(dir, &matrix.result, inp.seed) {
            Ok(line) => eprintln!("mcpdiff: {line}"),
            Err(e) => return fail(&e.to_string()),
        }
        let legacy = matrix.legacy_outcomes();
        if legacy.iter().any(|(_, _, o, _)| !o.findings.is_empty()) {
            match mcpdiff::corpus::save_legacy_run(dir, &legacy, inp.seed) {
                Ok(line) => eprintln!("mcpdiff: {line}"),
                Err(e) => return fail(&e.to_string()),
            }
        }
        if inp.clients.is_some() {
            if let Err(code) = run_clients::save_corpus(dir, &rep.clients, inp.seed) {
                return code;
            }
        }
    }
    for k in &rep.baseline_stale {
        println!(
            "stale baseline entry: {} {} (no longer reproduces)",
            k.target, k.rule
        );
    }
    if let Err(e) = run_clients::write_reports(&rep, &args) {
        return fail(&e);
    }
    laps.lap("save and write");
    let untested = matrix.untested_names();
    if !untested.is_empty() {
        // the run could not be done for every target: the report says which and why
        return fail(&format!("not tested: {}", untested.join(", ")));
    }
    // a target that answered yet decided nothing was not tested either (the reports,
    // written above, show what its answers were)
    let undecided: Vec<String> = rep
        .targets
        .iter()
        .filter_map(|t| undetermined::nothing_decided(t).map(|why| (t, why)))
        .map(|(t, why)| exit::nothing_decided(&t.url, &why))
        .collect();
    if !undecided.is_empty() {
        return fail(&undecided.join("; "));
    }
    // each revision scores apart; a MUST finding of any revision fails the run
    let blocking = rep.targets.iter().any(revisions::any_blocking);
    exit::findings(blocking || pipeline_clients::blocking(&rep.clients))
}
