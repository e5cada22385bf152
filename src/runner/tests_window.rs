//! The in-flight window: a case whose answer arrived but whose stream is still read for its
//! idle window leaves its request slot, so listen cases do not serialize a run, and the
//! lingering ones stay bounded. Counts and orderings only (no timing thresholds): the
//! target, in process, decides when a lingering case ends.

use super::window::LINGER_PER_WORKER;
use super::*;
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::{respond, to_observation};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex as StdMutex;

/// Every `LISTEN_EVERY`-th case (from index 0) is a `subscriptions/listen`.
const LISTEN_EVERY: u64 = 7;

/// When a listen case, once answered, ends.
#[derive(Clone, Copy)]
enum Release {
    /// When the target has received this many cases (or after 10 s, so a serialized run ends
    /// and fails the test instead of hanging).
    WhenSeen(usize),
    /// After this long.
    After(Duration),
}

/// An in-process target answering as the reference server does. A listen case tells its
/// answer (`send_noting`), then lingers until `release`.
#[derive(Clone)]
struct Lingerer {
    surface: Surface,
    release: Release,
    /// Cases received.
    seen: Arc<AtomicUsize>,
    /// Listen cases answered and not ended, now and at most.
    lingering: Arc<AtomicUsize>,
    most_lingering: Arc<AtomicUsize>,
    /// Per ended listen case: how many cases the target had received by then.
    seen_at_end: Arc<StdMutex<Vec<usize>>>,
}

impl Lingerer {
    fn new(release: Release) -> Lingerer {
        Lingerer {
            surface: fixture::surface(),
            release,
            seen: Arc::default(),
            lingering: Arc::default(),
            most_lingering: Arc::default(),
            seen_at_end: Arc::default(),
        }
    }
}

impl Sender for Lingerer {
    async fn send(&self, case: Case) -> Observation {
        self.send_noting(&case, &|| {}).await
    }

    async fn send_noting(&self, case: &Case, on_answer: OnAnswer<'_>) -> Observation {
        self.seen.fetch_add(1, Ordering::SeqCst);
        let obs = to_observation(&respond(case, &self.surface));
        let listen = case.body.windows(20).any(|w| w == b"subscriptions/listen");
        if !listen {
            return obs;
        }
        on_answer();
        let now = self.lingering.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_lingering.fetch_max(now, Ordering::SeqCst);
        match self.release {
            Release::WhenSeen(n) => {
                for _ in 0..10_000 {
                    if self.seen.load(Ordering::SeqCst) >= n {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
            Release::After(d) => tokio::time::sleep(d).await,
        }
        self.lingering.fetch_sub(1, Ordering::SeqCst);
        let seen = self.seen.load(Ordering::SeqCst);
        self.seen_at_end.lock().expect("not poisoned").push(seen);
        obs
    }
}

/// Listen cases every `LISTEN_EVERY` indices, `tools/list` between them.
struct ListenEvery(Surface);

impl CaseSource for ListenEvery {
    fn case(&self, _seed: u64, index: u64) -> Case {
        let id = json!(index);
        if index.is_multiple_of(LISTEN_EVERY) {
            conformant_case(&self.0, id, "subscriptions/listen", json!({}))
        } else {
            conformant_case(&self.0, id, "tools/list", json!({}))
        }
    }
}

impl Generator for ListenEvery {
    type Source = ListenEvery;
    fn for_surface(&self, surface: &Surface) -> ListenEvery {
        ListenEvery(surface.clone())
    }
}

async fn run_against(sender: &Lingerer, cases: u64, concurrency: usize) -> RunResult {
    let target = Target {
        name: "lingerer".into(),
        url: "inproc://lingerer".into(),
        sender: sender.clone(),
        surface: sender.surface.clone(),
        gen_surface: sender.surface.clone(),
        notes: Vec::new(),
    };
    let cfg = RunConfig {
        concurrency,
        shrink: ShrinkBudget::none(),
        max_disagreements: 0,
        ..RunConfig::new(cases, 3, Duration::from_secs(120))
    };
    let gen = ListenEvery(sender.surface.clone());
    run(vec![target], &gen, &cfg, &Quiet).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_cases_in_their_idle_window_do_not_hold_the_only_slot() {
    let cases = 3 * LISTEN_EVERY;
    let listens = cases.div_ceil(LISTEN_EVERY) as usize;
    assert!(
        listens <= LINGER_PER_WORKER,
        "all of them fit one worker's set"
    );
    let sender = Lingerer::new(Release::WhenSeen(cases as usize));
    let result = run_against(&sender, cases, 1).await;
    assert_eq!(result.cases, cases);
    // every listen case (the first one included, at index 0) lingered while the one slot
    // sent all the other cases: none ended before the target had received every case
    let ends = sender.seen_at_end.lock().expect("not poisoned").clone();
    assert_eq!(ends, vec![cases as usize; listens]);
    assert_eq!(sender.most_lingering.load(Ordering::SeqCst), listens);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lingering_cases_are_bounded_per_worker() {
    let concurrency = 2;
    // more listen cases than the lingering sets of both workers hold
    let listens = 2 * concurrency * (LINGER_PER_WORKER + 1);
    let cases = listens as u64 * LISTEN_EVERY;
    let sender = Lingerer::new(Release::After(Duration::from_millis(30)));
    let result = run_against(&sender, cases, concurrency).await;
    assert_eq!(result.cases, cases, "every case recorded");
    assert_eq!(sender.seen.load(Ordering::SeqCst), cases as usize);
    assert_eq!(
        sender.seen_at_end.lock().expect("not poisoned").len(),
        listens
    );
    // a worker's set is full: its next answered case keeps the slot until one ends
    let most = sender.most_lingering.load(Ordering::SeqCst);
    assert!(most <= concurrency * (LINGER_PER_WORKER + 1), "{most}");
}
