//! Replaying an entry, the pure half: re-judge the stored case with today's oracle and say
//! what changed (drift), and classify a target's answer against what was recorded (still
//! failing, fixed, newly failing, or not determined: an answer cut by a limit, refused by the
//! authorization layer or never received decides nothing, as in a run). Sending the case is
//! the CLI's job (`cmd/replay.rs`).

use super::auth::{self, is_auth_entry, AuthCase};
use super::connection::{self, is_connection_entry};
use super::entry::{verdict_json, Entry, Recorded};
use super::error::CorpusError;
use mcpdiff_oracle::connection_seq::Sequence;
use mcpdiff_oracle::isolation::benign::BENIGN_RULES;
use mcpdiff_oracle::rules::{level_of, RuleId};
use mcpdiff_oracle::{
    assess_against, judge, Case, Level, Observation, Settled, Surface, Undetermined, Verdict,
};
use serde_json::Value;
use std::collections::BTreeMap;

/// An entry re-judged with today's oracle.
pub struct Rejudged {
    pub case: Case,
    pub surface: Surface,
    pub verdict: Verdict,
    /// Today's expectations as stored ([`verdict_json`]).
    pub now: Value,
    /// How the stored expectations differ from today's, one line per rule (empty: no drift).
    pub drift: Vec<String>,
    /// An authorization entry (`corpus::auth`): judged by the authorization judge, sent as
    /// written.
    pub auth: Option<AuthCase>,
    /// A connection entry (`corpus::connection`): its sequence, sent again connection by
    /// connection and judged whole.
    pub sequence: Option<Sequence>,
}

/// Re-judge an entry. Err when the stored request or surface cannot be decoded. An
/// authorization entry is re-judged on its recorded answer with today's authorization judge;
/// a connection entry is not re-judged (it cannot drift) and its sequence is read back.
pub fn rejudge(entry: &Entry) -> Result<Rejudged, CorpusError> {
    let case = entry.request.to_case()?;
    let surface = entry.surface.resolve()?;
    let verdict = judge(&case, &surface);
    let sequence = if is_connection_entry(entry) {
        Some(connection::sequence(entry)?)
    } else {
        None
    };
    let (now, auth) = if sequence.is_some() {
        // the entry keeps one answer of its sequence: nothing to re-judge offline
        (entry.verdict.clone(), None)
    } else if is_auth_entry(entry) {
        let kind = AuthCase::of(&case).ok_or(CorpusError::NotAnAuthCase)?;
        let now = match entry.targets.first() {
            Some(r) => kind.verdict_json(&kind.judge(&r.observation, &r.url)),
            // nothing recorded to re-judge
            None => entry.verdict.clone(),
        };
        (now, Some(kind))
    } else {
        (verdict_json(&verdict), None)
    };
    let drift = diff(&entry.verdict, &now);
    Ok(Rejudged {
        case,
        surface,
        verdict,
        now,
        drift,
        auth,
        sequence,
    })
}

/// Rule id -> its demand, from a stored expectations object.
fn by_rule(v: &Value) -> BTreeMap<String, Vec<&Value>> {
    let mut out: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    let list = v.get("expectations").and_then(Value::as_array);
    for e in list.into_iter().flatten() {
        let rule = e.get("rule").and_then(Value::as_str).unwrap_or("?");
        out.entry(rule.to_string())
            .or_default()
            .push(e.get("demand").unwrap_or(&Value::Null));
    }
    out
}

/// What changed between the stored and today's expectations, in words.
pub fn diff(stored: &Value, now: &Value) -> Vec<String> {
    if stored == now {
        return Vec::new();
    }
    let (old, new) = (by_rule(stored), by_rule(now));
    let mut out = Vec::new();
    for (rule, demand) in &old {
        match new.get(rule) {
            None => out.push(format!("{rule}: no longer triggered")),
            Some(d) if d != demand => out.push(format!(
                "{rule}: allowed answers changed from {} to {}",
                compact(demand),
                compact(d)
            )),
            Some(_) => {}
        }
    }
    for (rule, demand) in &new {
        if !old.contains_key(rule) {
            out.push(format!(
                "{rule}: newly triggered, allows {}",
                compact(demand)
            ));
        }
    }
    if out.is_empty() {
        // same rules and demands in another order, or a malformed stored verdict
        out.push("the stored verdict differs from today's (order or format)".into());
    }
    out
}

