//! One legacy (2025-11-25) sequence over the wire: each step's request built from the track
//! the earlier answers imply (`case_for`), sent, and judged by the pure legacy judge. Every
//! user of a sequence goes through here (the fixed sequences, the generated ones, the
//! shrinker's candidates, the corpus replay, the differential), so a step means the same
//! request and the same judgement wherever it is sent.

use super::legacy::{request_text, LegacyFinding};
use super::Sender;
use mcpdiff_oracle::case::HeaderField;
use mcpdiff_oracle::legacy::{
    case_for, expectations, judge_step, LegacyProfile, LegacyStep, SessionTrack, StepOutcome, Track,
};
use mcpdiff_oracle::signature::ObservationKind;
use mcpdiff_oracle::{Case, Observation, Surface};
use std::future::Future;

/// One step as sent and judged.
#[derive(Clone, Debug)]
pub struct StepRecord {
    pub step: LegacyStep,
    /// The session state the earlier answers implied when the step was sent.
    pub before: Track,
    pub case: Case,
    pub observation: Observation,
    /// The rules this step could have failed (empty when it decided nothing).
    pub checked: Vec<String>,
    pub outcome: StepOutcome,
}

/// What sending one sequence gave.
#[derive(Clone, Debug, Default)]
pub struct SequenceRun {
    pub records: Vec<StepRecord>,
}

impl SequenceRun {
    /// Steps with no answer to judge.
    pub fn not_determined(&self) -> usize {
        self.records
            .iter()
            .filter(|r| matches!(r.outcome, StepOutcome::NotDetermined(_)))
            .count()
    }

    /// Every finding of the run, each with the steps up to its own (named `name`).
    pub fn findings(&self, name: &str) -> Vec<LegacyFinding> {
        let mut out = Vec::new();
        for (i, r) in self.records.iter().enumerate() {
            let StepOutcome::Judged(fs) = &r.outcome else {
                continue;
            };
            for f in fs {
                out.push(LegacyFinding {
                    sequence: name.to_string(),
                    step: i,
                    rule: f.rule.clone(),
                    level: f.level.clone(),
                    expected: f.expected.clone(),
                    observed: f.observed.clone(),
                    steps: self.records[..=i].iter().map(|r| r.step.clone()).collect(),
                    request: request_text(&r.case),
                    shrunk_from: None,
                    baselined: false,
                    observations: self.records[..=i]
                        .iter()
                        .map(|r| r.observation.clone())
                        .collect(),
                });
            }
        }
        out
    }

    /// Whether the last step broke `rule` with an answer of kind `kind` (the failure
    /// signature a shrunk sequence must keep).
    pub fn last_fails(&self, rule: &str, kind: &ObservationKind) -> bool {
        let Some(last) = self.records.last() else {
            return false;
        };
        let StepOutcome::Judged(fs) = &last.outcome else {
            return false;
        };
        fs.iter().any(|f| f.rule == rule) && kind_of(&last.observation) == *kind
    }
}

