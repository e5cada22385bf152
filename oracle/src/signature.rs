//! The signature of a failure: which rule a target broke and what *kind* of answer broke it.
//!
//! A shrinker may only trade a case for a smaller one that fails the same rule with the same
//! signature and plants no defect the original did not have: an Origin finding whose original
//! answer was a served `200` must not become a case with a malformed body that the server
//! refused with `400`; the maintainer reading that reproducer would close it as invalid. Pure: a Verdict and an Observation in, a value out.

use crate::observation::{Body, Observation, TransportFailure};
use crate::rules::RuleId;
use crate::verdict::{Answer, Demand, Lint, StatusSet, Verdict};
use std::collections::BTreeSet;
use std::fmt;

/// What a body was, coarsely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    Empty,
    Json,
    /// `text/event-stream`.
    Stream,
    /// Anything else (not JSON, or cut at the size limit).
    Other,
}

/// The status as far as the rule cares: its class, or the exact code when the rule names one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusKind {
    /// 2, 4, 5, ... (`2xx`).
    Class(u16),
    Exact(u16),
}

/// The kind of one observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObservationKind {
    Http {
        /// An HTTP error status or a JSON-RPC error body (`Answer::AnyError`).
        refused: bool,
        status: StatusKind,
        /// The JSON-RPC error code, if the answer carries an error with an integer code.
        code: Option<i64>,
        body: BodyKind,
    },
    /// No complete HTTP answer.
    NoAnswer(TransportFailure),
}

/// A rule and the kind of observation that broke it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub rule: RuleId,
    pub kind: ObservationKind,
}

/// Whether `rule`'s demand in `verdict` names an exact status (403, 405, 202, `400 with
/// -32020`): then a different status is a different failure, not the same one reduced.
pub fn about_status(rule: RuleId, verdict: &Verdict) -> bool {
    verdict
        .expectations()
        .filter(|e| e.rule == rule)
        .any(|e| match &e.demand {
            Demand::OneOf(set) => set.iter().any(|a| match a {
                Answer::RpcError { status, .. } | Answer::HttpStatus { status } => {
                    matches!(status, StatusSet::Exact(_))
                }
                Answer::Accepted => true,
                _ => false,
            }),
            Demand::Lint(l) => matches!(l, Lint::AllowOn405),
        })
}

impl ObservationKind {
    /// The kind of `obs`; `exact` keeps the exact status instead of its class.
    pub fn of(obs: &Observation, exact: bool) -> ObservationKind {
        let a = match obs {
            Observation::Transport { failure } => {
                return ObservationKind::NoAnswer(failure.clone())
            }
            Observation::Http(a) => a,
        };
        let error = a.rpc_response().and_then(|r| r.get("error"));
        ObservationKind::Http {
            refused: a.status >= 400 || error.is_some(),
            status: if exact {
                StatusKind::Exact(a.status)
            } else {
                StatusKind::Class(a.status / 100)
            },
            code: error
                .and_then(|e| e.get("code"))
                .and_then(serde_json::Value::as_i64),
            body: match a.body {
                Body::Empty => BodyKind::Empty,
                Body::Json { .. } => BodyKind::Json,
                Body::Sse { .. } => BodyKind::Stream,
                Body::Other { .. } | Body::Oversize { .. } => BodyKind::Other,
            },
        }
    }
}

impl Signature {
    /// The signature of `obs` failing `rule`, judged by `verdict` (the verdict of the case
    /// that was sent; it says whether the rule is about an exact status).
    pub fn of(rule: RuleId, verdict: &Verdict, obs: &Observation) -> Signature {
        Signature {
            rule,
            kind: ObservationKind::of(obs, about_status(rule, verdict)),
        }
    }
}

/// Whether `smaller` plants no defect `original` lacks: every rule the smaller case triggers,
/// the original triggered too, and admits no answer there that it did not admit for the
/// original. A departure the judge tolerates rather than names (a `tools/call` without
/// `name` admits `-32602` beside each rule's answers) triggers no rule of its own; it shows
/// only as a wider answer set, and a reproducer carrying it would hold two departures where
/// the original held one.
pub fn no_new_defects(original: &Verdict, smaller: &Verdict) -> bool {
    let had: BTreeSet<RuleId> = original.rules().collect();
    smaller.rules().all(|r| had.contains(&r)) && no_set_widens(original, smaller)
}

/// Every answer a rule of `smaller` admits, the same rule admitted for `original`.
fn no_set_widens(original: &Verdict, smaller: &Verdict) -> bool {
    // (rendered once: `expectations` builds each lint's expectation anew)
    let had: Vec<_> = original.expectations().collect();
    smaller.expectations().all(|e| {
        let Demand::OneOf(set) = &e.demand else {
            return true;
        };
        set.iter().all(|a| {
            // (answers of two Verdicts: a -32022 refusal's versions compared as texts)
            let a = smaller.named(a);
            had.iter().any(|o| {
                o.rule == e.rule
                    && matches!(&o.demand, Demand::OneOf(s)
                        if s.iter().any(|x| original.named(x) == a))
            })
        })
    })
}

impl fmt::Display for StatusKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatusKind::Class(c) => write!(f, "{c}xx"),
            StatusKind::Exact(s) => write!(f, "{s}"),
        }
    }
}

