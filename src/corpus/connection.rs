//! Connection entries: a run's findings of the connection probes (BASE-STATELESS-NO-PRIOR,
//! TOOLS-/RES-/PROMPTS-LIST-STABLE) kept in the corpus. No one request shows them, so the
//! entry keeps the probe's whole sequence (`Entry::connections`: the requests grouped by the
//! connection that carried them, in the order sent) beside the request whose answer it
//! records (the last of the kept-alive connection), and its `verdict` says what the sequence
//! showed (`{"connection": RULE, "expectations": [{"rule", "demand": {"recorded_sequence":
//! "fails"}}]}`). Replay sends the sequence again the same way (each one-request connection
//! fresh, the kept-alive one kept open) and judges the answers with today's judge
//! (`mcpdiff_oracle::connection_seq`); a list's further pages are asked for with the cursors
//! the target gives in the replay, not the stored ones, which may have lapsed. The entry
//! keeps one answer, not the sequence's, so nothing re-judges it offline: it cannot drift,
//! and replay is what checks it.

use super::entry::{Entry, Recorded, StoredRequest};
use super::error::CorpusError;
use super::replay::{ReplayOutcome, Status};
use mcpdiff_oracle::connection_seq::Sequence;
use mcpdiff_oracle::reuse::Judgement;
use mcpdiff_oracle::rules::level_of;
use mcpdiff_oracle::undetermined::is_cut;
use mcpdiff_oracle::{Case, Level, Observation, Surface, Undetermined};
use serde_json::json;

/// Whether an entry holds a connection probe's sequence.
pub fn is_connection_entry(e: &Entry) -> bool {
    e.verdict.get("connection").is_some()
}

/// The entry of a connection probe's finding on `rule`: `case` (the last request of the
/// kept-alive connection) and the target's answer to it, and every request of the sequence by
/// connection. `None` when the sequence is not the one `rule`'s probe sends.
pub fn entry(
    rule: &str,
    source: &str,
    (case, obs): (&Case, &Observation),
    connections: &[Vec<Case>],
    (name, url): (&str, &str),
    surface: &Surface,
) -> Option<Entry> {
    Sequence::of(rule, connections.to_vec())?;
    let mut e = Entry::new(vec![rule.to_string()], source, case, surface);
    e.verdict = json!({
        "connection": rule,
        "expectations": [{"rule": rule, "demand": {"recorded_sequence": "fails"}}],
    });
    e.connections = connections
        .iter()
        .map(|c| c.iter().map(StoredRequest::from_case).collect())
        .collect();
    e.record(Recorded::new(
        name,
        url,
        obs.clone(),
        vec![rule.to_string()],
    ));
    Some(e)
}

/// The sequence an entry keeps, read back.
pub fn sequence(e: &Entry) -> Result<Sequence, CorpusError> {
    let rule = e.rules.first().cloned().unwrap_or_default();
    let mut connections = Vec::new();
    for c in &e.connections {
        let cases: Result<Vec<Case>, CorpusError> = c.iter().map(StoredRequest::to_case).collect();
        connections.push(cases?);
    }
    Sequence::of(&rule, connections).ok_or(CorpusError::NotAConnectionSequence(rule))
}

/// Today's judgement of a replayed sequence (`judged`, from `answers`: `Sequence::judge`, or
/// a list read again through the target's own cursors) against what was recorded for the
/// target. An undecided sequence is not determined: unreachable or timed out when an answer
/// was, else inconclusive (the list changed between the fresh readings, or the connection
/// was not kept).
pub fn classify(
    seq: &Sequence,
    stored: Option<&Recorded>,
    judged: Judgement,
    answers: &[Vec<Observation>],
) -> ReplayOutcome {
    let was_failing = stored.is_some_and(|r| !r.failing.is_empty());
    let failing: Vec<String> = match &judged {
        Judgement::Fail(f) => vec![f.rule.clone()],
        _ => Vec::new(),
    };
    let status = match (&judged, was_failing) {
        (Judgement::Undetermined, _) => Status::NotDetermined(why_undecided(answers)),
        (Judgement::Pass, true) => Status::Fixed,
        (Judgement::Pass, false) => Status::Passing,
        (Judgement::Fail(_), true) => Status::StillFailing,
        (Judgement::Fail(_), false) => Status::NewlyFailing,
    };
    ReplayOutcome {
        status,
        blocking: !failing.is_empty()
            && matches!(level_of(seq.rule.rule()), Level::Must | Level::MustNot),
        failing,
        // the sequence is judged on its one rule whatever the target answers
        unexercised: Vec::new(),
    }
}

/// Why a sequence decided nothing: the first answer that is no answer (as an authorization
/// entry reads one: no HTTP answer; and a `401` or an answer cut short, which the probes'
/// `reuse::outcome` reads as deciding nothing), else inconclusive.
fn why_undecided(answers: &[Vec<Observation>]) -> Undetermined {
    let reason = |o: &Observation| match o.http() {
        Some(a) if a.status == 401 => Some(Undetermined::Unauthorized),
        Some(_) if is_cut(o) => Some(Undetermined::TimedOut),
        _ => super::auth::undetermined(o),
    };
    answers
        .iter()
        .flatten()
        .find_map(reason)
        .unwrap_or(Undetermined::Inconclusive)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::fixture;
    use mcpdiff_oracle::reference::{respond, to_observation};
    use mcpdiff_oracle::reuse::reuse_probes;

    #[test]
    fn an_entry_keeps_its_sequence_and_a_broken_one_is_named() {
        let surface = fixture::surface();
        let p = &reuse_probes(&surface)[0];
        let connections = vec![
            vec![p.request.clone()],
            vec![p.prior.clone(), p.request.clone()],
        ];
        let obs = to_observation(&respond(&p.request, &surface));
        let at = ("known", "http://127.0.0.1:1/mcp");
        let rule = "BASE-STATELESS-NO-PRIOR";
        let e = entry(rule, "test", (&p.request, &obs), &connections, at, &surface)
            .expect("the probe's shape");
        assert!(is_connection_entry(&e));
        assert_eq!(sequence(&e).expect("read back").connections(), connections);
        // not the probe's shape: no entry, and a stored one that lost a connection is named
        let short = &connections[1..];
        assert!(entry(rule, "test", (&p.request, &obs), short, at, &surface).is_none());
        let mut broken = e.clone();
        broken.connections.remove(0);
        assert_eq!(
            sequence(&broken),
            Err(CorpusError::NotAConnectionSequence(rule.to_string()))
        );
        assert!(CorpusError::NotAConnectionSequence(rule.to_string())
            .to_string()
            .contains("BASE-STATELESS-NO-PRIOR probe"));
    }
}
