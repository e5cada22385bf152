//! The differential runner: discover each target, generate cases from a seed, send each case
//! to every target of a case-stream group (`group.rs`: same endpoint and callable shape),
//! judge every answer against its own target's surface, compare the clean targets, shrink
//! each distinct (target, rule) problem (against that target's surface), and hand a
//! `RunResult` to the reports.
//!
//! Time: `RunConfig::max_time` bounds the whole of `run`. Fuzzing stops early enough to leave
//! a share of it to re-sending one call of each slow tool with a longer limit (to name the
//! `--timeout-ms` that lets it finish) and to shrinking; every send after fuzzing is cut at
//! the end of the budget, and a shrink cut short keeps the smallest case it reached.
//!
//! Cases are a pure function of (seed, surface, index), so the same seed gives the same
//! cases whatever the concurrency; per rule the failing case that best isolates it (then the lowest index) is kept, so the
//! same seed also gives the same findings against deterministic targets.

pub mod adapters;
pub mod auth_probes;
pub mod disagree;
pub mod discover;
mod group;
pub mod legacy;
pub mod legacy_disagree;
pub mod legacy_generated;
pub mod legacy_seq;
pub mod legacy_shrink;
pub mod list_stable_probe;
mod pacer;
pub mod prepare;
mod record;
pub mod reuse_probe;
pub mod revision;
pub mod shard;
pub mod shrink;
mod shrink_witnesses;
mod slow;
pub mod tally;
mod target_error;
mod window;

#[cfg(test)]
mod tests_window;

use crate::transport::OnAnswer;
pub use adapters::{NetSender, PropsGenerator};
use disagree::Disagreement;
use mcpdiff_oracle::rules::RuleId;
use mcpdiff_oracle::{judge, Case, Observation, Surface};
pub use pacer::Pacer;
pub use shard::{Shard, ShardError, ShardProblem};
use shrink::ShrinkBudget;
use shrink_witnesses::shrink_target;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tally::Tally;

/// Something that answers cases: a target over the network, or an in-process server.
pub trait Sender: Clone + Send + Sync + 'static {
    fn send(&self, case: Case) -> impl Future<Output = Observation> + Send;

    /// `send` without giving up the case (the runner keeps it for the tally). The default
    /// clones; a sender that only reads the case overrides it.
    fn send_ref(&self, case: &Case) -> impl Future<Output = Observation> + Send {
        self.send(case.clone())
    }

    /// `send_ref`, calling `on_answer` once the request is answered if the observation goes
    /// on after that (an SSE stream read for its idle window), so the run can start the next
    /// case meanwhile. The observation must be `send_ref`'s. The default never calls it: the
    /// case then counts as answered when its observation is complete.
    fn send_noting(
        &self,
        case: &Case,
        on_answer: OnAnswer<'_>,
    ) -> impl Future<Output = Observation> + Send {
        let _ = on_answer;
        self.send_ref(case)
    }

    /// `send` for a request that opens a listening stream and resumes nothing (a 2025-11-25
    /// GET without `Last-Event-ID`, `legacy_seq::quiet_get`): an SSE answer may also end
    /// once it stays silent for `Limits::sse_quiet` (`closed: false`, as at any limit)
    /// instead of being held to `sse_max_time`. The default is `send`.
    fn send_listening(&self, case: Case) -> impl Future<Output = Observation> + Send {
        self.send(case)
    }

    /// `send` with a per-case limit of `limit` instead of the sender's own (used once per
    /// slow tool). The default ignores `limit`.
    fn send_patient(
        &self,
        case: Case,
        limit: Duration,
    ) -> impl Future<Output = Observation> + Send {
        let _ = limit;
        self.send(case)
    }

    /// `send_ref` on a connection of its own, opened for this one request (no request
    /// before it on that connection): whether a reproducer fails alone, as a maintainer who
    /// sends it alone will see it. The default is `send_ref` (a sender with no connections).
    fn send_alone(&self, case: &Case) -> impl Future<Output = Observation> + Send {
        self.send_ref(case)
    }
}

/// The cases of one surface: `case(seed, index)` is the `index`-th case of a run with
/// `seed`, a pure function, called from any runtime thread.
pub trait CaseSource: Send + Sync + 'static {
    fn case(&self, seed: u64, index: u64) -> Case;
}

/// Builds the case source of a surface, once per surface group before the first case.
pub trait Generator {
    type Source: CaseSource;
    fn for_surface(&self, surface: &Surface) -> Self::Source;
}

/// One target as the runner sees it.
pub struct Target<S: Sender> {
    pub name: String,
    pub url: String,
    pub sender: S,
    /// The surface the oracle judges with (everything the target declared).
    pub surface: Surface,
    /// The surface cases are generated from (tools that may be called).
    pub gen_surface: Surface,
    pub notes: Vec<String>,
}