/// Whether `case` is a GET that resumes nothing (no `Last-Event-ID`): the generated,
/// shrunk and compared sequences send it with `Sender::send_listening`, so its stream ends
/// after `Limits::sse_quiet` (300 ms) without a byte instead of at `sse_max_time` (3 s by
/// default). A quiet listening stream is what every conforming server answers such a GET
/// with, so this is where the legacy stage's time went (issue 23).
///
/// Why the judge loses no verdict by it. A stream cut for silence is `Body::Sse { closed:
/// false }`, exactly what a stream cut at `sse_max_time` or `sse_max_events` already was:
/// "mcpdiff stopped reading", never "the server ended it". The demands such a step carries
/// (`oracle::legacy::expectations` for `Get`, `ForeignOriginGet`, and `Resume` with no
/// stream to resume, which sends no `Last-Event-ID`) are of two kinds:
/// - decided by the head alone: L-SHTTP-GET-SSE-OR-405 (status and media type),
///   L-SHTTP-SESSION-404, L-SHTTP-SESSION-MISSING-400, L-SHTTP-ORIGIN-VALIDATE,
///   L-SHTTP-ORIGIN-403 (status); where the body read stops does not touch them;
/// - broken by an event being on the stream: L-BASE-UTF8 (bytes outside UTF-8),
///   L-LIFE-NO-REQUESTS-BEFORE-INITIALIZED and L-LIFE-OPERATION (a server request),
///   L-SHTTP-EVENTID-UNIQUE (a repeated id), L-SHTTP-GET-NO-RESPONSE (a JSON-RPC response).
///   Reading fewer events can only leave such a finding unseen, never make one; and their
///   pass was always "no such event among the events read", a read that a limit ends
///   anyway. None of them reads whether the stream was closed.
///
/// The stream's end matters only where a demand reads `closed`: L-SHTTP-SSE-TERMINATE,
/// -RETRY and -PRIME judge the stream answering a POST (never sent listening), and
/// L-SHTTP-SSE-RESPONSE judges a resumption, which "stays open" satisfies: a resumption
/// cut for silence would pass even if the server later closed it without the owed response,
/// so a GET carrying `Last-Event-ID` is read to its limits as before. What a GET's events
/// add to the session track (its event ids, the responses it carried) only feeds later
/// demands of the same monotone kind (L-SHTTP-EVENTID-UNIQUE, L-SHTTP-RESUME-SAME-STREAM:
/// fewer ids known, fewer findings possible); the one it could loosen, L-SHTTP-SSE-RESPONSE's
/// "a response answered elsewhere does not count", would need a response on the GET stream,
/// itself a L-SHTTP-GET-NO-RESPONSE finding, sent after 300 ms of silence (a full read
/// misses one sent after 3 s the same way). The fixed sequences of the revision probe are
/// sent the same way (`runner::legacy::run`, where their own steps are gone through); the
/// corpus replay still reads every stream to its limits, so a finding found here replays
/// there (a longer read sees the same events and more).
pub fn quiet_get(case: &Case) -> bool {
    case.method == "GET" && matches!(case.header("Last-Event-ID"), HeaderField::Absent)
}

/// Send `case` with `sender`: a GET that resumes nothing ([`quiet_get`]) as a listening
/// stream (`Sender::send_listening`), anything else as it is.
pub async fn send_step<S: Sender>(sender: &S, case: Case) -> Observation {
    if quiet_get(&case) {
        sender.send_listening(case).await
    } else {
        sender.send(case).await
    }
}

/// The kind of answer a legacy finding is about. Every legacy demand names exact statuses
/// or a body shape, so the exact status is kept (a 404 that became a 400 is another failure).
pub fn kind_of(obs: &Observation) -> ObservationKind {
    ObservationKind::of(obs, true)
}

/// Send `steps` one at a time to the endpoint `endpoint` with `send`, judging each answer.
/// With `close`, a session the sequence leaves live is ended with a DELETE afterwards (not
/// judged: only so generated sequences do not pile up sessions on the target).
pub async fn run_steps<F, Fut>(
    steps: &[LegacyStep],
    endpoint: &str,
    profile: &LegacyProfile,
    close: bool,
    mut send: F,
) -> SequenceRun
where
    F: FnMut(Case) -> Fut,
    Fut: Future<Output = Observation>,
{
    let surface = Surface::minimal(endpoint);
    let mut track = Track::start();
    let mut run = SequenceRun::default();
    for (i, step) in steps.iter().enumerate() {
        let case = case_for(step, &track, &surface, i);
        let observation = send(case.clone()).await;
        let demands = expectations(step, &track, profile);
        let (outcome, next) = judge_step(step, &track, &observation, profile);
        let before = std::mem::replace(&mut track, next);
        let checked = match outcome {
            StepOutcome::Judged(_) => demands.iter().map(|(r, _)| r.0.to_string()).collect(),
            StepOutcome::NotDetermined(_) => Vec::new(),
        };
        run.records.push(StepRecord {
            step: step.clone(),
            before,
            case,
            observation,
            checked,
            outcome,
        });
    }
    if close {
        if let SessionTrack::Live(id) = &track.session {
            let mut del = Case::post(endpoint, &[("Mcp-Session-Id", id.as_str())], "");
            del.method = "DELETE".to_string();
            let _ = send(del).await;
        }
    }
    run
}
