//! Authorization entries: a run's `AUTH-*` findings kept in the corpus. Their case is one
//! probe of the authorization family (label `auth: <kind>`, credentials as placeholders) or
//! the GET of a metadata location (label `auth: metadata`), and they are judged by the
//! authorization judge (`mcpdiff_oracle::auth`), not by `judge`. So the entry's `verdict`
//! holds what that judge said of the recorded answer, per rule (`{"auth": KIND,
//! "expectations": [{"rule", "demand": {"recorded_answer": "fails"|"passes"}}]}`): replay
//! re-judges the recorded answer with today's judge (drift), and sends the case again
//! exactly as written (placeholders filled, no configured field added) and judges the new
//! answer. A metadata entry is judged as a document fetched alone (the challenge that named
//! it is not replayed).

use super::entry::{Entry, Recorded};
use mcpdiff_oracle::auth::{
    auth_probes, judge_metadata, judge_probe, AuthJudgement, MetadataFacts, ProbeKind,
};
use mcpdiff_oracle::{Case, Observation, Surface, TransportFailure, Undetermined};
use serde_json::{json, Value};

/// The label of a metadata fetch (`auth::get`).
const METADATA_LABEL: &str = "auth: metadata";

/// What an authorization case is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthCase {
    Probe(ProbeKind),
    Metadata,
}

impl AuthCase {
    /// The authorization case `case` is, from its label; `None` for any other case.
    pub fn of(case: &Case) -> Option<AuthCase> {
        let label = case.labels.iter().find_map(|l| l.strip_prefix("auth: "))?;
        if format!("auth: {label}") == METADATA_LABEL {
            return Some(AuthCase::Metadata);
        }
        auth_probes("/", true)
            .into_iter()
            .find(|p| p.kind.label() == label)
            .map(|p| AuthCase::Probe(p.kind))
    }

    fn name(self) -> &'static str {
        match self {
            AuthCase::Probe(k) => k.label(),
            AuthCase::Metadata => "metadata",
        }
    }

    /// Today's judgements of `obs`, the answer of the target at `target_url`.
    pub fn judge(self, obs: &Observation, target_url: &str) -> Vec<AuthJudgement> {
        match self {
            AuthCase::Probe(kind) => judge_probe(kind, obs),
            AuthCase::Metadata => {
                let facts = MetadataFacts {
                    challenge_url: None,
                    fetched: vec![(target_url.to_string(), Some(obs.clone()))],
                    target_url: target_url.to_string(),
                };
                judge_metadata(&facts).into_iter().map(|(j, _)| j).collect()
            }
        }
    }

    /// The entry's `verdict`: per judged rule, whether the recorded answer breaks it.
    pub fn verdict_json(self, judged: &[AuthJudgement]) -> Value {
        let list: Vec<Value> = judged
            .iter()
            .map(|j| {
                let on = if j.finding.is_some() {
                    "fails"
                } else {
                    "passes"
                };
                json!({"rule": j.rule.0, "demand": {"recorded_answer": on}})
            })
            .collect();
        json!({"auth": self.name(), "expectations": list})
    }
}

/// The rules `judged` finds broken.
pub fn failing(judged: &[AuthJudgement]) -> Vec<String> {
    judged
        .iter()
        .filter(|j| j.finding.is_some())
        .map(|j| j.rule.0.to_string())
        .collect()
}

/// Why an answer to an authorization case decides nothing: no HTTP answer (the judge judges
/// nothing on a transport failure).
pub fn undetermined(obs: &Observation) -> Option<Undetermined> {
    match obs {
        Observation::Transport {
            failure: TransportFailure::Timeout,
        } => Some(Undetermined::TimedOut),
        Observation::Transport { .. } => Some(Undetermined::Unreachable),
        Observation::Http(_) => None,
    }
}

/// The entry of an `AUTH-*` finding on `rule`: its case, and the answer of the target
/// (`name` at `url`) judged by the authorization judge. `None` when the case is not an
/// authorization case.
pub fn entry(
    rule: &str,
    source: &str,
    (case, obs): (&Case, &Observation),
    (name, url): (&str, &str),
    surface: &Surface,
) -> Option<Entry> {
    let kind = AuthCase::of(case)?;
    let judged = kind.judge(obs, url);
    let mut e = Entry::new(vec![rule.to_string()], source, case, surface);
    e.verdict = kind.verdict_json(&judged);
    e.record(Recorded::new(name, url, obs.clone(), failing(&judged)));
    Some(e)
}

/// The credentials a case's placeholders stand for and `replay` must be given to send it as
/// it was sent: (`-H 'Authorization: ...'`, `--foreign-token`).
pub fn needs(case: &Case) -> (bool, bool) {
    let holds = |name: &str| {
        let p = mcpdiff_oracle::auth::placeholder(name).into_bytes();
        let has = |b: &[u8]| b.windows(p.len()).any(|w| w == p.as_slice());
        has(case.path.as_bytes()) || case.headers.iter().any(|(_, v)| has(v))
    };
    use mcpdiff_oracle::auth::{AUTHORIZATION_ENV, FOREIGN_ENV, TOKEN_ENV};
    (
        holds(AUTHORIZATION_ENV) || holds(TOKEN_ENV),
        holds(FOREIGN_ENV),
    )
}

/// Whether an entry holds an authorization case.
pub fn is_auth_entry(e: &Entry) -> bool {
    e.verdict.get("auth").is_some()
}
