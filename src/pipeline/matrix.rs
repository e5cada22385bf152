//! The server matrix of a run: prepare every target, fuzz the ready ones, probe the protected
//! ones and every fuzzed one's connection handling, all within `--max-time` ([`run_matrix`]); then the report, each target's entry
//! reading that target's evidence ([`Matrix::report`]).

use super::prepare::{prepare_all, PrepareOptions, TargetEvidence, Untested};
use super::start::TargetSpec;
use super::Events;
use crate::baseline::Baseline;
use crate::report::{self, undetermined, RunReport};
use crate::runner::{self, shrink::ShrinkBudget, PropsGenerator, RunConfig, RunResult, Shard};
use crate::transport::{reproducer_tls, sequence_reproducer, Client, Endpoint};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::probes::probe_cases;
use mcpdiff_oracle::rules::Revision;
use mcpdiff_oracle::rules::{self, RuleId};
use mcpdiff_oracle::toolset::ToolSet;
use std::future::Future;
use std::time::{Duration, Instant};

/// The knobs of a server matrix.
pub struct Settings {
    /// Sends every request (limits, `--header` credentials, TLS).
    pub client: Client,
    /// Tools called on non-loopback targets besides the `readOnlyHint` ones.
    pub allow_tools: Vec<String>,
    /// `--tools`: the set each target's `tools/list` is compared with.
    pub toolset: Option<ToolSet>,
    pub cases: u64,
    pub seed: u64,
    /// Requests per second (`None`: unlimited on loopback, 20 when any target is not).
    pub rate: Option<f64>,
    /// Cases in flight at once.
    pub concurrency: usize,
    /// Requests the shrinker may spend per finding.
    pub shrink_budget: usize,
    /// Send the oracle's probe set (one case per rule) before the generated cases.
    pub probes: bool,
    /// The whole matrix (discovery gets at most half of it), reports included.
    pub max_time: Duration,
    /// A client matrix follows: it keeps a third of the time left after discovery.
    pub clients_after: bool,
    /// The part of the case stream this run takes (`--shard K/N`; `Shard::WHOLE`: all).
    /// The authorization probe family is not part of the stream: shard 1 sends it.
    pub shard: Shard,
    /// The revisions graded (`run --revision`; both by default, newest first): without
    /// 2026-07-28 no generated case is sent, without 2025-11-25 no legacy sequence.
    pub revisions: Vec<Revision>,
}

impl Settings {
    /// `cases` cases of `seed` through `client`, everything else as a plain run sets it: the
    /// probe set first, 8 cases in flight, 60 shrinking requests a finding, 120 s in all, both
    /// revisions, the whole case stream, no rate limit, no tool set, no client matrix after.
    /// (Callers set the rest with struct update syntax.)
    pub fn new(client: Client, cases: u64, seed: u64) -> Settings {
        Settings {
            client,
            allow_tools: Vec::new(),
            toolset: None,
            cases,
            seed,
            rate: None,
            concurrency: 8,
            shrink_budget: 60,
            probes: true,
            max_time: Duration::from_secs(120),
            clients_after: false,
            shard: Shard::WHOLE,
            revisions: Revision::ALL.to_vec(),
        }
    }
}

/// Disagreement examples a run keeps (one per distinct pattern of answers).
pub const MAX_DISAGREEMENTS: usize = 20;

/// The run was interrupted (Ctrl-C) while fuzzing.
#[derive(Debug)]
pub struct Interrupted;

/// What the server matrix found.
pub struct Matrix {
    pub result: RunResult,
    pub config: RunConfig,
    /// One per prepared target (fuzzed or not), in the order prepared; read by name.
    pub evidence: Vec<TargetEvidence>,
    /// Targets that could not be tested (each still gets an entry in the report).
    pub untested: Vec<Untested>,
    /// Bundled targets that died after start-up, one line each.
    pub notes: Vec<String>,
    /// The end of `--max-time`.
    pub end: Instant,
    /// Prepared targets no 2026-07-28 case went to (that revision not selected, or not
    /// offered by the target): their entries come from their evidence alone.
    pub not_fuzzed: Vec<NotFuzzed>,
    /// The revisions graded (`Settings::revisions`).
    pub revisions: Vec<Revision>,
}

/// A prepared target left out of the 2026-07-28 cases.
pub struct NotFuzzed {
    pub name: String,
    pub url: String,
    /// Discovery and card notes.
    pub notes: Vec<String>,
}

