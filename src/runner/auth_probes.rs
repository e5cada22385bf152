//! The authorization probe family after a run: send it to every protected target
//! (`crate::auth::probe`) and record its judgements in the target's tally like any other
//! finding (one witness and one finding per failed rule, not shrunk: each probe is already
//! minimal).

use super::tally::Witness;
use super::{RunResult, ShrunkFinding, TargetOutcome};
use crate::auth::{probe, AuthResult};
use crate::transport::{Client, Endpoint};

/// Record the judgements in a target's outcome: exercised and failed counts, one witness
/// and one finding per failed rule (not shrunk: each probe is already minimal).
pub fn record(t: &mut TargetOutcome, results: Vec<AuthResult>) {
    for r in results {
        let c = t.tally.rules.entry(r.rule).or_default();
        c.exercised += 1;
        let Some(finding) = r.finding else { continue };
        c.failed += 1;
        if let Some(w) = t.tally.witnesses.get_mut(&r.rule) {
            w.count += 1;
            if let Some(f) = t.findings.iter_mut().find(|f| f.rule == r.rule) {
                f.count += 1;
            }
            continue;
        }
        t.tally.witnesses.insert(
            r.rule,
            Witness {
                case: r.case.clone(),
                observation: r.observation.clone(),
                finding,
                count: 1,
                index: u64::MAX,
                defects: 0,
            },
        );
        t.findings.push(ShrunkFinding {
            rule: r.rule,
            original: r.case.clone(),
            original_observation: r.observation.clone(),
            case: r.case,
            observation: r.observation,
            kept_original: None,
            // (not checked: a probe's finding is replayed as the probe sent it, by connection)
            alone: None,
            twin: None,
            count: 1,
            shrink_requests: 0,
            cut_short: false,
            connections: r.connections,
        });
    }
}

/// After the run: probe every protected target (recording the judgements and the requests
/// sent) and, when `--header` fields were given, tell each target's reader which environment
/// variables its reproducers read.
pub async fn after_run(client: &Client, result: &mut RunResult) {
    let creds = client.credentials();
    for t in result.targets.iter_mut() {
        if let (true, Ok(e)) = (t.surface.protected, Endpoint::parse(&t.url)) {
            let (judged, sent) = probe(client, &e).await;
            result.requests += sent;
            record(t, judged);
        }
        if !creds.is_empty() {
            t.notes.push(format!(
                "reproducers read the --header values from the environment: set {}",
                creds.env_help().join(" ")
            ));
        }
    }
}
