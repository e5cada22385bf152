//! What may travel on an SSE answer: the rules about the events of a request's response
//! stream (and of a `subscriptions/listen` stream), checked on the messages an
//! `HttpAnswer` carries in order, and whether an answer observed a rule at all.
//!
//! Each offending event is owned by exactly one rule, the most specific first (as
//! DEVIATIONS.md D-90 reads the sentences), so a server that breaks one rule is caught on it
//! alone: a JSON-RPC request is `SHTTP-SSE-NO-REQUESTS`' (the lint in `check.rs`); a progress
//! notification for a token the request did not give is PROG-TOKEN-ONLY's, one for its
//! token after the response PROG-STOP's, one that does not increase PROG-INCREASING's; a log
//! message on a listen stream is LOG-NOT-ON-LISTEN's, one for a request without a log level
//! LOG-NO-LEVEL's; a `notifications/cancelled` anywhere but the teardown of a listen stream
//! CANCEL-SERVER-ONLY-LISTEN's; a subscription acknowledgement on a request's stream
//! SHTTP-SSE-NOTIF-RELATED's; on a listen stream, an acknowledgement without the
//! subscription id (or a result before any acknowledgement) SUB-ACK-FIRST's, any other
//! notification before the acknowledgement SUB-NO-NOTIF-BEFORE-ACK's, one after it without
//! the subscription id BASE-LISTEN-SUBID's, one of a type the listen request did not ask
//! for SUB-FILTER's; a listen stream the server closes after its acknowledgement without a
//! completion result SUB-GRACEFUL's (DEVIATIONS.md D-100, D-101); a log message below the
//! requested level, before the response, LOG-LEVEL-THRESHOLD's (D-198); any other event
//! after the final response, or a stream left open after it, SHTTP-SSE-FINAL-TERMINATES'.
//!
//! Pure: the judge gives each request its `StreamScope` (what the request asked for); the
//! answer is read only here.

use crate::listen_filter::requested;
pub use crate::listen_filter::{
    filter_of, FILTER_PROMPTS, FILTER_RESOURCES, FILTER_TOOLS, FILTER_UPDATED,
};
use crate::observation::{Body, HttpAnswer, SseMessage};
use crate::request_id::RequestId;
use crate::rules::{self, RuleId};
use crate::soft_params::{level_at, level_rank};
use serde::Serialize;
use serde_json::Value;

/// One stream rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[repr(u8)]
pub enum StreamRule {
    /// "The final JSON-RPC response SHOULD terminate the stream."
    FinalTerminates,
    /// "These notifications MUST relate to the originating client request."
    NotifRelated,
    /// "Progress notifications MUST only reference tokens that: - Were provided in an active
    /// request ..."
    ProgressTokenOnly,
    /// "The `progress` value MUST increase with each notification"
    ProgressIncreasing,
    /// "Progress notifications MUST stop after completion"
    ProgressStop,
    /// "The server MUST NOT emit `notifications/message` for a request that does not include
    /// this field."
    LogNoLevel,
    /// "the server MUST NOT deliver it on a `subscriptions/listen` stream"
    LogNotOnListen,
    /// "Servers MUST NOT send `notifications/cancelled` for any other purpose."
    CancelOnlyListen,
    /// "The server MUST send `notifications/subscriptions/acknowledged` as the first message
    /// carrying the subscription's ID in `_meta` ..."
    AckFirst,
    /// "... and MUST NOT send any notification on the subscription before it."
    NoNotifBeforeAck,
    /// "On notifications delivered via a `subscriptions/listen` stream, the server MUST
    /// include `io.modelcontextprotocol/subscriptionId` in `_meta`"
    ListenSubscriptionId,
    /// "The server MUST NOT send notification types the client has not explicitly
    /// requested."
    SubFilter,
    /// "When the server ends a subscription on its own initiative ..., it SHOULD respond to
    /// the original `subscriptions/listen` request with a completion result before closing
    /// the stream."
    SubGraceful,
    /// "When the field is present, the server MAY send `notifications/message` notifications
    /// at or above the requested level on the response stream of that request, before the
    /// final response." (DEVIATIONS.md D-198: a message below the level is outside the
    /// permission.)
    LogThreshold,
}

impl StreamRule {
    /// Every stream rule, in the order a Verdict lists them.
    pub const ALL: [StreamRule; 14] = [
        StreamRule::FinalTerminates,
        StreamRule::NotifRelated,
        StreamRule::ProgressTokenOnly,
        StreamRule::ProgressIncreasing,
        StreamRule::ProgressStop,
        StreamRule::LogNoLevel,
        StreamRule::LogNotOnListen,
        StreamRule::CancelOnlyListen,
        StreamRule::AckFirst,
        StreamRule::NoNotifBeforeAck,
        StreamRule::ListenSubscriptionId,
        StreamRule::SubFilter,
        StreamRule::SubGraceful,
        StreamRule::LogThreshold,
    ];

