//! `mcpdiff replay [DIR|FILE...] [URL...]`: re-judge every stored case with today's oracle (a
//! changed Verdict is oracle drift and fails, unless `--bless` rewrites it), and with URLs or
//! `--reference` send each case to the targets and say per case: still failing, fixed, newly
//! failing. Each target's answer is judged with the surface that target declares, discovered
//! and era-probed as a run does (`pipeline::prepare::judged_surface`); the stored surface
//! decides the drift check, and stands in for a target whose surface could not be read. Each
//! target (`replay_target.rs`) keeps `run`'s safety gate off loopback. Client entries
//! (`mcpdiff-client-corpus/1`) are re-judged with today's client judge only: they are never
//! sent to targets. The format and the comparisons live in `mcpdiff::corpus`. Authorization
//! entries (`AUTH-*`, `corpus::auth`) are re-judged by the authorization judge and sent exactly
//! as written (their own credentials, placeholders filled from --header / --foreign-token).
//! 2025-11-25 sequence entries (`mcpdiff-legacy-corpus/1`) are re-judged on their stored
//! answers and replayed step by step (`replay_legacy.rs`; `--reference` sends them to the
//! dual-era reference). Connection entries (`corpus::connection`) are sent as their probe sent
//! them, connection by connection (`replay_connection.rs`).

use super::exit::{self, fail};
use super::replay_client::{client_case, ClientReplay};
use super::replay_connection::replay_sequence;
use super::replay_legacy::{replay_legacy, Judged};
use super::replay_target::{at_endpoint, Gate, ReplayTarget};
use super::replay_twin::with_twin;
use super::run_args::MIN_TIMEOUT_MS;
use mcpdiff::corpus::replay::stored_for;
use mcpdiff::corpus::{classify, classify_auth, load_all, rejudge, store, Item, Status};
use mcpdiff::serve::{self, Variant};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::judge;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff replay                                # re-judge corpus/ (oracle drift only)
  mcpdiff replay corpus --reference             # ... and replay against the reference server
  mcpdiff replay corpus http://127.0.0.1:3000/mcp
  mcpdiff replay corpus https://127.0.0.1:8443/mcp --cacert ca.pem
  mcpdiff replay corpus https://mcp.example.com/mcp --allow-tool create_note   # off loopback
  mcpdiff replay --bless                        # accept today's verdicts into the files

EXIT STATUS:
  0  no drift, no MUST finding on any target
  1  a stored verdict changed (drift), or a target fails a MUST rule on a stored case
  2  a corpus file is unreadable, or a target could not be reached, or none of its answers
     decided anything (every one cut by --timeout-ms, refused by its authorization layer, or
     no longer exercising the rule it failed when saved)

Each target is discovered first, as `run` discovers it, and its answers are judged with what it
declares (its tools, lists and era), not with the surface the case was saved with. Off
loopback, a stored call of a tool the target does not annotate readOnlyHint is not sent
unless --allow-tool names it (as in `run`).

A case whose answer decides nothing is shown as \"not determined\" (timed out, unauthorized,
unreachable) and counted apart: it neither passes nor fails. A case saved failing is \"fixed\"
only when today's judgement of the answer exercises the rules it failed; when one is no longer
exercised (the target stopped declaring the tool the case calls, say), it is \"not determined:
no longer exercised\", with that rule named. A connection probe's entry
(BASE-STATELESS-NO-PRIOR, *-LIST-STABLE) is sent as its whole sequence, connection by
connection, and judged whole; a sequence that decides nothing (a list that changed between
its fresh readings, a connection not kept open) is \"not determined: inconclusive\"; a
list's further pages are asked for with the cursors the target gives in the replay.")]
pub struct ReplayArgs {
    /// Corpus folders or files, and target URLs (http://...). No folder: `corpus`.
    pub inputs: Vec<String>,
    /// Also replay against the in-process reference server.
    #[arg(long)]
    pub reference: bool,
    /// Rewrite drifted verdicts with today's instead of failing.
    #[arg(long)]
    pub bless: bool,
    /// Per-case time limit in milliseconds (at least 100).
    #[arg(long, default_value_t = 5000)]
    pub timeout_ms: u64,
    /// Also print passing cases.
    #[arg(long)]
    pub verbose: bool,
    /// On a non-loopback target, also send stored calls of this tool (repeatable). Default:
    /// only calls of tools the target annotates readOnlyHint, as in `run`.
    #[arg(long = "allow-tool", value_name = "NAME")]
    pub allow_tools: Vec<String>,
    /// --cacert FILE / --insecure for https:// targets.
    #[command(flatten)]
    pub tls: super::tls::TlsArgs,
    /// -H/--header fields sent with every replayed case (secrets, as in `run`).
    #[command(flatten)]
    pub creds: super::credentials::CredentialArgs,
}