fn compact(v: &[&Value]) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.chars().count() > 160 {
        format!("{}…", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

/// A target's answer now, compared with what was recorded for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Passes now and passed (or was never recorded failing).
    Passing,
    /// Failed when recorded and passes now.
    Fixed,
    /// Failed when recorded and fails now.
    StillFailing,
    /// Passed when recorded (or was not recorded) and fails now.
    NewlyFailing,
    /// The answer decides nothing (`mcpdiff_oracle::settle`): neither passing nor failing,
    /// whatever was recorded.
    NotDetermined(Undetermined),
    /// Failed when recorded, fails nothing now, but today's Verdict no longer exercises a rule
    /// it failed (the target stopped declaring the tool the case calls, the answer no longer
    /// carries what a lint speaks of, the rule was renamed): "fixed" would claim a rule passes
    /// that this answer never tested, so it is not determined.
    Unexercised,
    /// Fails only benign-input rules, and the same request without its benign inputs fails
    /// too, on other rules (`explained_benign`): the benign input is not what the target trips
    /// over, so this entry's rules are not decided by this answer (P-BENIGN).
    Explained,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Passing => "passing",
            Status::Fixed => "fixed",
            Status::StillFailing => "still failing",
            Status::NewlyFailing => "newly failing",
            Status::NotDetermined(Undetermined::TimedOut) => "not determined: timed out",
            Status::NotDetermined(Undetermined::Unauthorized) => "not determined: unauthorized",
            Status::NotDetermined(Undetermined::Unreachable) => "not determined: unreachable",
            Status::NotDetermined(Undetermined::Inconclusive) => "not determined: inconclusive",
            Status::Unexercised => "not determined: no longer exercised",
            Status::Explained => "not determined: explained by its plain twin",
        }
    }

    /// Why the answer decided nothing (as in "3 timed out"), or `None` when it decided
    /// something: passing, fixed or failing.
    pub fn undecided(self) -> Option<&'static str> {
        match self {
            Status::NotDetermined(u) => Some(u.as_str()),
            Status::Unexercised => Some("no longer exercised"),
            Status::Explained => Some("explained by its plain twin"),
            _ => None,
        }
    }
}

/// One target's answer to a replayed entry.
pub struct ReplayOutcome {
    pub status: Status,
    /// Rule ids failing now.
    pub failing: Vec<String>,
    /// Whether a failing rule is MUST / MUST NOT (fails the replay).
    pub blocking: bool,
    /// Rule ids the target failed when recorded that today's Verdict does not exercise on
    /// this answer (`Status::Unexercised`).
    pub unexercised: Vec<String>,
}

/// Judge `obs` with `verdict` (today's, of the case as sent, against the target's surface)
/// and compare with the stored record for the target.
pub fn classify(verdict: &Verdict, stored: Option<&Recorded>, obs: &Observation) -> ReplayOutcome {
    classify_explained(verdict, stored, obs, &[])
}

/// `classify`, with the failures of the rules in `explained` set aside: benign-input rules
/// whose failure the request's plain twin explains ([`explained_benign`]). When they were all
/// it failed, the answer is `Status::Explained`: it decides nothing about this entry's rules.
pub fn classify_explained(
    verdict: &Verdict,
    stored: Option<&Recorded>,
    obs: &Observation,
    explained: &[String],
) -> ReplayOutcome {
    // what a cut answer decided before the cut stays; the rest is not determined
    let Settled {
        mut findings,
        undetermined,
    } = assess_against(verdict, obs);
    let before = findings.len();
    findings.retain(|f| !explained.contains(&f.rule));
    if findings.is_empty() && before > 0 {
        return ReplayOutcome {
            status: Status::Explained,
            failing: Vec::new(),
            blocking: false,
            unexercised: Vec::new(),
        };
    }
    let blocking = findings.iter().any(|f| {
        verdict
            .rules()
            .find(|r: &RuleId| r.0 == f.rule)
            .is_some_and(|r| matches!(level_of(r), Level::Must | Level::MustNot))
    });
    let failing: Vec<String> = findings.into_iter().map(|f| f.rule).collect();
    let was_failing = stored.is_some_and(|r| !r.failing.is_empty());
    // a rule failed when recorded is fixed only if this answer was judged on it again
    let unexercised: Vec<String> = match stored {
        Some(r) if failing.is_empty() && !r.failing.is_empty() => {
            let exercised: Vec<RuleId> = verdict.observed_rules(obs).collect();
            r.failing
                .iter()
                .filter(|name| !exercised.iter().any(|e| e.0 == name.as_str()))
                .cloned()
                .collect()
        }
        _ => Vec::new(),
    };
    let status = match (undetermined, was_failing, failing.is_empty()) {
        (Some(reason), _, true) => Status::NotDetermined(reason),
        (_, true, true) if !unexercised.is_empty() => Status::Unexercised,
        (_, true, true) => Status::Fixed,
        (_, true, false) => Status::StillFailing,
        (_, false, false) => Status::NewlyFailing,
        (None, false, true) => Status::Passing,
    };
    ReplayOutcome {
        status,
        failing,
        blocking,
        unexercised,
    }
}

