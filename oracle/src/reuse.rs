//! BASE-STATELESS-NO-PRIOR: «Servers MUST NOT rely on prior requests over the same connection
//! to establish context (e.g., capabilities, protocol version, client identity).»
//! (basic/index.mdx § Statelessness; DEVIATIONS.md D-181).
//!
//! No single request shows this: the runner sends the same request twice, once on a fresh
//! connection and once on a keep-alive connection that first carried a conformant request
//! with every piece of context, and this module judges the pair. Each probe request leaves
//! out one required piece of the context the sentence names (`_meta` protocol version,
//! client capabilities), so a server that fills it in from the earlier request on the
//! connection serves it there and refuses it on a fresh one. A pair whose two answers are
//! alike (both served or both refused) passes; an answer that decides nothing (no
//! connection, cut short, `401`, `429`, a connection the server did not keep open) leaves the
//! pair not determined. Pure: the caller sends the requests and hands over the answers.

use crate::case::{Case, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use crate::check::Finding;
use crate::client::conformant_case;
use crate::observation::Observation;
use crate::reference::probes::without_meta;
use crate::rules::{self, connection::STATELESS_NO_PRIOR};
use crate::surface::Surface;
use serde_json::{json, Value};

/// One pair to send: `prior` then `request` on one connection, and `request` alone on a
/// fresh one.
#[derive(Clone, Debug, PartialEq)]
pub struct ReuseProbe {
    /// The piece of context `request` leaves out, as the sentence names it.
    pub context: &'static str,
    /// A conformant request carrying every piece of context.
    pub prior: Case,
    /// The same kind of request without `context`.
    pub request: Case,
}

/// The pairs, one per piece of context the sentence names that a request must carry: the
/// protocol version and the client capabilities (required `_meta` fields, so a server
/// refuses a request without them on a fresh connection). Client identity (`clientInfo`)
/// is not required of a request, so leaving it out shows nothing.
pub fn reuse_probes(surface: &Surface) -> Vec<ReuseProbe> {
    let prior = conformant_case(surface, json!(901), "server/discover", json!({}));
    [
        ("protocol version", META_PROTOCOL_VERSION),
        ("capabilities", META_CLIENT_CAPABILITIES),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (context, key))| {
        let request = without_meta(
            conformant_case(surface, json!(902 + i), "tools/list", json!({})),
            key,
        );
        ReuseProbe {
            context,
            prior: prior.clone(),
            request,
        }
    })
    .collect()
}

/// What an answer did with the request, as far as this rule reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A 2xx carrying a JSON-RPC result.
    Served,
    /// An error status or a JSON-RPC error.
    Refused,
    /// Nothing decided (no connection, cut short, 401, 429, no response).
    Undetermined,
}

/// Read one answer.
pub fn outcome(obs: &Observation) -> Outcome {
    let Some(a) = obs.http() else {
        return Outcome::Undetermined;
    };
    if crate::undetermined::is_cut(obs) || matches!(a.status, 401 | 429) {
        return Outcome::Undetermined;
    }
    let resp = a.rpc_response();
    if resp.is_some_and(|r| r.get("error").is_some()) || a.status >= 400 {
        Outcome::Refused
    } else if (200..300).contains(&a.status) && resp.is_some_and(|r| r.get("result").is_some()) {
        Outcome::Served
    } else {
        Outcome::Undetermined
    }
}

/// The judgement of one connection probe (this pair, or a `list_stable` triple).
#[derive(Clone, Debug, PartialEq)]
pub enum Judgement {
    /// An answer decided nothing, or the connection was not reused: not exercised (for a
    /// triple also: the set changed between the two fresh lists, which the sentence allows).
    Undetermined,
    /// The answers agree where the rule needs them to.
    Pass,
    /// They do not: the answer depended on the earlier request on the connection.
    Fail(Finding),
}

impl Judgement {
    /// `None` when nothing was decided, else the finding (if any) to record.
    pub fn decided(self) -> Option<Option<Finding>> {
        match self {
            Judgement::Undetermined => None,
            Judgement::Pass => Some(None),
            Judgement::Fail(f) => Some(Some(f)),
        }
    }
}

/// Judge the answers to `probe.request` on a fresh connection (`fresh`) and after
/// `probe.prior` on the same connection (`reused`; `reused_connection` says whether the
/// transport did send it on that connection).
pub fn judge_pair(
    probe: &ReuseProbe,
    fresh: &Observation,
    reused: &Observation,
    reused_connection: bool,
) -> Judgement {
    let (f, r) = (outcome(fresh), outcome(reused));
    if !reused_connection || f == Outcome::Undetermined || r == Outcome::Undetermined {
        return Judgement::Undetermined;
    }
    if f == r {
        return Judgement::Pass;
    }
    let word = |o: Outcome| match o {
        Outcome::Served => "served",
        _ => "refused",
    };
    Judgement::Fail(Finding {
        rule: STATELESS_NO_PRIOR.0.to_string(),
        level: rules::level_of(STATELESS_NO_PRIOR).to_string(),
        expected: format!(
            "the same answer as on a fresh connection ({}): a request without its {} is \
             judged on its own, not on context from the earlier {} on the connection",
            word(f),
            probe.context,
            method_of(&probe.prior)
        ),
        observed: format!(
            "{} after a conformant {} on the same connection, {} on a fresh connection",
            word(r),
            method_of(&probe.prior),
            word(f)
        ),
        co_failing: Vec::new(),
    })
}

/// The JSON-RPC method of a case (for messages).
fn method_of(case: &Case) -> String {
    serde_json::from_slice::<Value>(&case.body)
        .ok()
        .and_then(|v| v.get("method").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use crate::reference::{respond, to_observation};

    fn answer(case: &Case) -> Observation {
        to_observation(&respond(case, &fixture::surface()))
    }

    #[test]
    fn each_probe_leaves_out_one_piece_and_the_reference_refuses_it() {
        let s = fixture::surface();
        let ps = reuse_probes(&s);
        assert_eq!(ps.len(), 2);
        for p in &ps {
            assert_eq!(outcome(&answer(&p.prior)), Outcome::Served);
            assert_eq!(
                outcome(&answer(&p.request)),
                Outcome::Refused,
                "{}",
                p.context
            );
        }
    }

    #[test]
    fn alike_answers_pass_different_ones_fail_and_undecided_ones_decide_nothing() {
        let p = &reuse_probes(&fixture::surface())[0];
        let refused = answer(&p.request);
        let served = answer(&p.prior);
        assert_eq!(judge_pair(p, &refused, &refused, true), Judgement::Pass);
        assert!(matches!(
            judge_pair(p, &refused, &served, true),
            Judgement::Fail(f) if f.rule == "BASE-STATELESS-NO-PRIOR" && f.level == "MUST NOT"
        ));
        assert_eq!(
            judge_pair(p, &refused, &served, false),
            Judgement::Undetermined
        );
        let gone = Observation::Transport {
            failure: crate::observation::TransportFailure::Refused,
        };
        assert_eq!(judge_pair(p, &gone, &served, true), Judgement::Undetermined);
    }
}