    pub fn rule_id(self) -> RuleId {
        match self {
            StreamRule::FinalTerminates => rules::SSE_FINAL_TERMINATES,
            StreamRule::NotifRelated => rules::SSE_NOTIF_RELATED,
            StreamRule::ProgressTokenOnly => rules::PROG_TOKEN_ONLY,
            StreamRule::ProgressIncreasing => rules::PROG_INCREASING,
            StreamRule::ProgressStop => rules::PROG_STOP,
            StreamRule::LogNoLevel => rules::LOG_NO_LEVEL,
            StreamRule::LogNotOnListen => rules::LOG_NOT_ON_LISTEN,
            StreamRule::CancelOnlyListen => rules::CANCEL_ONLY_LISTEN,
            StreamRule::AckFirst => rules::SUB_ACK_FIRST,
            StreamRule::NoNotifBeforeAck => rules::SUB_NO_NOTIF_BEFORE_ACK,
            StreamRule::ListenSubscriptionId => rules::LISTEN_SUBID,
            StreamRule::SubFilter => rules::SUB_FILTER,
            StreamRule::SubGraceful => rules::SUB_GRACEFUL,
            StreamRule::LogThreshold => rules::LOG_LEVEL_THRESHOLD,
        }
    }

    pub(crate) fn bit(self) -> u16 {
        1 << self as u8
    }
}

/// What the request asked of its stream: the facts the stream rules read.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StreamScope {
    /// The request's id (a listen stream's teardown names it).
    pub id: Option<RequestId>,
    /// `_meta.progressToken`, when a string or an integer.
    pub token: Option<RequestId>,
    /// `_meta` carries `io.modelcontextprotocol/logLevel`.
    pub log_level: bool,
    /// The request is `subscriptions/listen`.
    pub listen: bool,
    /// A listen request's `params.notifications` filter, as bits of [`FILTER_TOOLS`] ...
    /// (the types it asked for explicitly; 0 for any other request).
    #[serde(skip_serializing_if = "is_zero")]
    pub filter: u8,
    /// The requested log level's place in `soft_params::LOG_LEVELS` (RFC 5424 order, `debug`
    /// first), when `_meta` names one of the eight and the target declares `logging`
    /// (LOG-LEVEL-THRESHOLD binds only such a target: on another, every log message is
    /// LOG-CAP-DECLARE's). Serialized as the level's name.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "level_name")]
    pub min_level: Option<u8>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A `min_level` as the level's name.
fn level_name<S: serde::Serializer>(level: &Option<u8>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(level.and_then(level_at).unwrap_or("?"))
}

impl StreamScope {
    /// The stream rules that bind a request with this scope, as bits of `StreamRule::bit`.
    pub fn rules(&self) -> u16 {
        rules_for(
            self.token.is_some(),
            self.log_level,
            self.listen,
            self.min_level.is_some(),
        )
    }
}

/// The stream rules that bind a request (`StreamScope::rules`) from its scope's facts.
pub(crate) fn rules_for(token: bool, log_level: bool, listen: bool, min_level: bool) -> u16 {
    let mut bits = StreamRule::FinalTerminates.bit()
        | StreamRule::ProgressTokenOnly.bit()
        | StreamRule::CancelOnlyListen.bit();
    if listen {
        bits |= StreamRule::LogNotOnListen.bit()
            | StreamRule::AckFirst.bit()
            | StreamRule::NoNotifBeforeAck.bit()
            | StreamRule::ListenSubscriptionId.bit()
            | StreamRule::SubFilter.bit()
            | StreamRule::SubGraceful.bit();
    } else {
        bits |= StreamRule::NotifRelated.bit();
        if !log_level {
            bits |= StreamRule::LogNoLevel.bit();
        } else if min_level {
            bits |= StreamRule::LogThreshold.bit();
        }
    }
    if token {
        // only the request's own progress can fail to increase or go on too long; any
        // other token is PROG-TOKEN-ONLY's
        bits |= StreamRule::ProgressIncreasing.bit() | StreamRule::ProgressStop.bit();
    }
    bits
}

/// One stream rule with the scope of the request it binds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StreamLint {
    pub rule: StreamRule,
    pub scope: StreamScope,
}