/// Knobs of one run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub cases: u64,
    pub seed: u64,
    /// The whole run: fuzzing, slow-tool probes and shrinking end within it.
    pub max_time: Duration,
    /// Requests per second across the whole run (None: unlimited).
    pub rate: Option<f64>,
    /// Cases waiting for an answer at once (workers). Each worker also keeps reading up to
    /// `window::LINGER_PER_WORKER` answered cases whose SSE stream is in its idle window.
    pub concurrency: usize,
    pub shrink: ShrinkBudget,
    /// Disagreement examples kept per group.
    pub max_disagreements: usize,
    /// Seed cases sent before the generated ones (the oracle's probe set: one per rule).
    /// A probe goes to a group only when the oracle, judging it against one of the group's
    /// surfaces, says it exercises the rule it was written for.
    pub probes: Vec<(RuleId, Case)>,
    /// The part of the case stream (probes, then generated cases) this run takes
    /// (`--shard K/N`; `Shard::WHOLE` by default).
    pub shard: Shard,
}

impl RunConfig {
    /// `cases` cases from `seed` within `max_time`; no rate limit, 8 workers (the CLI's
    /// default), the default shrink budget, 5 disagreement examples per group, no probes. Callers change a field with struct update syntax
    /// (`RunConfig { concurrency: 1, ..RunConfig::new(100, 1, secs) }`).
    pub fn new(cases: u64, seed: u64, max_time: Duration) -> RunConfig {
        RunConfig {
            cases,
            seed,
            max_time,
            rate: None,
            concurrency: 8,
            shrink: ShrinkBudget::default(),
            max_disagreements: 5,
            probes: Vec::new(),
            shard: Shard::WHOLE,
        }
    }
}

/// A finding after shrinking.
#[derive(Clone, Debug)]
pub struct ShrunkFinding {
    pub rule: RuleId,
    pub original: Case,
    /// The target's answer to `original`, shown beside the reproducer's.
    pub original_observation: Observation,
    pub case: Case,
    pub observation: Observation,
    /// Set when the shrunk case failed in a different kind than the original (a defensive
    /// check after shrinking): `case` is then the original, and this says why.
    pub kept_original: Option<String>,
    pub count: u64,
    pub shrink_requests: usize,
    /// The shrink ran out of its budget (requests, time, or the run's end): `case` is the
    /// smallest case it reached, maybe not the smallest there is.
    pub cut_short: bool,
    /// A connection probe's finding (`AuthResult::connections`): every request it rests on,
    /// by connection, in order, `case` among them; its reproducer sends them all. Empty for
    /// every other finding, whose `case` alone reproduces it.
    pub connections: Vec<Vec<Case>>,
    /// Set when the reproducer, sent again alone on a new connection, was answered and did
    /// not fail the same way (`shrink::alone_note`): what it failed on in the run rests on
    /// the requests before it on a reused connection, or the target is intermittent. The
    /// corpus keeps no single-request entry of it (replayed alone, it would pass).
    pub alone: Option<String>,
    /// For a benign-input rule's finding (`isolation::benign::BENIGN_RULES`): set when the
    /// same request without its benign inputs, sent alone, was answered and fails a rule too
    /// (`shrink::twin_note`): the benign input is not what the target trips over, so the
    /// finding is not reported (the report says why in the target's notes) nor saved.
    pub twin: Option<String>,
}

impl ShrunkFinding {
    /// Whether its case, sent alone, reproduces what it claims (neither `alone` nor `twin`
    /// explains it away): the corpus keeps only such findings as single-request entries.
    pub fn stands_alone(&self) -> bool {
        self.alone.is_none() && self.twin.is_none()
    }
}

/// What happened to one target.
pub struct TargetOutcome {
    pub name: String,
    pub url: String,
    pub surface: Surface,
    pub notes: Vec<String>,
    pub tally: Tally,
    pub findings: Vec<ShrunkFinding>,
}

/// The whole run.
pub struct RunResult {
    pub targets: Vec<TargetOutcome>,
    /// Probe cases sent before the generated ones.
    pub probes_sent: u64,
    pub disagreements: Vec<Disagreement>,
    pub disagreement_total: u64,
    pub cases: u64,
    pub requests: u64,
    pub elapsed: Duration,
    pub stopped_by_time: bool,
}

impl RunResult {
    /// A run with no target (every target was unreachable): only the elapsed time.
    pub fn empty(elapsed: Duration) -> RunResult {
        RunResult {
            targets: Vec::new(),
            probes_sent: 0,
            disagreements: Vec::new(),
            disagreement_total: 0,
            cases: 0,
            requests: 0,
            elapsed,
            stopped_by_time: false,
        }
    }
}

/// Progress callbacks (a terminal bar, or nothing).
pub trait Progress: Send + Sync {
    fn phase(&self, _what: &str) {}
    fn case_done(&self) {}
}

/// No progress output.
pub struct Quiet;
impl Progress for Quiet {}

