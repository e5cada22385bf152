//! Shrinking: reduce a failing case to a smaller one that still breaks the same rule on the
//! same target, with the same kind of answer and no defect the original did not have
//! (`CaseKeep`). Candidate generation is pure (`candidates`); `shrink` drives it
//! against the target with a bounded budget of requests and time.

use mcpdiff_oracle::rules::RuleId;
use mcpdiff_oracle::signature::{no_new_defects, Signature};
use mcpdiff_oracle::{assess_against, judge, Case, Observation, Surface, Verdict};
use serde_json::Value;
use std::future::Future;
use std::time::{Duration, Instant};

/// The size a shrinker minimizes: bytes of header fields plus body.
pub fn size(case: &Case) -> usize {
    case.headers
        .iter()
        .map(|(n, v)| n.len() + v.len() + 4)
        .sum::<usize>()
        + case.body.len()
}

/// Smaller variants of `case`, most promising first: drop a header, drop a JSON member,
/// shorten a string, cut the body.
pub fn candidates(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    for i in 0..case.headers.len() {
        // the media headers stay: without them every rule also accepts a media refusal
        // (DEVIATIONS.md D-31), and a reproducer that keeps them isolates the real defect
        let name = &case.headers[i].0;
        if name.eq_ignore_ascii_case(b"content-type") || name.eq_ignore_ascii_case(b"accept") {
            continue;
        }
        let mut c = case.clone();
        c.headers.remove(i);
        out.push(c);
    }
    match serde_json::from_slice::<Value>(&case.body) {
        Ok(v) => {
            let mut paths = Vec::new();
            member_paths(&v, &mut Vec::new(), &mut paths);
            // deepest members first: they rarely carry the defect
            paths.sort_by_key(|p| std::cmp::Reverse(p.len()));
            for p in paths {
                let mut v2 = v.clone();
                if remove_at(&mut v2, &p) {
                    out.push(with_body(case, &v2));
                }
            }
            let mut v2 = v.clone();
            if shorten_strings(&mut v2) {
                out.push(with_body(case, &v2));
            }
        }
        Err(_) if case.body.len() > 1 => {
            let mut c = case.clone();
            c.body.truncate(case.body.len() / 2);
            out.push(c);
            let mut c = case.clone();
            c.body.pop();
            out.push(c);
        }
        Err(_) => {}
    }
    for i in 0..case.headers.len() {
        let (name, v) = &case.headers[i];
        let media =
            name.eq_ignore_ascii_case(b"content-type") || name.eq_ignore_ascii_case(b"accept");
        if v.len() > 8 && !media {
            let mut c = case.clone();
            c.headers[i].1.truncate(v.len() / 2);
            out.push(c);
        }
    }
    out.retain(|c| size(c) < size(case));
    out
}

fn with_body(case: &Case, v: &Value) -> Case {
    let mut c = case.clone();
    // serializing a Value cannot fail (keys are strings)
    c.body = serde_json::to_vec(v).unwrap_or_default();
    c
}

fn member_paths(v: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if let Value::Object(m) = v {
        for (k, child) in m {
            prefix.push(k.clone());
            out.push(prefix.clone());
            member_paths(child, prefix, out);
            prefix.pop();
        }
    }
}

fn remove_at(v: &mut Value, path: &[String]) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut cur = v;
    for k in parents {
        match cur.get_mut(k.as_str()) {
            Some(next) => cur = next,
            None => return false,
        }
    }
    cur.as_object_mut()
        .is_some_and(|m| m.remove(last).is_some())
}

fn shorten_strings(v: &mut Value) -> bool {
    match v {
        Value::String(s) if s.chars().count() > 8 => {
            let keep: String = s.chars().take(s.chars().count() / 2).collect();
            *s = keep;
            true
        }
        Value::Object(m) => m
            .values_mut()
            .fold(false, |acc, x| shorten_strings(x) | acc),
        Value::Array(a) => a.iter_mut().fold(false, |acc, x| shorten_strings(x) | acc),
        _ => false,
    }
}

