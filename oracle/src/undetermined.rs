//! "Not determined": answers the oracle must neither pass nor fail. A case whose
//! answer was cut by mcpdiff's own per-case limit while everything received so far was
//! allowed (`TimedOut`), that was refused by the authorization layer mid-run (`Unauthorized`:
//! a `401`/`403` carrying `WWW-Authenticate`, e.g. an expired token), or that never reached
//! the target (`Unreachable`) says nothing about the rules of its verdict.
//!
//! `settle` keeps what the answer did decide: a rule already broken before the cut (an
//! event that should not be there, a status no continuation can change) stays a finding.
//! Pure: the caller gives it the verdict, the observation and `check`'s findings.
//! Reading: oracle/DEVIATIONS.md D-80.

use crate::check::Finding;
use crate::observation::{Body, HttpAnswer, Observation, TransportFailure};
use crate::verdict::{Answer, Demand, Verdict};
use serde::{Deserialize, Serialize};

/// Why a case's answer decides nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Undetermined {
    /// Cut by the per-case limit (time, or the SSE event/byte bound) before the answer was
    /// complete, with nothing received so far outside what the rules allow.
    TimedOut,
    /// `401`/`403` with `WWW-Authenticate` where the case's rules wanted another answer: the
    /// credential was refused (expired, missing), the request was never judged as MCP.
    Unauthorized,
    /// No connection to the target (refused or failed).
    Unreachable,
    /// Answers were received and decide nothing: a connection probe's sequence replayed from
    /// the corpus whose list changed between its fresh readings, or whose connection the
    /// target did not keep open (`connection_seq`).
    Inconclusive,
}

impl Undetermined {
    /// How reports name it ("not determined: timed out").
    pub fn as_str(self) -> &'static str {
        match self {
            Undetermined::TimedOut => "timed out",
            Undetermined::Unauthorized => "unauthorized",
            Undetermined::Unreachable => "unreachable",
            Undetermined::Inconclusive => "inconclusive",
        }
    }
}

/// Whether `obs` is an answer mcpdiff stopped reading before it was complete: no head in
/// time, or an SSE stream left open at a limit before the JSON-RPC response arrived.
pub fn is_cut(obs: &Observation) -> bool {
    match obs {
        Observation::Transport { failure } => *failure == TransportFailure::Timeout,
        Observation::Http(a) => {
            matches!(a.body, Body::Sse { closed: false, .. }) && a.rpc_response().is_none()
        }
    }
}

/// Settle one checked answer. `None`: the answer is judged as it is (`findings` untouched).
/// `Some(reason)`: the answer decides nothing beyond the findings left in `findings` (those a
/// continuation could not have repaired); every other rule of the verdict is undetermined on
/// this case, and with `findings` empty the whole case is.
pub fn settle(
    verdict: &Verdict,
    obs: &Observation,
    findings: &mut Vec<Finding>,
) -> Option<Undetermined> {
    match obs {
        Observation::Transport {
            failure: TransportFailure::Refused,
        } => {
            findings.clear();
            Some(Undetermined::Unreachable)
        }
        Observation::Http(a) if !findings.is_empty() && unauthorized(a) => {
            findings.clear();
            Some(Undetermined::Unauthorized)
        }
        // a stream the case asked to stay open (`subscriptions/listen`) is the answer itself
        Observation::Http(a) if findings.is_empty() && open_stream_allowed(verdict, a) => None,
        _ if is_cut(obs) => {
            let http = obs.http();
            // a rule may hold several expectations: its finding stands when one of them
            // failed in a way no continuation repairs
            findings.retain(|f| {
                verdict
                    .expectations()
                    .filter(|e| e.rule.0 == f.rule)
                    .any(|e| match (&e.demand, http) {
                        // a lint reads what was received: broken already, whatever follows
                        (Demand::Lint(_), Some(_)) => fails(&e, verdict, obs),
                        (Demand::OneOf(set), Some(a)) => {
                            fails(&e, verdict, obs) && !set.iter().any(|x| reachable(x, a))
                        }
                        // no head at all: any answer could still have come
                        (_, None) => false,
                    })
            });
            Some(Undetermined::TimedOut)
        }
        _ => None,
    }
}

/// Whether `verdict` accepts an open stream and `a` is one.
fn open_stream_allowed(verdict: &Verdict, a: &HttpAnswer) -> bool {
    verdict.answer_sets().any(|(_, set)| {
        set.iter()
            .any(|x| *x == Answer::OpenStream && crate::check::matches(verdict.named(x), a))
    })
}

/// Whether expectation `e` of `verdict` fails on `obs` on its own.
fn fails(e: &crate::verdict::Expectation, verdict: &Verdict, obs: &Observation) -> bool {
    let one = Verdict::new(vec![e.clone()], verdict.canonical.clone())
        .with_versions(verdict.versions().cloned());
    !crate::check::check(&one, obs).is_empty()
}

/// A refusal by the authorization layer (RFC 6750 §3: `WWW-Authenticate` on 401/403).
fn unauthorized(a: &HttpAnswer) -> bool {
    matches!(a.status, 401 | 403) && a.www_authenticate.is_some()
}