impl fmt::Display for ObservationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObservationKind::NoAnswer(t) => write!(f, "no answer ({t})"),
            ObservationKind::Http {
                refused,
                status,
                code,
                body,
            } => {
                let what = if *refused { "refused" } else { "served" };
                write!(f, "{what}, {status}")?;
                match code {
                    Some(c) => write!(f, ", JSON-RPC error {c}")?,
                    None => f.write_str(", no JSON-RPC error")?,
                }
                f.write_str(match body {
                    BodyKind::Empty => ", empty body",
                    BodyKind::Json => ", JSON body",
                    BodyKind::Stream => ", SSE stream",
                    BodyKind::Other => ", other body",
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::HttpAnswer;
    use crate::verdict::{Canonical, DataRule, Expectation};
    use serde_json::json;

    fn json(status: u16, v: serde_json::Value) -> Observation {
        Observation::Http(HttpAnswer::new(
            status,
            Some("application/json"),
            Body::Json { value: v },
        ))
    }

    fn verdict(rule: RuleId, demand: Demand) -> Verdict {
        Verdict::new(vec![Expectation { rule, demand }], Canonical::Dispatch)
    }

    const R: RuleId = crate::rules::ORIGIN_403;

    #[test]
    fn served_200_and_refused_400_differ() {
        let v = verdict(R, Demand::OneOf(smallvec::smallvec![Answer::AnyError]));
        let served = json(200, json!({"jsonrpc":"2.0","id":1,"result":{}}));
        let refused = json(
            400,
            json!({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"x"}}),
        );
        let a = Signature::of(R, &v, &served);
        let b = Signature::of(R, &v, &refused);
        assert_ne!(a, b);
        assert_eq!(
            a.kind.to_string(),
            "served, 2xx, no JSON-RPC error, JSON body"
        );
        assert_eq!(
            b.kind.to_string(),
            "refused, 4xx, JSON-RPC error -32600, JSON body"
        );
    }

    #[test]
    fn class_unless_the_rule_names_a_status() {
        let any = verdict(R, Demand::OneOf(smallvec::smallvec![Answer::AnyError]));
        let o400 = json(400, json!({}));
        let o404 = json(404, json!({}));
        assert_eq!(Signature::of(R, &any, &o400), Signature::of(R, &any, &o404));
        let exact = verdict(
            R,
            Demand::OneOf(smallvec::smallvec![Answer::HttpStatus {
                status: StatusSet::Exact(403),
            }]),
        );
        assert_ne!(
            Signature::of(R, &exact, &o400),
            Signature::of(R, &exact, &o404)
        );
        let code = verdict(
            R,
            Demand::OneOf(smallvec::smallvec![Answer::RpcError {
                status: StatusSet::Exact(400),
                code: -32020,
                data: DataRule::None,
            }]),
        );
        assert!(about_status(R, &code));
        assert!(!about_status(crate::rules::HDR_MISMATCH, &code));
    }

    #[test]
    fn code_stream_and_transport_count() {
        let v = verdict(R, Demand::OneOf(smallvec::smallvec![Answer::AnyError]));
        let e1 = json(
            200,
            json!({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}),
        );
        let e2 = json(
            200,
            json!({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"x"}}),
        );
        assert_ne!(Signature::of(R, &v, &e1), Signature::of(R, &v, &e2));
        let sse = Observation::Http(HttpAnswer::new(
            200,
            Some("text/event-stream"),
            Body::Sse {
                messages: Vec::new(),
                closed: true,
            },
        ));
        let empty = Observation::Http(HttpAnswer::new(200, None, Body::Empty));
        assert_ne!(Signature::of(R, &v, &sse), Signature::of(R, &v, &empty));
        let t = Observation::Transport {
            failure: TransportFailure::Timeout,
        };
        let r = Observation::Transport {
            failure: TransportFailure::Reset,
        };
        assert_ne!(Signature::of(R, &v, &t), Signature::of(R, &v, &r));
        assert_ne!(Signature::of(R, &v, &t), Signature::of(R, &v, &empty));
    }

    #[test]
    fn a_tolerated_departure_is_a_new_defect() {
        // a tools/call with an unrequested inputResponses entry (MRTR-IGNORE-EXTRA), and the
        // same without `name`: no new rule, but -32602 is admitted where it was not
        let s = crate::fixture::surface();
        let call = |params: serde_json::Value| {
            crate::client::conformant_case(&s, serde_json::json!(1), "tools/call", params)
        };
        let extra = serde_json::json!({"mcpdiff.unrequested": {"action": "decline"}});
        let named = call(serde_json::json!({"name": "get_weather",
            "arguments": {"location": "x"}, "inputResponses": extra}));
        // as the shrinker cuts it: the body's `name` member, its `Mcp-Name` header kept
        let mut nameless = named.clone();
        let member = br#""name":"get_weather","#;
        let at = nameless
            .body
            .windows(member.len())
            .position(|w| w == member);
        let at = at.expect("the name member");
        nameless.body.drain(at..at + member.len());
        let (a, b) = (crate::judge(&named, &s), crate::judge(&nameless, &s));
        let had: BTreeSet<RuleId> = a.rules().collect();
        let new: Vec<RuleId> = b.rules().filter(|r| !had.contains(r)).collect();
        assert!(
            new.is_empty(),
            "no rule of its own: {new:?} {:?}",
            a.rules().collect::<Vec<_>>()
        );
        assert!(!no_new_defects(&a, &b));
        assert!(no_new_defects(&a, &a));
    }

    #[test]
    fn new_defects_are_rules_the_original_lacked() {
        let a = verdict(R, Demand::OneOf(smallvec::smallvec![Answer::AnyError]));
        let mut b = a.clone();
        assert!(no_new_defects(&a, &b));
        b.push(Expectation {
            rule: crate::rules::HDR_MISMATCH,
            demand: Demand::OneOf(smallvec::smallvec![Answer::AnyError]),
        });
        assert!(!no_new_defects(&a, &b));
        assert!(no_new_defects(&b, &a));
    }
}
