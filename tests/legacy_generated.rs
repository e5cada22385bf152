//! Generated 2025-11-25 sequences and legacy shrinking over loopback HTTP, against
//! `serve --dual-era` (the pure legacy reference and its one-rule mutants): the same seed
//! sends the same sequences; a mutant's finding on a long sequence shrinks to a shorter one
//! that, sent again, still breaks the same rule on the same mutant; the reference stays
//! clean on every generated sequence.

use mcpdiff::runner::legacy::RevisionOutcome;
use mcpdiff::runner::legacy_generated::{extend, LegacyPlan};
use mcpdiff::runner::legacy_seq::run_steps;
use mcpdiff::runner::legacy_shrink::{shrink, LegacyShrinkBudget};
use mcpdiff::runner::{NetSender, Pacer, Sender};
use mcpdiff::serve::legacy::LegacyVariant;
use mcpdiff::serve::{spawn_full, RunningServer, ServeOptions, Variant};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::legacy::{LegacyProfile, LegacyStep, SessionUse, VersionHeader};
use mcpdiff_oracle::reference::legacy::{legacy_mutant, LEGACY_VERSIONS};
use mcpdiff_oracle::{fixture, Case, Observation, Revision};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

async fn serve(legacy: LegacyVariant) -> (RunningServer, NetSender) {
    let opts = ServeOptions {
        dual_era: Some(legacy),
        ..ServeOptions::default()
    };
    let addr = "127.0.0.1:0".parse().expect("literal address");
    let server = spawn_full(Variant::Reference, addr, fixture::surface(), opts)
        .await
        .expect("bind loopback");
    // a quiet GET stream is read for 300 ms, not the default 3 s
    let limits = Limits {
        sse_max_time: Duration::from_millis(300),
        ..Limits::default()
    };
    let endpoint = Endpoint::parse(&server.url).expect("the server's own URL");
    let sender = NetSender {
        client: Client::new(limits),
        endpoint: Arc::new(endpoint),
    };
    (server, sender)
}

fn versions() -> Vec<String> {
    LEGACY_VERSIONS.iter().map(|v| v.to_string()).collect()
}

fn empty_outcome() -> RevisionOutcome {
    RevisionOutcome {
        revision: Revision::V2025_11_25,
        score: 1.0,
        findings: Vec::new(),
        not_determined: 0,
        steps: 0,
        rules_checked: Vec::new(),
        generated: 0,
        disagreements: Vec::new(),
    }
}

fn plan(seed: u64, sequences: u64) -> LegacyPlan {
    let until = Instant::now() + Duration::from_secs(60);
    LegacyPlan {
        seed,
        sequences,
        in_flight: 4,
        until,
        shrink: LegacyShrinkBudget {
            max_requests: 60,
            max_time: Duration::from_secs(10),
            deadline: Some(until),
        },
    }
}

/// A sender that notes what it sent: method, version header and body (the session id the
/// target minted differs per run, the rest is the sequence's).
#[derive(Clone)]
struct Recording {
    inner: NetSender,
    log: Arc<Mutex<Vec<String>>>,
}

impl Sender for Recording {
    async fn send(&self, case: Case) -> Observation {
        let version = case
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(b"mcp-protocol-version"))
            .map(|(_, v)| String::from_utf8_lossy(v).to_string());
        let line = format!(
            "{} {version:?} {}",
            case.method,
            String::from_utf8_lossy(&case.body)
        );
        self.log.lock().expect("not poisoned").push(line);
        self.inner.send(case).await
    }
}