/// Whether an open SSE stream `a`, with no JSON-RPC response yet, could still end as answer
/// `x`: the status is fixed by the head; the response (result or error) is still to come.
fn reachable(x: &Answer, a: &HttpAnswer) -> bool {
    let ok2xx = (200..300).contains(&a.status);
    match x {
        Answer::RpcError { status, .. } => status.contains(a.status),
        Answer::RpcResult | Answer::OpenStream => ok2xx,
        Answer::Accepted => false,
        Answer::HttpStatus { status } => status.contains(a.status),
        Answer::AnyError => true,
        Answer::NotAnError => a.status < 400,
        Answer::EmptyContents => ok2xx,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::SseMessage;
    use crate::{check, fixture, judge};
    use serde_json::json;

    fn call(surface: &crate::Surface) -> crate::Case {
        crate::client::conformant_case(
            surface,
            json!(7),
            "tools/call",
            json!({"name": surface.tools[0].name, "arguments": {}}),
        )
    }

    fn open_stream(status: u16, messages: Vec<SseMessage>) -> Observation {
        let mut a = HttpAnswer::new(
            status,
            Some("text/event-stream"),
            Body::Sse {
                messages,
                closed: false,
            },
        );
        a.x_accel_buffering = Some("no".into());
        Observation::Http(a)
    }

    fn settled(case: &crate::Case, obs: &Observation) -> (Vec<Finding>, Option<Undetermined>) {
        let s = fixture::surface();
        let v = judge(case, &s);
        let mut f = check(&v, obs);
        let u = settle(&v, obs, &mut f);
        (f, u)
    }

    #[test]
    fn a_silent_timeout_decides_nothing() {
        let s = fixture::surface();
        let obs = Observation::Transport {
            failure: TransportFailure::Timeout,
        };
        let v = judge(&call(&s), &s);
        let mut f = check(&v, &obs);
        assert!(!f.is_empty(), "check alone blames the timeout");
        assert_eq!(settle(&v, &obs, &mut f), Some(Undetermined::TimedOut));
        assert!(f.is_empty());
    }

    #[test]
    fn an_open_stream_of_progress_is_not_a_finding() {
        let progress = SseMessage::Json(json!({"jsonrpc":"2.0","method":"notifications/progress",
            "params":{"progressToken":1,"progress":1}}));
        // (for a request that gave that token: PROG-TOKEN-ONLY)
        let mut asked = call(&fixture::surface());
        let mut body: serde_json::Value = serde_json::from_slice(&asked.body).expect("JSON");
        body["params"]["_meta"]["progressToken"] = json!(1);
        asked.body = body.to_string().into_bytes();
        let (f, u) = settled(&asked, &open_stream(200, vec![progress]));
        assert_eq!(u, Some(Undetermined::TimedOut));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn what_broke_before_the_cut_is_still_judged() {
        // a request on the stream of a request is broken whatever follows (SseNoRequests)
        let request = SseMessage::Json(json!({"jsonrpc":"2.0","id":9,"method":"ping"}));
        let (f, u) = settled(&call(&fixture::surface()), &open_stream(200, vec![request]));
        assert_eq!(u, Some(Undetermined::TimedOut));
        assert!(!f.is_empty());
        // a stream opened for a notification, where 202 was due: no continuation repairs it
        let s = fixture::surface();
        let mut note = crate::client::conformant_case(
            &s,
            json!(1),
            "notifications/cancelled",
            json!({"requestId": 3}),
        );
        let mut body: serde_json::Value = serde_json::from_slice(&note.body).unwrap_or_default();
        body.as_object_mut().map(|o| o.remove("id"));
        note.body = serde_json::to_vec(&body).unwrap_or_default();
        let (f, u) = settled(&note, &open_stream(200, Vec::new()));
        assert_eq!(u, Some(Undetermined::TimedOut));
        assert!(
            !f.is_empty(),
            "a 200 stream where 202 was due stays a finding"
        );
    }

    #[test]
    fn a_listen_stream_left_open_is_a_complete_answer() {
        let s = fixture::surface();
        let listen =
            crate::client::conformant_case(&s, json!(4), "subscriptions/listen", json!({}));
        let v = judge(&listen, &s);
        let obs = open_stream(200, Vec::new());
        let mut f = check(&v, &obs);
        assert!(f.is_empty(), "{f:?}");
        assert_eq!(settle(&v, &obs, &mut f), None);
    }

    #[test]
    fn refusals_by_the_authorization_layer_and_no_connection() {
        let s = fixture::surface();
        let mut a = HttpAnswer::new(401, None, Body::Empty);
        a.www_authenticate = Some("Bearer error=\"invalid_token\"".into());
        let (f, u) = settled(&call(&s), &Observation::Http(a));
        assert_eq!((f.len(), u), (0, Some(Undetermined::Unauthorized)));
        let (f, u) = settled(
            &call(&s),
            &Observation::Http(HttpAnswer::new(401, None, Body::Empty)),
        );
        assert!(u.is_none() && !f.is_empty(), "a bare 401 is an answer");
        let refused = Observation::Transport {
            failure: TransportFailure::Refused,
        };
        assert_eq!(
            settled(&call(&s), &refused).1,
            Some(Undetermined::Unreachable)
        );
        // a finished answer is judged as it is
        let reset = Observation::Transport {
            failure: TransportFailure::Reset,
        };
        assert_eq!(settled(&call(&s), &reset).1, None);
    }
}