/// Run `cfg.cases` cases against every target, then shrink.
pub async fn run<S: Sender, G: Generator>(
    targets: Vec<Target<S>>,
    generator: &G,
    cfg: &RunConfig,
    progress: &dyn Progress,
) -> RunResult {
    let start = Instant::now();
    let end = start + cfg.max_time;
    // fuzzing leaves a fifth of the budget (at most 30 s) to the slow-tool probes and shrinking
    let deadline = end - (cfg.max_time / 5).min(Duration::from_secs(30));
    let targets = Arc::new(targets);
    progress.phase("fuzzing");

    let groups = group::groups(&targets);
    // probes that apply, per group (to any of its surfaces); they take the first indices
    let mut seeded: Vec<(usize, Case)> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let surfaces = || group.judges.iter().map(|&j| &targets[j].surface);
        for (rule, case) in &cfg.probes {
            if surfaces().any(|s| judge(case, s).triggers(*rule)) {
                let mut case = case.clone();
                case.path = targets[group.members[0]].surface.endpoint.clone();
                seeded.push((g, case));
            }
        }
        // the pages of the group's own lists, opened with the cursors discovery was given
        // (PAGE-STABLE, CACHE-SCOPE-PAGES); sent to the whole group only when every other
        // surface issued the same cursor or paged that list not at all (it issued no cursor
        // for it, so this one is invalid there: PAGE-INVALID-CURSOR), never to a target
        // that pages the list with cursors of its own (DEVIATIONS.md D-141)
        for s in surfaces() {
            for p in mcpdiff_oracle::reference::probes::page_probes(s) {
                let mut case = p.case;
                case.path = targets[group.members[0]].surface.endpoint.clone();
                let body: serde_json::Value =
                    serde_json::from_slice(&case.body).unwrap_or_default();
                let method = body["method"].as_str().unwrap_or_default();
                let cursor = body["params"]["cursor"].as_str().unwrap_or_default();
                let fits = surfaces().all(|o| match o.pagination.list(method) {
                    None => true,
                    Some(_) => o.pagination.issued(method, cursor),
                });
                if fits && !seeded.iter().any(|(h, c)| *h == g && *c == case) {
                    seeded.push((g, case));
                }
            }
        }
    }
    let seeded_count = seeded.len() as u64;
    let sources = groups
        .iter()
        .map(|g| generator.for_surface(&targets[g.members[0]].gen_surface))
        .collect();
    let workers = cfg.concurrency.max(1);
    let shared = Arc::new(window::WindowState::new(
        Arc::clone(&targets),
        groups,
        sources,
        seeded,
        cfg.seed,
        (cfg.cases + seeded_count, cfg.shard),
        start,
        deadline,
        Pacer::new(cfg.rate),
        record::Record::new(
            targets.iter().map(|t| t.name.clone()).collect(),
            cfg.max_disagreements,
        ),
    ));
    let mut pool = tokio::task::JoinSet::new();
    for _ in 0..workers {
        pool.spawn(window::worker(Arc::clone(&shared)));
    }
    // wait for the workers (or the deadline), passing progress on as it comes
    let mut shown = 0u64;
    let mut tick = tokio::time::interval(Duration::from_millis(50));
    loop {
        let finished = tokio::select! {
            j = pool.join_next() => j.is_none(),
            _ = tokio::time::sleep_until(deadline.into()) => true,
            _ = tick.tick() => false,
        };
        let done = shared.done.load(std::sync::atomic::Ordering::Relaxed);
        for _ in shown..done {
            progress.case_done();
        }
        shown = done;
        if finished {
            break;
        }
    }
    // out of time with cases left or in flight: stop the workers where they are
    pool.abort_all();
    while pool.join_next().await.is_some() {}
    let record = std::mem::replace(
        &mut *shared.record.lock().unwrap_or_else(|p| p.into_inner()),
        record::Record::new(Vec::new(), 0),
    );
    let stopped_by_time = record.cases < shared.share() && Instant::now() >= deadline;
    drop(shared);
    let cases_done = record.cases;
    let mut requests = record.requests;
    let disagreements = record.disagreements;
    let tallies = record.tallies;

    progress.phase("shrinking");
    let mut cfg = cfg.clone();
    cfg.shrink.deadline = Some(cfg.shrink.deadline.map_or(end, |d| d.min(end)));
    let cfg = &cfg;
    // targets shrink concurrently, each its own findings in turn (one target's requests
    // stay sequential, so a shrink never floods the server it is reducing against)
    let jobs = targets
        .iter()
        .zip(tallies)
        .map(|(t, tally)| shrink_target(t, tally, cfg));
    let mut outcomes = Vec::new();
    for (outcome, spent) in futures::future::join_all(jobs).await {
        requests += spent;
        outcomes.push(outcome);
    }

    // after shrinking: a finding's reproducer matters more than a timeout suggestion, and
    // the probe may wait on a slow tool for all the time that is left
    progress.phase("slow tools");
    let probes = targets
        .iter()
        .zip(outcomes.iter_mut())
        .map(|(t, o)| slow::probe_slow_tools(t, &mut o.tally, end));
    requests += futures::future::join_all(probes).await.iter().sum::<u64>();
    RunResult {
        targets: outcomes,
        probes_sent: seeded_count,
        disagreements: disagreements.kept,
        disagreement_total: disagreements.total,
        cases: cases_done,
        requests,
        elapsed: start.elapsed(),
        stopped_by_time,
    }
}