/// Prepare `specs`, fuzz the ready ones and run the authorization probes, within
/// `settings.max_time` from now. `stop` resolving while the cases run gives up.
pub async fn run_matrix<E: Events>(
    specs: &[TargetSpec],
    settings: &Settings,
    events: &E,
    stop: impl Future<Output = ()>,
) -> Result<Matrix, Interrupted> {
    let began = Instant::now();
    let end = began + settings.max_time;
    let opts = PrepareOptions {
        client: &settings.client,
        allow_tools: &settings.allow_tools,
        toolset: settings.toolset.as_ref(),
        revisions: &settings.revisions,
    };
    let mut laps = super::timing::Stages::start();
    // discovery gets at most half of the run
    let prepared = prepare_all(specs, &opts, began + settings.max_time / 2).await;
    let (mut targets, mut evidence, mut untested, mut notes) = (vec![], vec![], vec![], vec![]);
    // prepared targets no 2026-07-28 case goes to: still sent the 2025-11-25 stage
    let mut idle = Vec::new();
    for p in prepared {
        match p {
            Ok(r) => {
                if r.fuzz {
                    targets.push(r.target);
                } else {
                    idle.push(r.target);
                }
                evidence.push(r.evidence);
            }
            // a bundled SDK that died after start-up is a note, not a failed run
            Err(u) if u.bundled => {
                notes.push(format!("bundled target skipped: {}: {}", u.name, u.error));
            }
            Err(u) => {
                events.line(&format!("{} not tested: {}", u.name, u.error));
                untested.push(u);
            }
        }
    }
    laps.lap("prepare");
    let all_loopback = evidence.iter().all(|e| e.loopback);
    // the 2025-11-25 side: generated sequences, shrinking, the differential (a share of
    // the time left), before the modern run takes the rest; every prepared target, the
    // legacy-only ones too (the stage pairs a target with its evidence by name)
    let fuzzed = targets.len();
    targets.append(&mut idle);
    let legacy_lines =
        super::legacy::legacy_stage(&mut targets, &mut evidence, settings, all_loopback, end).await;
    let not_fuzzed: Vec<NotFuzzed> = targets
        .split_off(fuzzed)
        .into_iter()
        .map(|t| NotFuzzed {
            name: t.name,
            url: t.url,
            notes: t.notes,
        })
        .collect();
    // printed with the run's notes (`mcpdiff run` prints `matrix.notes`)
    notes.extend(legacy_lines);
    laps.lap("legacy");
    let config = config(settings, all_loopback, end);
    let result = if targets.is_empty() {
        RunResult::empty(began.elapsed())
    } else {
        let shard = if config.shard.is_whole() {
            String::new()
        } else {
            let (k, n) = (config.shard.index, config.shard.count);
            format!(
                " (shard {k}/{n}: positions {k}, {}, {}, ... of the stream, probes first)",
                k + n,
                k + 2 * n
            )
        };
        events.line(&format!(
            "{} target(s), {} cases{shard}, seed {}{}",
            targets.len(),
            config.cases,
            config.seed,
            config
                .rate
                .map(|r| format!(", at most {r} requests/s"))
                .unwrap_or_default()
        ));
        let generator = PropsGenerator::default();
        let mut result = tokio::select! {
            r = runner::run(targets, &generator, &config, events) => r,
            _ = stop => {
                events.fuzzed();
                return Err(Interrupted);
            }
        };
        events.fuzzed();
        laps.lap("cases and shrink");
        // protected targets: the authorization probe family (AUTH-* rules), within
        // --max-time; once per run, so only by the first shard of a sharded one
        if settings.shard.index == 1 {
            let probing = crate::runner::auth_probes::after_run(&settings.client, &mut result);
            if tokio::time::timeout_at(end.into(), probing).await.is_err() {
                events.line("authorization probes cut short by --max-time");
            }
            laps.lap("authorization probes");
            // BASE-STATELESS-NO-PRIOR: each request on a fresh and on a reused connection
            let reusing = crate::runner::reuse_probe::after_run(&settings.client, &mut result);
            if tokio::time::timeout_at(end.into(), reusing).await.is_err() {
                events.line("connection probes cut short by --max-time");
            }
            laps.lap("connection probes");
            // *-LIST-STABLE: each list on fresh connections and after another request
            let listing =
                crate::runner::list_stable_probe::after_run(&settings.client, &mut result);
            if tokio::time::timeout_at(end.into(), listing).await.is_err() {
                events.line("list probes cut short by --max-time");
            }
            laps.lap("list probes");
        }
        result
    };
    Ok(Matrix {
        result,
        config,
        evidence,
        untested,
        notes,
        end,
        not_fuzzed,
        revisions: settings.revisions.clone(),
    })
}

/// Mark the other revisions' findings a `--baseline` entry names (they then do not fail the
/// run); the (target, url, rule) of every such finding, for the stale-entry check.
fn apply_baseline(
    revision: &mut crate::runner::revision::RevisionEvidence,
    baseline: &Baseline,
    name: &str,
    url: &str,
) -> Vec<(String, String, RuleId)> {
    let mut found = Vec::new();
    for f in revision
        .revisions
        .iter_mut()
        .flat_map(|o| o.findings.iter_mut())
    {
        // a finding names a rule of the table (the legacy judge emits only L-* ids)
        let Some(rule) = rules::all_rules().find(|r| r.id.0 == f.rule).map(|r| r.id) else {
            continue;
        };
        f.baselined = baseline.knows(name, url, &rule);
        found.push((name.to_string(), url.to_string(), rule));
    }
    found
}