async fn sent_with(seed: u64) -> (Vec<String>, RevisionOutcome) {
    let (server, sender) = serve(LegacyVariant::Reference).await;
    let rec = Recording {
        inner: sender,
        log: Arc::default(),
    };
    let mut outcome = empty_outcome();
    let endpoint = rec.inner.endpoint.path.clone();
    let x = extend(
        &mut outcome,
        &rec,
        &endpoint,
        &versions(),
        &plan(seed, 40),
        &Pacer::new(None),
    )
    .await;
    server.shutdown().await;
    assert_eq!((x.sent, x.cut), (40, 0));
    let mut log = rec.log.lock().expect("not poisoned").clone();
    // sequences run concurrently: the order of their requests interleaves, not their content
    log.sort();
    (log, outcome)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_seed_sends_the_same_sequences_and_the_reference_is_clean() {
    let (a, outcome) = sent_with(3).await;
    let (b, _) = sent_with(3).await;
    let (c, _) = sent_with(4).await;
    assert!(!a.is_empty());
    assert_eq!(a, b, "same seed, same requests");
    assert_ne!(a, c, "another seed, other sequences");
    assert!(outcome.findings.is_empty(), "{:#?}", outcome.findings);
    assert_eq!(outcome.generated, 40);
    assert_eq!(outcome.not_determined, 0);
    assert!(
        outcome.rules_checked.len() >= 5,
        "{:?}",
        outcome.rules_checked
    );
}

/// `steps`, run on the mutant, fail `rule` at the last step; shrunk, they fail it still, in
/// fewer steps, when sent again.
async fn shrinks_on(mutant: &str, steps: Vec<LegacyStep>) {
    let m = legacy_mutant(mutant).expect("a legacy mutant");
    let (server, sender) = serve(LegacyVariant::Mutant(m)).await;
    let endpoint = sender.endpoint.path.clone();
    let profile = LegacyProfile {
        supported: versions(),
    };
    let send = |c: Case| {
        let s = sender.clone();
        async move { s.send(c).await }
    };
    let run = run_steps(&steps, &endpoint, &profile, true, send).await;
    let last = steps.len() - 1;
    let finding = run
        .findings("test")
        .into_iter()
        .find(|f| f.step == last && f.rule == m.rule.0)
        .unwrap_or_else(|| panic!("{mutant}: no {} finding at the last step", m.rule));
    let budget = LegacyShrinkBudget {
        max_requests: 100,
        max_time: Duration::from_secs(20),
        deadline: None,
    };
    let shrunk = shrink(&finding, &endpoint, &profile, budget, send)
        .await
        .unwrap_or_else(|| panic!("{mutant}: no shorter sequence kept the failure"));
    assert!(shrunk.steps.len() < steps.len(), "{mutant}: {shrunk:#?}");
    assert_eq!(shrunk.shrunk_from, Some(steps.len()));
    assert_eq!(shrunk.rule, m.rule.0);
    assert_eq!(shrunk.step, shrunk.steps.len() - 1);
    // sent again, the shrunk sequence still fails the rule at its last step
    let again = run_steps(&shrunk.steps, &endpoint, &profile, true, send).await;
    assert!(
        again
            .findings("again")
            .iter()
            .any(|f| f.step == shrunk.step && f.rule == m.rule.0),
        "{mutant}: the shrunk sequence no longer fails"
    );
    server.shutdown().await;
}

fn init() -> LegacyStep {
    LegacyStep::Initialize {
        version: LEGACY_VERSIONS[0].to_string(),
    }
}

fn ping(session: SessionUse) -> LegacyStep {
    LegacyStep::Request {
        method: "ping".into(),
        session,
        version: VersionHeader::Negotiated,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mutants_finding_shrinks_and_still_fails_its_rule() {
    // a notification answered 200: the ping and the earlier session are not needed
    shrinks_on(
        "legacy-notification-200",
        vec![
            init(),
            ping(SessionUse::Current),
            init(),
            ping(SessionUse::Missing),
            ping(SessionUse::Current),
            LegacyStep::Initialized,
        ],
    )
    .await;
    // a deleted session still served: the initialize and the DELETE stay, the rest goes
    shrinks_on(
        "legacy-deleted-session-served",
        vec![
            init(),
            LegacyStep::Initialized,
            ping(SessionUse::Current),
            LegacyStep::Delete {
                session: SessionUse::Current,
            },
            ping(SessionUse::Unknown),
            ping(SessionUse::Current),
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_findings_are_one_per_rule_and_shrunk() {
    let m = legacy_mutant("legacy-deleted-session-served").expect("a legacy mutant");
    let (server, sender) = serve(LegacyVariant::Mutant(m)).await;
    let endpoint = sender.endpoint.path.clone();
    let mut outcome = empty_outcome();
    let x = extend(
        &mut outcome,
        &sender,
        &endpoint,
        &versions(),
        &plan(1, 40),
        &Pacer::new(None),
    )
    .await;
    server.shutdown().await;
    let rules: Vec<&str> = outcome.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, vec![m.rule.0], "{:#?}", outcome.findings);
    let f = &outcome.findings[0];
    // initialize, DELETE, a request in the dead session: nothing shorter shows it
    assert_eq!(f.steps.len(), 3, "{f:#?} ({x:?})");
    assert!(matches!(f.steps[0], LegacyStep::Initialize { .. }));
    assert_eq!(outcome.score, 0.0);
}

#[test]
fn a_sessionless_step_with_an_unknown_version_is_off_the_legacy_path() {
    use mcpdiff_oracle::legacy::{expectations, SessionTrack, Track};
    let live = Track {
        session: SessionTrack::Live("s".into()),
        negotiated: Some(LEGACY_VERSIONS[0].to_string()),
        initialized: true,
        ..Track::start()
    };
    let profile = LegacyProfile {
        supported: versions(),
    };
    let step = |version| LegacyStep::Request {
        method: "ping".into(),
        session: SessionUse::Missing,
        version,
    };
    // D-L40: a dual-era target serves it by 2026-07-28
    assert!(expectations(&step(VersionHeader::Unsupported), &live, &profile).is_empty());
    // with the negotiated version it is a legacy request without its session (D-L3)
    let rules: Vec<&str> = expectations(&step(VersionHeader::Negotiated), &live, &profile)
        .iter()
        .map(|(r, _)| r.0)
        .collect();
    // (L-BASE-UTF8 binds every legacy answer, D-L19)
    assert_eq!(rules, vec!["L-BASE-UTF8", "L-SHTTP-SESSION-MISSING-400"]);
    // D-L41: a negotiated 1900-01-01 is the unsupported version the step's header carries,
    // so beside a dead session 400 is allowed as well as 404 (D-L9)
    let dead = |negotiated: &str| Track {
        session: SessionTrack::Terminated("s".into()),
        negotiated: Some(negotiated.to_string()),
        initialized: true,
        ..Track::start()
    };
    let demands = |t: &Track| {
        expectations(&LegacyStep::Initialized, t, &profile)
            .into_iter()
            .filter(|(r, _)| r.0 != "L-BASE-UTF8")
            .map(|(r, d)| format!("{} {d}", r.0))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        demands(&dead(mcpdiff_oracle::legacy::BOGUS_VERSION)),
        vec!["L-SHTTP-SESSION-404 HTTP 404 or 400"]
    );
    assert_eq!(
        demands(&dead(LEGACY_VERSIONS[0])),
        vec!["L-SHTTP-SESSION-404 HTTP 404"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_legacy_mutant_keeps_one_reproducing_finding_on_its_own_rule() {
    use mcpdiff::runner::legacy;
    use mcpdiff_oracle::reference::legacy::LEGACY_MUTANTS;
    let mut failures = Vec::new();
    for m in LEGACY_MUTANTS {
        let (server, sender) = serve(LegacyVariant::Mutant(m)).await;
        let endpoint = sender.endpoint.path.clone();
        let send = |c: Case| {
            let s = sender.clone();
            async move { s.send(c).await }
        };
        // as a run does: the fixed sequences, then the generated ones, shrunk
        let mut outcome = legacy::run(&endpoint, &versions(), send)
            .await
            .expect("known versions");
        extend(
            &mut outcome,
            &sender,
            &endpoint,
            &versions(),
            &plan(9, 16),
            &Pacer::new(None),
        )
        .await;
        let rules: Vec<&str> = outcome.findings.iter().map(|f| f.rule.as_str()).collect();
        if rules != vec![m.rule.0] {
            let found: Vec<String> = outcome
                .findings
                .iter()
                .map(|f| format!("{} {:?}: {}", f.rule, f.steps, f.observed))
                .collect();
            failures.push(format!("{}: {found:#?}", m.name));
        }
        let profile = LegacyProfile {
            supported: versions(),
        };
        for f in &outcome.findings {
            let again = run_steps(&f.steps, &endpoint, &profile, true, send).await;
            if !again
                .findings("again")
                .iter()
                .any(|g| g.step == f.steps.len() - 1 && g.rule == f.rule)
            {
                failures.push(format!("{}: {:?} does not reproduce", m.name, f.steps));
            }
        }
        server.shutdown().await;
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The dual-era reference as `serve --dual-era` answers (`route` picks the era, the legacy
/// side keeps its session table), in process: no L-* finding on any of thousands of
/// generated sequences. This is what found D-L40 and D-L41: the routing and the judge must
/// agree on which requests are on the legacy path, wherever the generator walks.
#[test]
fn the_routed_dual_era_reference_is_clean_on_generated_sequences() {
    use mcpdiff_oracle::legacy::{case_for, judge_step, StepOutcome, Track};
    use mcpdiff_oracle::reference::legacy::{respond, route, Era, LegacyState};
    use mcpdiff_oracle::reference::{self, to_observation};
    use mcpdiff_props::legacy_gen::legacy_sequence;
    // the surface `spawn_full` serves with `dual_era`: legacy versions published (D-33), and
    // the modern side answering as a dual-era server does
    let mut s = fixture::surface();
    for v in LEGACY_VERSIONS {
        if !s.supported_versions.iter().any(|x| x == v) {
            s.supported_versions.push(v.to_string());
        }
    }
    s.legacy_era = true;
    let profile = LegacyProfile {
        supported: versions(),
    };
    for seed in 1..=3u64 {
        for i in 0..1000u64 {
            let steps = legacy_sequence(seed, i, &versions());
            let mut state = LegacyState::new("routed");
            let mut track = Track::start();
            for (k, step) in steps.iter().enumerate() {
                let case = case_for(step, &track, &s, k);
                let answer = match route(&case) {
                    Era::Legacy => {
                        let (a, next) = respond(state, &case, &s);
                        state = next;
                        a
                    }
                    Era::Modern => reference::respond(&case, &s),
                };
                let (outcome, next) = judge_step(step, &track, &to_observation(&answer), &profile);
                assert!(
                    matches!(&outcome, StepOutcome::Judged(f) if f.is_empty()),
                    "seed {seed} sequence {i} step {k}: {outcome:?}\n{steps:#?}"
                );
                track = next;
            }
        }
    }
}