/// Bounds of one shrink.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkBudget {
    /// Requests one finding's shrink may send.
    pub max_requests: usize,
    /// Time one finding's shrink may take.
    pub max_time: Duration,
    /// Time all shrinks of one target may take together; findings past it keep their
    /// original case (a slow or hostile target cannot stretch a run without bound).
    pub max_time_per_target: Duration,
    /// The run's end: no candidate is sent after it.
    pub deadline: Option<Instant>,
}

impl ShrinkBudget {
    /// No shrinking: every finding keeps its original case.
    pub fn none() -> Self {
        ShrinkBudget {
            max_requests: 0,
            ..ShrinkBudget::default()
        }
    }
}

impl Default for ShrinkBudget {
    fn default() -> Self {
        ShrinkBudget {
            max_requests: 200,
            max_time: Duration::from_secs(10),
            max_time_per_target: Duration::from_secs(60),
            deadline: None,
        }
    }
}

/// What a smaller case must keep of the original failure: the rule, the signature of the
/// original observation, and no rule the original case did not trigger. The acceptance
/// predicate of every shrink step, and the final check of its result.
#[derive(Clone, Debug)]
pub struct CaseKeep {
    pub rule: RuleId,
    pub signature: Signature,
    /// The verdict of the original case (its triggered rules bound the smaller ones').
    verdict: Verdict,
}

impl CaseKeep {
    /// What `obs`, the answer to `case`, shows of `rule`'s failure.
    pub fn of(case: &Case, obs: &Observation, rule: RuleId, surface: &Surface) -> CaseKeep {
        let verdict = judge(case, surface);
        CaseKeep {
            rule,
            signature: Signature::of(rule, &verdict, obs),
            verdict,
        }
    }

    /// Before sending: the smaller case still exercises the rule and plants no new defect
    /// (a body cut in half would add a parse error the server may refuse for instead).
    pub fn plausible(&self, verdict: &Verdict) -> bool {
        verdict.triggers(self.rule) && no_new_defects(&self.verdict, verdict)
    }

    /// After sending: the target still fails the rule, with the same kind of answer.
    pub fn kept_by(&self, verdict: &Verdict, obs: &Observation) -> bool {
        // an answer cut by a limit (or refused by the authorization layer) reproduces
        // nothing: only what it already decided counts
        let still_fails = || {
            assess_against(verdict, obs)
                .findings
                .iter()
                .any(|f| f.rule == self.rule.0)
        };
        self.plausible(verdict)
            && still_fails()
            && Signature::of(self.rule, verdict, obs) == self.signature
    }
}

/// The reproducer of a finding: the shrunk case when it fails like the original (`CaseKeep`),
/// else the original case with a note saying why. Defensive: `shrink` only keeps such
/// steps, but whatever produced `shrunk`, a reproducer never differs in kind from the
/// original observation.
pub fn settle(
    surface: &Surface,
    rule: RuleId,
    original: (&Case, &Observation),
    shrunk: (Case, Observation),
) -> (Case, Observation, Option<String>) {
    let keep = CaseKeep::of(original.0, original.1, rule, surface);
    let verdict = judge(&shrunk.0, surface);
    if keep.kept_by(&verdict, &shrunk.1) {
        return (shrunk.0, shrunk.1, None);
    }
    let kind = Signature::of(rule, &verdict, &shrunk.1).kind;
    let why = format!(
        "the shrunk case failed as \"{kind}\" ({}){}, the original as \"{}\": the original \
         case is the reproducer",
        shrunk.1.summary(),
        if no_new_defects(&keep.verdict, &verdict) {
            ""
        } else {
            " with a defect the original did not have"
        },
        keep.signature.kind,
    );
    (original.0.clone(), original.1.clone(), Some(why))
}

