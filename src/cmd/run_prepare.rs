//! Starting and preparing the targets of `mcpdiff run`: the bundled SDK servers and the
//! in-process servers the plan names (`start`), then, all at once and within a time bound,
//! discovery,
//! the revision probe (`runner::revision`), the server-card scan and the `--tools` check. A
//! target that refuses every connection, or whose preparation does not end in its share of
//! `--max-time`, is kept as `Untested` so the reports still carry an entry for it.

use super::run::{Args, DEFAULT_MUTANTS};
use super::run_plan::Plan;
use mcpdiff::runner::{self, prepare::prepare, revision, NetSender, Target};
use mcpdiff::serve::{self, RunningServer, Variant};
use mcpdiff::targets::Running;
use mcpdiff::transport::Client;
use mcpdiff_oracle::toolset::{PublishedCheck, ToolSet};
use mcpdiff_oracle::{Surface, Undetermined};
use std::time::{Duration, Instant};

/// A target ready to be fuzzed.
pub struct Ready {
    pub target: Target<NetSender>,
    pub loopback: bool,
    pub revision: revision::RevisionEvidence,
    pub published: Option<PublishedCheck>,
}

/// A target that could not be tested.
pub struct Untested {
    pub name: String,
    pub url: String,
    pub reason: Undetermined,
    pub error: String,
}

/// Prepare every `(name, url)` concurrently; each gives up at `until`.
pub async fn prepare_all(
    specs: &[(String, String)],
    client: &Client,
    allow_tools: &[String],
    toolset: Option<&ToolSet>,
    user_urls: &[String],
    until: Instant,
) -> Vec<Result<Ready, Untested>> {
    let jobs = specs.iter().map(|(name, url)| async move {
        let untested = |reason, error: String| Untested {
            name: name.clone(),
            url: url.clone(),
            reason,
            error,
        };
        let left = until.saturating_duration_since(Instant::now());
        let user = user_urls.contains(url);
        let preparing = one(name, url, client, allow_tools, toolset, user);
        match tokio::time::timeout_at(until.into(), preparing).await {
            Ok(Ok(ready)) => Ok(ready),
            // `prepare` fails on an authorization challenge at discovery
            // (`auth::unauthorized_message`), or when the target cannot be reached: a refused
            // connection ("cannot connect ..."), a failed TLS handshake ("TLS: ...")
            Ok(Err(e)) if is_auth_refusal(&e) => Err(untested(Undetermined::Unauthorized, e)),
            Ok(Err(e)) => Err(untested(Undetermined::Unreachable, e)),
            Err(_) => Err(untested(
                Undetermined::TimedOut,
                format!(
                    "discovery did not finish within its share of --max-time ({} s)",
                    left.as_secs()
                ),
            )),
        }
    });
    futures::future::join_all(jobs).await
}

/// Whether a preparation error is the discovery-time authorization stop (src/auth.rs words).
fn is_auth_refusal(e: &str) -> bool {
    e.contains("requires authorization") || e.contains("refused the credentials")
}

async fn one(
    name: &str,
    url: &str,
    client: &Client,
    allow_tools: &[String],
    toolset: Option<&ToolSet>,
    user: bool,
) -> Result<Ready, String> {
    let t = prepare(name, url, client, allow_tools).await?;
    // which era the target speaks: evidence for the review (runner::revision)
    let s = t.target.sender.clone();
    let send = |c| runner::Sender::send(&s, c);
    let rev = revision::probe(&t.target.surface.endpoint, send).await;
    let mut target = t.target;
    // only the endpoints the user named are theirs to call protected
    target.surface.protected &= user;
    if rev.verdict == revision::RevisionVerdict::DualEra {
        // rules addressed to servers that support only this revision step aside
        target.surface.legacy_era = true;
        target.gen_surface.legacy_era = true;
        target
            .notes
            .push("answers the legacy initialize handshake too: judged as dual-era".into());
    }
    // the origin's server card, the way the public scanner reads it (issue 8)
    let card_opts = mcpdiff::card::ScanOptions {
        timeout: Duration::from_secs(2),
        truth: false,
        catalog: false,
        tls: client.tls().clone(),
        credentials: client.credentials().clone(),
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
    // what the target made of the tool set it was asked to load
    let published = toolset.map(|set| set.compare_published(&target.surface.tools));
    Ok(Ready {
        target,
        loopback: t.loopback,
        revision: rev,
        published,
    })
}

/// What `start` brought up: in-process servers (stopped when dropped or shut down), bundled
/// targets (stopped by PID when dropped), the (name, url) of each, and notes on bundled
/// targets that did not come up.
pub struct Started {
    pub servers: Vec<RunningServer>,
    pub specs: Vec<(String, String)>,
    pub launched: Vec<Running>,
    pub bundled_notes: Vec<String>,
}

/// Start the bundled server targets and in-process servers `plan` names (installing missing
/// bundled targets first). Err: one line saying what to fix.
pub async fn start(
    plan: &Plan,
    args: &Args,
    served_surface: &Surface,
    target_env: &[(String, String)],
) -> Result<Started, String> {
    let mut servers = Vec::new();
    let mut specs: Vec<(String, String)> = Vec::new();
    let mut bundled_notes = Vec::new();
    let mut launched: Vec<mcpdiff::targets::Running> = Vec::new();
    if let Some(names) = &plan.bundled {
        let all = match mcpdiff::targets::manifest::load_all(
            &mcpdiff::targets::manifest::targets_dir(),
        ) {
            Ok(a) => mcpdiff::targets::manifest::of_kind(
                a,
                mcpdiff::targets::manifest::TargetKind::Server,
            ),
            Err(e) => return Err(e),
        };
        let chosen = match mcpdiff::targets::manifest::select(all, names) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        let (up, notes) =
            mcpdiff::targets::bring_up_with(&chosen, target_env, &|l| eprintln!("mcpdiff: {l}"))
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
    if plan.in_process {
        // the mutants show what a finding looks like even when no SDK could be installed
        let default_mutants: Vec<String> = DEFAULT_MUTANTS.iter().map(|s| s.to_string()).collect();
        let names: Vec<String> = args.mutants.clone().unwrap_or(default_mutants);
        let mut variants = vec![("reference".to_string(), Variant::Reference)];
        for n in names {
            match Variant::mutant(&n) {
                Some(v) => variants.push((format!("{}{n}", runner::disagree::MUTANT_PREFIX), v)),
                None => {
                    return Err(format!(
                        "unknown mutant '{n}'; `mcpdiff serve --list-mutants` lists them"
                    ))
                }
            }
        }
        let mutants = variants.len() - 1;
        for (name, v) in variants {
            let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
            match serve::spawn_with(v, loopback, served_surface.clone()).await {
                Ok(s) => {
                    specs.push((name, s.url.clone()));
                    servers.push(s);
                }
                Err(e) => return Err(format!("cannot start the in-process {name}: {e}")),
            }
        }
        eprintln!(
            "mcpdiff: testing {} bundled SDK target(s), the in-process reference server and \
             {mutants} mutant(s){}",
            launched.len(),
            if args.urls.is_empty() {
                " (pass URLs to test your own endpoints)"
            } else {
                ""
            }
        );
    }
    Ok(Started {
        servers,
        specs,
        launched,
        bundled_notes,
    })
}