/// The runner's configuration, made once discovery is done (the time left and whether every
/// target is on loopback decide it).
fn config(settings: &Settings, all_loopback: bool, end: Instant) -> RunConfig {
    let rate = settings
        .rate
        .or(if all_loopback { None } else { Some(20.0) });
    // the client matrix, when planned, keeps a third of what is left
    let left = end.saturating_duration_since(Instant::now());
    let matrix_time = if settings.clients_after {
        left * 2 / 3
    } else {
        left
    };
    RunConfig {
        cases: settings.cases,
        seed: settings.seed,
        // a second stays for the reports
        max_time: matrix_time.saturating_sub(Duration::from_secs(1)),
        rate,
        concurrency: settings.concurrency.max(1),
        shrink: ShrinkBudget {
            max_requests: settings.shrink_budget,
            max_time: Duration::from_secs(10),
            max_time_per_target: Duration::from_secs(60),
            deadline: Some(end),
        },
        max_disagreements: MAX_DISAGREEMENTS,
        probes: if settings.probes {
            probe_cases(&fixture::surface())
        } else {
            Vec::new()
        },
        shard: settings.shard,
    }
}

impl Matrix {
    /// The evidence of the target named `name`.
    pub fn evidence_of(&self, name: &str) -> Option<&TargetEvidence> {
        self.evidence.iter().find(|e| e.name == name)
    }

    /// The run's report: findings judged against `baseline`, reproducers that send what
    /// `client` sends, each target's entry completed from its evidence, then one entry per
    /// untested target.
    pub fn report(&self, baseline: &Baseline, client: &Client) -> RunReport {
        let (creds, tls) = (client.credentials(), client.tls());
        let mut rep = report::build(&self.result, &self.config, baseline, &|sent, url| {
            match (Endpoint::parse(url), sent) {
                // an authorization probe carries its own credentials (or none, on purpose)
                (Ok(e), [one]) if one.len() == 1 && crate::auth::is_auth_probe(&one[0]) => {
                    reproducer_tls(&one[0], &e, &Default::default(), tls.options())
                }
                (Ok(e), _) => sequence_reproducer(sent, &e, creds, tls.options()),
                (Err(_), _) => String::new(),
            }
        });
        report::tls_report::annotate(&mut rep, tls);
        let mut legacy_found = Vec::new();
        for t in rep.targets.iter_mut() {
            if let Some(e) = self.evidence_of(&t.name) {
                let mut revision = e.revision.clone();
                legacy_found.extend(apply_baseline(&mut revision, baseline, &t.name, &t.url));
                t.revision = Some(revision);
                t.toolset = e.toolset.clone();
                t.version = e.version.clone();
            }
        }
        for n in &self.not_fuzzed {
            let e = self.evidence_of(&n.name);
            // its 2025-11-25 findings are judged against the baseline as a fuzzed target's
            let revision = e.map(|e| {
                let mut revision = e.revision.clone();
                legacy_found.extend(apply_baseline(&mut revision, baseline, &n.name, &n.url));
                revision
            });
            rep.targets.push(report::revisions::not_fuzzed(
                &n.name,
                &n.url,
                n.notes.clone(),
                revision,
                &self.revisions,
            ));
            if let (Some(t), Some(e)) = (rep.targets.last_mut(), e) {
                t.toolset = e.toolset.clone();
                t.version = e.version.clone();
            }
        }
        // an entry naming a legacy (L-*) finding of this run is not stale
        let still_stale = baseline.stale(&legacy_found);
        rep.baseline_stale.retain(|k| still_stale.contains(k));
        for u in &self.untested {
            rep.targets
                .push(undetermined::untested(&u.name, &u.url, u.reason, &u.error));
        }
        for t in rep.targets.iter_mut().filter(|t| t.revisions.is_empty()) {
            t.revisions = report::revisions::derive(t, &self.revisions);
        }
        rep
    }

    /// Each target's 2025-11-25 outcome: (name, url, outcome, its known legacy versions),
    /// what `--save-corpus` saves of that revision (`corpus::save_legacy_run`).
    pub fn legacy_outcomes(
        &self,
    ) -> Vec<(
        &str,
        &str,
        &crate::runner::legacy::RevisionOutcome,
        Vec<String>,
    )> {
        self.evidence
            .iter()
            .flat_map(|e| {
                let versions = crate::runner::legacy::legacy_versions(&e.revision.versions);
                e.revision
                    .revisions
                    .iter()
                    .filter(|o| o.revision == mcpdiff_oracle::Revision::V2025_11_25)
                    .map(move |o| (e.name.as_str(), e.url.as_str(), o, versions.clone()))
            })
            .collect()
    }

    /// Whether the run could not be done for some target (the report says which and why).
    pub fn untested_names(&self) -> Vec<&str> {
        self.untested.iter().map(|u| u.name.as_str()).collect()
    }
}