/// Why the reproducer of `rule`'s finding is not one alone: `alone` is the target's answer
/// to `case` (the settled reproducer) sent again by itself on a new connection. `None` when
/// it fails as in the run (`CaseKeep::kept_by` against the original), or when that answer
/// decides nothing (cut by a limit, refused by the authorization layer): only an answer
/// that is judged and passes says the failure needed the run's earlier traffic.
pub fn alone_note(
    surface: &Surface,
    rule: RuleId,
    original: (&Case, &Observation),
    case: &Case,
    alone: &Observation,
) -> Option<String> {
    let verdict = judge(case, surface);
    if assess_against(&verdict, alone).undetermined.is_some() {
        return None;
    }
    let keep = CaseKeep::of(original.0, original.1, rule, surface);
    if keep.kept_by(&verdict, alone) {
        return None;
    }
    Some(format!(
        "sent again alone, on a new connection, it was answered {} and did not fail {} as \
         in the run: the failure rests on requests sent before it on the same connection (a \
         target keeping state per connection breaks BASE-STATELESS-NO-PRIOR), or the target \
         answers it differently from one time to the next",
        alone.summary(),
        rule.0
    ))
}

/// Why a benign-input rule's finding is explained away: `answer` is the target's answer to
/// `plain`, the reproducer without its benign inputs (`isolation::benign::without_benign`),
/// sent alone. `None` when that answer passes (the benign input is what the target trips
/// over: the finding stands), decides nothing, or fails `rule` itself: the twin keeps a
/// benign input it cannot drop (a sentinel whose text needs encoding), and failing there too
/// confirms the finding rather than explaining it.
pub fn twin_note(
    surface: &Surface,
    rule: RuleId,
    plain: &Case,
    answer: &Observation,
) -> Option<String> {
    let settled = assess_against(&judge(plain, surface), answer);
    if settled.undetermined.is_some()
        || settled.findings.is_empty()
        || settled.findings.iter().any(|f| f.rule == rule.0)
    {
        return None;
    }
    let rules: Vec<&str> = settled.findings.iter().map(|f| f.rule.as_str()).collect();
    Some(format!(
        "the same request without its benign input, sent alone, was answered {} and fails {} \
         too: the benign input is not what the target trips over",
        answer.summary(),
        rules.join(", ")
    ))
}

/// Greedy shrinking: take the first candidate that the oracle still judges under `rule`
/// without new defects and that the target still fails on `rule` with the original's
/// signature (`CaseKeep`); repeat until no candidate helps or the budget ends.
pub async fn shrink<F, Fut>(
    case: Case,
    obs: Observation,
    rule: RuleId,
    surface: &Surface,
    budget: ShrinkBudget,
    mut send: F,
) -> (Case, Observation, usize)
where
    F: FnMut(Case) -> Fut,
    Fut: Future<Output = Observation>,
{
    let start = Instant::now();
    let keep = CaseKeep::of(&case, &obs, rule, surface);
    let mut best = (case, obs);
    let mut requests = 0usize;
    'outer: loop {
        for cand in candidates(&best.0) {
            if requests >= budget.max_requests
                || start.elapsed() >= budget.max_time
                || budget.deadline.is_some_and(|d| Instant::now() >= d)
            {
                break 'outer;
            }
            let verdict = judge(&cand, surface);
            if !keep.plausible(&verdict) {
                continue;
            }
            requests += 1;
            let o = send(cand.clone()).await;
            if keep.kept_by(&verdict, &o) {
                best = (cand, o);
                continue 'outer;
            }
        }
        break;
    }
    (best.0, best.1, requests)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_strictly_smaller() {
        let c = Case::post(
            "/mcp",
            &[("A", "1"), ("Mcp-Method", "tools/list")],
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":{"y":"a long string here"}}}"#.to_vec(),
        );
        let cands = candidates(&c);
        assert!(!cands.is_empty());
        assert!(cands.iter().all(|x| size(x) < size(&c)));
    }
}