/// The benign-input rules among `failing` that the request's plain twin (the same request
/// without its benign inputs, `isolation::benign::without_benign`) explains: the twin fails
/// too (`twin_failing`), on other rules, so the benign input is not what the target trips
/// over, as the run decides (`runner::shrink::twin_note`). A rule the twin fails itself
/// stands: the twin kept a benign input it cannot drop (a sentinel whose text needs encoding).
pub fn explained_benign(failing: &[String], twin_failing: &[String]) -> Vec<String> {
    if twin_failing.is_empty() {
        return Vec::new();
    }
    failing
        .iter()
        .filter(|r| BENIGN_RULES.iter().any(|b| b.0 == r.as_str()))
        .filter(|r| !twin_failing.contains(r))
        .cloned()
        .collect()
}

/// `classify` for an authorization entry: `obs`, the answer of the target at `url`, judged
/// by today's authorization judge; no HTTP answer decides nothing.
pub fn classify_auth(
    kind: AuthCase,
    stored: Option<&Recorded>,
    obs: &Observation,
    url: &str,
) -> ReplayOutcome {
    let judged = kind.judge(obs, url);
    let blocking = judged
        .iter()
        .any(|j| j.finding.is_some() && matches!(level_of(j.rule), Level::Must | Level::MustNot));
    let failing = auth::failing(&judged);
    let was_failing = stored.is_some_and(|r| !r.failing.is_empty());
    let status = match (auth::undetermined(obs), was_failing, failing.is_empty()) {
        (Some(reason), _, _) => Status::NotDetermined(reason),
        (None, true, true) => Status::Fixed,
        (None, true, false) => Status::StillFailing,
        (None, false, false) => Status::NewlyFailing,
        (None, false, true) => Status::Passing,
    };
    ReplayOutcome {
        status,
        failing,
        blocking,
        unexercised: Vec::new(),
    }
}

/// The stored record for a target: by name first, then by URL.
pub fn stored_for<'a>(entry: &'a Entry, name: &str, url: &str) -> Option<&'a Recorded> {
    entry
        .targets
        .iter()
        .find(|r| r.target == name)
        .or_else(|| entry.targets.iter().find(|r| r.url == url))
}

#[cfg(test)]
mod twin_tests {
    use super::explained_benign;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_benign_failure_the_twin_shares_on_another_rule_is_explained() {
        let failing = names(&["SHTTP-HDR-OWS", "SHTTP-B64-DECODE"]);
        let twin = names(&["SHTTP-B64-DECODE"]);
        // the sentinel rule the twin fails itself stands; the padding's is explained
        assert_eq!(explained_benign(&failing, &twin), ["SHTTP-HDR-OWS"]);
    }

    #[test]
    fn a_twin_that_passes_explains_nothing() {
        let failing = names(&["SHTTP-HDR-OWS"]);
        assert!(explained_benign(&failing, &[]).is_empty());
    }

    #[test]
    fn only_benign_rules_are_ever_explained() {
        let failing = names(&["SHTTP-EP-POST", "BASE-INFO-NOT-BEHAVIOR"]);
        let twin = names(&["BASE-ALL-SUPPORT"]);
        assert_eq!(
            explained_benign(&failing, &twin),
            ["BASE-INFO-NOT-BEHAVIOR"]
        );
    }
}