pub fn run(args: ReplayArgs) -> ExitCode {
    match exit::runtime() {
        Ok(rt) => rt.block_on(run_async(args)),
        Err(e) => fail(&e),
    }
}

async fn run_async(args: ReplayArgs) -> ExitCode {
    let (urls, mut paths): (Vec<String>, Vec<String>) = args
        .inputs
        .iter()
        .cloned()
        .partition(|s| s.starts_with("http://") || s.starts_with("https://"));
    if paths.is_empty() {
        paths.push("corpus".to_string());
    }
    let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();

    let mut server = None;
    // 2025-11-25 sequence entries go to the dual-era reference (the modern one does not
    // answer `initialize`); the other entries keep the modern reference they were saved with
    let mut dual_era = None;
    // (name, URL, named by the user)
    let mut specs: Vec<(String, String, bool)> =
        urls.iter().map(|u| (u.clone(), u.clone(), true)).collect();
    if args.reference {
        let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        match serve::spawn(Variant::Reference, loopback).await {
            Ok(s) => {
                specs.insert(0, ("reference".to_string(), s.url.clone(), false));
                server = Some(s);
                let opts = serve::ServeOptions {
                    dual_era: Some(serve::legacy::LegacyVariant::Reference),
                    ..serve::ServeOptions::default()
                };
                let surface = mcpdiff_oracle::fixture::surface();
                match serve::spawn_full(Variant::Reference, loopback, surface, opts).await {
                    Ok(d) => dual_era = Some(d),
                    Err(e) => {
                        return fail(&format!(
                            "cannot start the in-process dual-era reference server: {e}"
                        ))
                    }
                }
            }
            Err(e) => {
                return fail(&format!(
                    "cannot start the in-process reference server: {e}"
                ));
            }
        }
    }
    let mut targets = Vec::new();
    for (name, url, user) in specs {
        match ReplayTarget::new(name, url.clone(), user) {
            Ok(t) => targets.push(t),
            Err(e) => return fail(&format!("bad target URL '{url}': {e}")),
        }
    }
    let tls = match args.tls.build() {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    let creds = match args.creds.load() {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    if args.timeout_ms < MIN_TIMEOUT_MS {
        return fail(&format!(
            "--timeout-ms must be at least {MIN_TIMEOUT_MS} (milliseconds per case)"
        ));
    }
    if let Some(w) = super::tls::warning(&tls) {
        eprintln!("mcpdiff: {w}");
    }
    let client = Client::configured(
        Limits {
            total: Duration::from_millis(args.timeout_ms),
            ..Limits::default()
        },
        creds,
        tls,
    );
    for t in &mut targets {
        // an https target whose handshake fails cannot be replayed: say why, once
        if let Err(e) = client.check_tls(&t.endpoint).await {
            return fail(&e.to_string());
        }
        // a case's expectations depend on what the target declares (its tools, their
        // annotations, its lists and cursors, its era): each target is judged with its own
        // surface, as the run that saved the case judged the target it ran against
        if let Err(e) = t.discover(&client).await {
            return fail(&e);
        }
    }

    let (mut entries, mut unreadable, mut drifted, mut blessed, mut blocking) = (0, 0, 0, 0, false);
    let mut client_cases = 0;
    // authorization entries that need a credential this replay was not given
    let mut unsendable = 0;
    let dual_era_endpoint = match dual_era.as_ref().map(|d| Endpoint::parse(&d.url)) {
        Some(Ok(e)) => Some(e),
        Some(Err(e)) => return fail(&format!("the dual-era reference's own URL: {e}")),
        None => None,
    };
    for loaded in load_all(&paths) {
        let mut l = match loaded {
            Ok(Item::Server(l)) => l,
            Ok(Item::Legacy(l)) => {
                let reference = dual_era_endpoint.as_ref();
                let at = (&client, targets.as_mut_slice(), reference);
                match replay_legacy(l, args.bless, args.verbose, at.0, at.1, at.2).await {
                    Ok((judged, must)) => {
                        blocking |= must;
                        match judged {
                            Judged::Clean => {}
                            Judged::Drifted => drifted += 1,
                            Judged::Blessed => blessed += 1,
                        }
                    }
                    Err(()) => {
                        unreadable += 1;
                        continue;
                    }
                }
                entries += 1;
                continue;
            }
            Ok(Item::Client(c)) => {
                match client_case(c, args.bless) {
                    Ok(ClientReplay::Clean) => {}
                    Ok(ClientReplay::Drifted) => drifted += 1,
                    Ok(ClientReplay::Blessed) => blessed += 1,
                    Err(()) => {
                        unreadable += 1;
                        continue;
                    }
                }
                entries += 1;
                client_cases += 1;
                continue;
            }
            Err(e) => {
                unreadable += 1;
                eprintln!("error: {e}");
                continue;
            }
        };
        let file = l.path.display().to_string();
        let r = match rejudge(&l.entry) {
            Ok(r) => r,
            Err(e) => {
                unreadable += 1;
                eprintln!("error: {file}: {e}");
                continue;
            }
        };
        entries += 1;
        if !r.drift.is_empty() {
            if args.bless {
                l.entry.verdict = r.now.clone();
                if let Err(e) = store::write(&l.path, &l.entry) {
                    eprintln!("error: {e}");
                    unreadable += 1;
                } else {
                    blessed += 1;
                    println!("blessed  {file}");
                }
            } else {
                drifted += 1;
                println!("DRIFT    {file}: the oracle's verdict changed");
                for d in &r.drift {
                    println!("           {d}");
                }
            }
        }
        let gate = Gate {
            stored: &r.surface,
            allow_tools: &args.allow_tools,
        };
        if let Some(seq) = &r.sequence {
            blocking |= replay_sequence(
                &client,
                &l.entry,
                seq,
                &gate,
                &file,
                args.verbose,
                &mut targets,
            )
            .await;
            continue;
        }
        let (auth, foreign) = mcpdiff::corpus::auth::needs(&r.case);
        let creds = client.credentials();
        let lacking = r.auth.is_some()
            && ((auth && !creds.has_authorization()) || (foreign && !creds.has_foreign_token()));
        if lacking && !targets.is_empty() {
            // sent without the credential it names, its answer would say nothing
            unsendable += 1;
            println!(
                "not sent       {file}: pass {} to send this authorization case",
                if auth {
                    "-H 'Authorization: Bearer TOKEN'"
                } else {
                    "--foreign-token TOKEN"
                }
            );
            continue;
        }
        for t in &mut targets {
            if t.holds_back([&r.case], &gate, &file) {
                continue;
            }
            let mut case = r.case.clone();
            at_endpoint(&mut case, &r.surface.endpoint, &t.endpoint);
            // an authorization case goes exactly as written: it carries its own credentials
            let obs = match r.auth {
                Some(_) => client.send_exact(&case, &t.endpoint).await,
                None => client.send(&case, &t.endpoint).await,
            };
            if !obs.is_refused() {
                t.reached += 1;
            }
            let stored = stored_for(&l.entry, &t.name, &t.url);
            let (out, twin) = match (r.auth, &t.surface) {
                (Some(kind), _) => (classify_auth(kind, stored, &obs, &t.url), None),
                // the case as sent (at the target's endpoint) against the target's surface
                (None, Some(surface)) => {
                    let verdict = judge(&case, surface);
                    let out = classify(&verdict, stored, &obs);
                    let (sent, judged) = ((&t.endpoint, &case), (&case, &verdict, surface));
                    with_twin(&client, sent, judged, (stored, &obs), out).await
                }
                (None, None) => {
                    // judged as stored, at the stored surface's endpoint
                    let out = classify(&r.verdict, stored, &obs);
                    let (sent, judged) = ((&t.endpoint, &case), (&r.case, &r.verdict, &r.surface));
                    with_twin(&client, sent, judged, (stored, &obs), out).await
                }
            };
            blocking |= out.blocking;
            *t.counts.entry(out.status).or_default() += 1;
            if out.status != Status::Passing || args.verbose {
                // the rules failing now, or those failed when recorded and not exercised now
                let rules = if out.status == Status::Unexercised {
                    &out.unexercised
                } else {
                    &out.failing
                };
                println!(
                    "{:<14} {file}  {}  [{}]  observed {}",
                    out.status.label(),
                    t.name,
                    rules.join(", "),
                    obs.summary()
                );
            }
            if let Some(note) = twin {
                println!("{:<14} {file}  {}  {note}", "", t.name);
            }
        }
    }
    if let Some(s) = server {
        s.shutdown().await;
    }
    if let Some(d) = dual_era {
        d.shutdown().await;
    }

    println!(
        "replay: {entries} case(s), {unreadable} unreadable, {drifted} drifted, {blessed} blessed"
    );
    if client_cases > 0 {
        println!("  {client_cases} client case(s) re-judged (not sent to targets)");
    }
    let mut unreachable = false;
    for t in &targets {
        // client cases are never sent: only server cases can show a target is down
        let sent = entries > client_cases + unsendable + t.gated;
        unreachable |= t.print_summary(sent);
    }
    let found = drifted > 0 || blocking;
    if !found && (unreadable > 0 || unreachable) {
        ExitCode::from(exit::COULD_NOT_RUN)
    } else {
        exit::findings(found)
    }
}