/// Whether `a` breaks `l`: an SSE answer with an event `l`'s rule owns, or (for
/// SHTTP-SSE-FINAL-TERMINATES) left open after its final response (DEVIATIONS.md D-91: the
/// transport's idle window after the response bounds the wait for the close).
pub fn offends(l: &StreamLint, a: &HttpAnswer) -> bool {
    let Body::Sse { messages, closed } = &a.body else {
        return false;
    };
    let mut walk = Walk::default();
    for m in messages {
        if walk.owner(m, &l.scope) == Some(l.rule) {
            return true;
        }
    }
    if l.rule == StreamRule::FinalTerminates {
        return walk.responded && !closed;
    }
    walk.closing(*closed, &l.scope) == Some(l.rule)
}

/// Whether `a` observed `l`'s rule: the answer carried what the rule speaks of, so its
/// holding says something (a JSON answer, or a stream with no progress, says nothing about
/// PROG-INCREASING). Every offence is an observation (DEVIATIONS.md D-93).
pub fn observed(l: &StreamLint, a: &HttpAnswer) -> bool {
    let Body::Sse { messages, closed } = &a.body else {
        return false;
    };
    if offends(l, a) {
        return true;
    }
    let json = || messages.iter().filter_map(json_of);
    let own_progress = || {
        json().filter(|v| {
            method_of(v) == Some("notifications/progress")
                && l.scope.token.as_ref().is_some_and(|t| t.is(token_of(v)))
        })
    };
    let responded = json().any(is_response);
    match l.rule {
        StreamRule::FinalTerminates | StreamRule::LogNoLevel => responded,
        StreamRule::NotifRelated => json().any(|v| method_of(v).is_some() && !is_response(v)),
        StreamRule::ProgressTokenOnly => {
            json().any(|v| method_of(v) == Some("notifications/progress"))
        }
        StreamRule::ProgressIncreasing => own_progress().nth(1).is_some(),
        StreamRule::ProgressStop => responded && own_progress().next().is_some(),
        StreamRule::LogNotOnListen | StreamRule::CancelOnlyListen => true,
        // a log message before the response: one the permission speaks of
        StreamRule::LogThreshold => json()
            .take_while(|v| !is_response(v))
            .any(|v| method_of(v) == Some("notifications/message")),
        StreamRule::AckFirst | StreamRule::NoNotifBeforeAck => !messages.is_empty(),
        // a change notification after the acknowledgement (as BASE-LISTEN-SUBID)
        StreamRule::SubFilter => json().any(is_change),
        // the server closed a subscription it had acknowledged (D-101)
        StreamRule::SubGraceful => {
            *closed
                && json().any(|v| method_of(v) == Some("notifications/subscriptions/acknowledged"))
        }
        // a change notification after the acknowledgement
        StreamRule::ListenSubscriptionId => json().any(is_change),
    }
}

/// A notification that is none of the acknowledgement, progress, log or cancellation (the
/// change notifications a listen stream exists for, or a server's own).
fn is_change(v: &Value) -> bool {
    v.get("id").is_none()
        && method_of(v).is_some_and(|m| {
            !matches!(
                m,
                "notifications/subscriptions/acknowledged"
                    | "notifications/progress"
                    | "notifications/message"
                    | "notifications/cancelled"
            )
        })
}

/// What a walk over a stream's events has seen so far.
#[derive(Default)]
struct Walk {
    /// The final response went by.
    responded: bool,
    /// The last `progress` of the request's own token.
    last_progress: Option<f64>,
    /// A listen stream's acknowledgement went by.
    acked: bool,
    /// A success result went by (a listen request's completion result).
    completed: bool,
}

