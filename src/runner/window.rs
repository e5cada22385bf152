//! The bounded in-flight window of a run: `concurrency` worker tasks take case indices from
//! one counter, and each generates its case, sends it to every target of the case's group,
//! judges it while the answers are on their way (once per distinct surface of the group:
//! once in the common case), checks every answer against its own target's verdict, and
//! settles answers cut by a limit (`mcpdiff_oracle::settle`: not determined, never a
//! finding), and records the result by run index (`Record`, one short lock per case). Calls
//! of tools that keep timing out are thinned (`slow.rs`).
//!
//! A worker's request slot is for waiting on an answer: a case whose every request is
//! answered while an SSE stream is still read for its idle window moves to the worker's
//! bounded set of lingering cases (`LINGER_PER_WORKER`), which the worker keeps driving while
//! it sends its next case. The observation, and so the record, is the same either way.
//!
//! With `--shard K/N` the workers take only the run indices of shard K (`shard.rs`); an
//! index's case does not depend on which shard runs it.
//!
//! Why workers and not a task per case: a spawned task, a cloned group list and a cloned
//! case per request were a measurable share of the client's CPU (profiled), and
//! generation and judging on one tally loop made that loop the bottleneck. Here generation,
//! judging and checking run on every runtime thread; memory is bounded by the window.

use super::group::Group;
use super::record::{Record, Verdicts};
use super::shard::Shard;
use super::slow::{call_outcome, tool_of, SlowTools};
use super::{CaseSource, Pacer, Sender, Target};
use futures::stream::{FuturesUnordered, StreamExt};
use mcpdiff_oracle::undetermined::is_cut;
use mcpdiff_oracle::{assess_against, judge, Case, Settled};
use std::future::{poll_fn, Future};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Instant;

/// What every worker shares.
pub(crate) struct WindowState<S: Sender, C: CaseSource> {
    pub targets: Arc<Vec<Target<S>>>,
    /// The case streams: their targets and the surfaces each case is judged against.
    pub groups: Vec<Group>,
    /// One case source per group.
    pub sources: Vec<C>,
    /// Probe cases first: (group, case), taking run indices `0..seeded.len()`.
    pub seeded: Vec<(usize, Case)>,
    pub seed: u64,
    /// Run indices: seeded, then generated.
    pub total: u64,
    /// The part of those indices this run takes (`--shard K/N`; the whole by default).
    pub shard: Shard,
    /// When the run started (findings note their time from it).
    pub start: Instant,
    pub deadline: Instant,
    pub pacer: Pacer,
    pub record: Mutex<Record>,
    /// Cases recorded so far (read by the progress display without the lock).
    pub done: AtomicU64,
    /// Calls per tool, for thinning the ones that keep timing out.
    pub slow: SlowTools,
    /// Indices skipped as calls of a slow tool: the run takes as many more (up to `total`).
    skipped: AtomicU64,
    next: AtomicU64,
}

impl<S: Sender, C: CaseSource> WindowState<S, C> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        targets: Arc<Vec<Target<S>>>,
        groups: Vec<Group>,
        sources: Vec<C>,
        seeded: Vec<(usize, Case)>,
        seed: u64,
        (total, shard): (u64, Shard),
        start: Instant,
        deadline: Instant,
        pacer: Pacer,
        record: Record,
    ) -> Self {
        WindowState {
            targets,
            groups,
            sources,
            seeded,
            seed,
            total,
            shard,
            start,
            deadline,
            pacer,
            record: Mutex::new(record),
            done: AtomicU64::new(0),
            slow: SlowTools::default(),
            skipped: AtomicU64::new(0),
            next: AtomicU64::new(0),
        }
    }

    /// The run indices this run takes: its shard's share of `total`.
    pub fn share(&self) -> u64 {
        self.shard.share(self.total)
    }

    /// The next run index to do, if any is left and time remains: this shard's `n`-th index
    /// (every index, unsharded).
    fn take(&self) -> Option<u64> {
        if Instant::now() >= self.deadline {
            return None;
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let share = self.share();
        let extra = self.skipped.load(Ordering::Relaxed).min(share);
        (n < share + extra).then(|| self.shard.nth(n))
    }

    /// The group and case of run index `index`: a probe, or generated case `index - probes`
    /// of group `(index - probes) % groups` (round-robin).
    fn case(&self, index: u64) -> (usize, Case) {
        let probes = self.seeded.len() as u64;
        if index < probes {
            return self.seeded[index as usize].clone();
        }
        let gen_index = index - probes;
        let group = (gen_index % self.groups.len() as u64) as usize;
        (group, self.sources[group].case(self.seed, gen_index))
    }
}

/// Answered cases one worker keeps reading while it sends its next ones: a case whose every
/// request is answered but whose observation goes on (an SSE stream watched for its idle
/// window after the answer, `Limits::sse_idle_after_response`) leaves its worker's request
/// slot for this set. So a run has at most `concurrency` cases waiting for an answer plus
/// `concurrency * LINGER_PER_WORKER` in their idle window, each still bounded by the
/// transport's limits (idle window, stream time, events, bytes); when a worker's set is full
/// its answered case keeps the slot until one ends. Why: a listen stream's idle window held
/// its slot ~145 ms, so 2% listen cases capped 8 slots at ~5,000 cases/s (strace).
pub(crate) const LINGER_PER_WORKER: usize = 8;