impl Walk {
    /// The rule that owns event `m` (read in order), if any rule forbids it.
    fn owner(&mut self, m: &SseMessage, scope: &StreamScope) -> Option<StreamRule> {
        let after = self.responded;
        let Some(v) = json_of(m) else {
            // data that is not JSON is no message for the request: after the response it is
            // one more event on a stream that should have ended
            return after.then_some(StreamRule::FinalTerminates);
        };
        if is_response(v) {
            self.responded = true;
            self.completed |= v.get("result").is_some();
            if scope.listen && !self.acked && v.get("result").is_some() {
                // a listen answered before its acknowledgement (a refusal needs none)
                return Some(StreamRule::AckFirst);
            }
            return after.then_some(StreamRule::FinalTerminates);
        }
        let Some(method) = method_of(v) else {
            return after.then_some(StreamRule::FinalTerminates);
        };
        if v.get("id").is_some() {
            // a request: SHTTP-SSE-NO-REQUESTS (the lint in check.rs)
            return None;
        }
        match method {
            "notifications/progress" => {
                let own = scope.token.as_ref().is_some_and(|t| t.is(token_of(v)));
                if !own {
                    return Some(StreamRule::ProgressTokenOnly);
                }
                if after {
                    return Some(StreamRule::ProgressStop);
                }
                let progress = v
                    .get("params")
                    .and_then(|p| p.get("progress"))
                    .and_then(Value::as_f64)?;
                let rising = self.last_progress.is_none_or(|last| progress > last);
                self.last_progress = Some(progress);
                (!rising).then_some(StreamRule::ProgressIncreasing)
            }
            "notifications/message" if scope.listen => Some(StreamRule::LogNotOnListen),
            "notifications/message" if !scope.log_level => Some(StreamRule::LogNoLevel),
            // below the requested level, before the response (after it, any message is
            // SHTTP-SSE-FINAL-TERMINATES's, below)
            "notifications/message" if !after && below_level(v, scope) => {
                Some(StreamRule::LogThreshold)
            }
            "notifications/cancelled" => {
                // a server sends it only to end a listen stream, naming that request
                let names_listen = scope.listen
                    && scope.id.as_ref().is_some_and(|id| {
                        id.is(v
                            .get("params")
                            .and_then(|p| p.get("requestId"))
                            .unwrap_or(&Value::Null))
                    });
                (!names_listen).then_some(StreamRule::CancelOnlyListen)
            }
            // the one notification unrelated on every reading; change notifications may
            // relate to the call (AMB-32, DEVIATIONS.md D-92)
            "notifications/subscriptions/acknowledged" if !scope.listen => {
                Some(StreamRule::NotifRelated)
            }
            "notifications/subscriptions/acknowledged" if !self.acked => {
                // the first message, "carrying the subscription's ID in `_meta`" (D-94)
                self.acked = true;
                (!names_subscription(v, scope)).then_some(StreamRule::AckFirst)
            }
            _ if scope.listen && !self.acked => Some(StreamRule::NoNotifBeforeAck),
            _ if scope.listen && !names_subscription(v, scope) => {
                Some(StreamRule::ListenSubscriptionId)
            }
            // a second acknowledgement is no notification type of the filter's either
            _ if scope.listen && !requested(scope.filter, method) => Some(StreamRule::SubFilter),
            _ => after.then_some(StreamRule::FinalTerminates),
        }
    }

    /// The rule a listen stream's end breaks, after every event was walked: the server
    /// closed (`closed`) a subscription it had acknowledged without a completion result (a
    /// success response to the listen request) → SUB-GRACEFUL, whatever else it sent (a
    /// `notifications/cancelled` naming the listen request included: D-101). A stream
    /// mcpdiff stopped reading was not ended by the server.
    fn closing(&self, closed: bool, scope: &StreamScope) -> Option<StreamRule> {
        (scope.listen && closed && self.acked && !self.completed).then_some(StreamRule::SubGraceful)
    }
}

/// Whether notification `v` carries the listen request's id as
/// `_meta["io.modelcontextprotocol/subscriptionId"]` (same value, same JSON type).
fn names_subscription(v: &Value, scope: &StreamScope) -> bool {
    let named = v
        .get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(SUBSCRIPTION_ID));
    match (&scope.id, named) {
        (Some(id), Some(n)) => id.is(n),
        _ => false,
    }
}

const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// Whether log message `v` names one of the eight levels below the scope's `min_level`. A
/// message with no level, or one that is none of the eight, is no level «at or above» and
/// none below: this rule leaves it alone (D-198).
fn below_level(v: &Value, scope: &StreamScope) -> bool {
    let Some(min) = scope.min_level else {
        return false;
    };
    v.get("params")
        .and_then(|p| p.get("level"))
        .and_then(Value::as_str)
        .and_then(level_rank)
        .is_some_and(|i| i < min)
}

fn json_of(m: &SseMessage) -> Option<&Value> {
    match m {
        SseMessage::Json(v) => Some(v),
        SseMessage::NotJson(_) => None,
    }
}

fn method_of(v: &Value) -> Option<&str> {
    v.get("method").and_then(Value::as_str)
}

/// A progress notification's `params.progressToken` (`null` when absent).
fn token_of(v: &Value) -> &Value {
    v.get("params")
        .and_then(|p| p.get("progressToken"))
        .unwrap_or(&Value::Null)
}

/// A JSON-RPC response, as `HttpAnswer::rpc_response` finds one.
fn is_response(v: &Value) -> bool {
    v.is_object() && (v.get("result").is_some() || v.get("error").is_some())
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