/// One case in flight, from its first send to its record (boxed: it may move to the
/// lingering set after its answer).
type CaseInFlight<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// One worker: judged cases into the record until the indices or the time run out. It drives
/// one case awaiting its answer (its request slot) and up to `LINGER_PER_WORKER` answered
/// ones; each records its own result, by run index, when its observation is complete.
pub(crate) async fn worker<S: Sender, C: CaseSource>(shared: Arc<WindowState<S, C>>) {
    let shared = &*shared;
    let mut lingering: FuturesUnordered<CaseInFlight<'_>> = FuturesUnordered::new();
    while let Some(index) = shared.take() {
        let Some((group_index, case, tool)) = shared.admit(index) else {
            continue;
        };
        // the requests of this case not answered yet (one per target of its group)
        let unanswered = Arc::new(AtomicUsize::new(shared.groups[group_index].members.len()));
        let mut active: CaseInFlight<'_> = Box::pin(judged_case(
            shared,
            index,
            (group_index, case, tool),
            Arc::clone(&unanswered),
        ));
        let answered_early = poll_fn(|cx| {
            // lingering cases that end have recorded themselves: they just leave the set
            while let Poll::Ready(Some(())) = lingering.poll_next_unpin(cx) {}
            if active.as_mut().poll(cx).is_ready() {
                return Poll::Ready(false);
            }
            // checked right after polling the case: only that poll changes the count
            let answered = unanswered.load(Ordering::Relaxed) == 0;
            if answered && lingering.len() < LINGER_PER_WORKER {
                return Poll::Ready(true);
            }
            Poll::Pending
        })
        .await;
        if answered_early {
            lingering.push(active);
        }
    }
    while lingering.next().await.is_some() {}
}

impl<S: Sender, C: CaseSource> WindowState<S, C> {
    /// The group, case and (when slow tools are being thinned) tool of run index `index`, or
    /// `None` when generation panicked or the call of a slow tool is skipped.
    fn admit(&self, index: u64) -> Option<(usize, Case, Option<String>)> {
        // a generator or oracle bug loses its case, never the worker (and so the run)
        let (group_index, case) = catch_unwind(AssertUnwindSafe(|| self.case(index))).ok()?;
        let tool: Option<String> = self.slow.active().then(|| tool_of(&case)).flatten();
        if let Some(t) = &tool {
            if !self.slow.keep(group_index, t, self.seed, index) {
                self.skipped.fetch_add(1, Ordering::Relaxed);
                return None;
            }
        }
        Some((group_index, case, tool))
    }
}

/// Send case `index` to every target of its group, judge it, check the answers and record
/// the result. Each request counts itself off `unanswered` once answered (`send_noting`) or
/// complete, whichever comes first.
async fn judged_case<S: Sender, C: CaseSource>(
    shared: &WindowState<S, C>,
    index: u64,
    (group_index, case, mut tool): (usize, Case, Option<String>),
    unanswered: Arc<AtomicUsize>,
) {
    let group = &shared.groups[group_index];
    let targets = &shared.targets;
    // every target of the group at once: one slow target (an open SSE stream, a hung
    // server) costs the case its time limit once, not once per target
    let sends = group.members.iter().map(|&t| {
        let case = &case;
        let pacer = &shared.pacer;
        let unanswered = &*unanswered;
        async move {
            pacer.wait().await;
            let sent = Instant::now();
            let counted = AtomicBool::new(false);
            let answered = || {
                if !counted.swap(true, Ordering::Relaxed) {
                    unanswered.fetch_sub(1, Ordering::Relaxed);
                }
            };
            let obs = targets[t].sender.send_noting(case, &answered).await;
            answered();
            (obs, sent.elapsed())
        }
    });
    // the sends go first (their first poll writes the requests), then the verdicts are
    // computed while the targets answer: judging is off the network path
    let (answers, verdicts) = futures::join!(futures::future::join_all(sends), async {
        catch_unwind(AssertUnwindSafe(|| match group.judges.as_slice() {
            [one] => Verdicts::One(judge(&case, &targets[*one].surface)),
            many => Verdicts::Many(
                many.iter()
                    .map(|&j| judge(&case, &targets[j].surface))
                    .collect(),
            ),
        }))
    });
    let Ok(verdicts) = verdicts else { return };
    let checked = catch_unwind(AssertUnwindSafe(|| {
        answers
            .into_iter()
            .zip(group.members.iter().zip(&group.slots))
            .map(|((obs, waited), (&t, &slot))| {
                let Settled {
                    findings,
                    undetermined,
                } = assess_against(verdicts.get(slot), &obs);
                (t, slot, obs, findings, (undetermined, waited))
            })
            .collect::<Vec<_>>()
    }));
    let Ok(answers) = checked else { return };
    if tool.is_none() && answers.iter().any(|a| is_cut(&a.2)) {
        tool = tool_of(&case);
    }
    // only declared tools: a made-up name says nothing about any tool's speed
    let declared = |t: &String| targets[group.members[0]].surface.tool(t).is_some();
    let tool = tool.filter(declared);
    if let Some(t) = &tool {
        for cut in answers.iter().filter_map(|a| call_outcome(&a.2)) {
            shared.slow.note(group_index, t, cut);
        }
    }
    let at = shared.start.elapsed();
    // a panic while recording poisons the lock; the record itself stays usable
    let mut record = shared.record.lock().unwrap_or_else(|p| p.into_inner());
    record.case(index, case, &verdicts, &answers, at, tool.as_deref());
    drop(record);
    shared.done.fetch_add(1, Ordering::Relaxed);
}
