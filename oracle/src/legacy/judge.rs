//! Which `L-*` demands a step carries given the track, and the check of one answer.

use super::demand::Demand;
use super::era::is_legacy_version;
use super::step::{LegacyStep, SessionUse, VersionHeader, BOGUS_VERSION};
use super::track::{ResumePoint, SessionTrack, Track};
use crate::check::Finding;
use crate::observation::{Body, HttpAnswer, Observation};
use crate::rules::legacy as ids;
use crate::rules::{level_of, RuleId};
use serde_json::Value;

/// What the judge knows of the target's legacy side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegacyProfile {
    /// Legacy protocol versions the target is known to support (it published them, or an
    /// earlier `initialize` negotiated them): L-LIFE-VERSION-SAME is judged for these only.
    pub supported: Vec<String>,
}

/// The result of one step.
#[derive(Clone, Debug, PartialEq)]
pub enum StepOutcome {
    /// The answer was read; these rules were broken (empty: none).
    Judged(Vec<Finding>),
    /// No answer to judge (transport failure, or an authorization challenge), with why.
    NotDetermined(String),
}

/// The demands step `step` carries when the sequence so far implies `track`.
pub fn expectations(
    step: &LegacyStep,
    track: &Track,
    profile: &LegacyProfile,
) -> Vec<(RuleId, Demand)> {
    // every JSON-RPC message, whatever the step (D-L19)
    let mut out = vec![(ids::BASE_UTF8, Demand::Utf8)];
    if let LegacyStep::Initialize { version } = step {
        out.push((ids::INIT_RESULT, Demand::InitResult));
        out.push((ids::SESSION_ID_CHARS, Demand::SessionIdVisible));
        out.push((ids::REQ_CT, Demand::JsonOrSseWhenServed));
        if profile.supported.iter().any(|v| v == version) {
            out.push((ids::VERSION_SAME, Demand::VersionIs(version.clone())));
        } else if version == BOGUS_VERSION {
            // D-L2: only a version no server implements is known to be unsupported
            out.push((ids::VERSION_OTHER, Demand::VersionIsNot(version.clone())));
            if let Some(latest) = latest_legacy(profile) {
                out.push((
                    ids::VERSION_LATEST,
                    Demand::OffersLatest {
                        requested: version.clone(),
                        latest,
                    },
                ));
            }
        }
        // the answer opens a new session: no id of an earlier one counts (D-L17)
        out.push((ids::EVENTID_UNIQUE, Demand::FreshEventIds(Vec::new())));
        out.push((
            ids::NO_REQUESTS_BEFORE_INITIALIZED,
            Demand::OnlyPingRequests,
        ));
        post_stream(&mut out);
        return out;
    }
    let session = step.session_use().unwrap_or(SessionUse::Current);
    // a foreign Origin is judged only inside a live session (or on a session-less target):
    // beside a dead or missing one, two sentences with no order between them would both
    // bind the answer (D-L9)
    let foreign = matches!(
        step,
        LegacyStep::ForeignOrigin | LegacyStep::ForeignOriginGet
    );
    // an unsupported version beside a dead session: 404 and 400 are both mandated (D-L9);
    // the version is the one the step's header carries, so a negotiated `1900-01-01` (a
    // target that echoed it) is unsupported too (D-L41)
    let unsupported = sent_version(step, track) == Some(BOGUS_VERSION);
    let live = match (&track.session, session) {
        // the id it assigned, still live: the step is judged on its own rules below
        (SessionTrack::Live(_), SessionUse::Current) => true,
        // (a session-less target has no session to be dead or missing: judged below, D-L11)
        (s, _) if foreign && !matches!(s, SessionTrack::Sessionless) => false,
        (SessionTrack::Terminated(_), SessionUse::Current) if unsupported => {
            out.push((ids::SESSION_404, Demand::StatusIn(&[404, 400])));
            false
        }
        // L-SHTTP-SESSION-404: the id it terminated
        (SessionTrack::Terminated(_), SessionUse::Current) => {
            out.push((ids::SESSION_404, Demand::Status(404)));
            false
        }
        // an id it never minted, on a target that uses sessions (D-L4)
        (SessionTrack::Live(_) | SessionTrack::Terminated(_), SessionUse::Unknown) => {
            out.push((ids::SESSION_404, Demand::StatusIn(&[404, 400])));
            false
        }
        // no session id and a version no server implements: a dual-era target serves it by
        // 2026-07-28 (D-L1), so it is not on the legacy path and no L-* demand binds it (D-L40)
        (SessionTrack::Live(_), SessionUse::Missing) if unsupported => {
            out.clear();
            false
        }
        // L-SHTTP-SESSION-MISSING-400: a refusal of a session-less request is a 400 (D-L3)
        (SessionTrack::Live(_), SessionUse::Missing) => {
            out.push((ids::SESSION_MISSING_400, Demand::ServedOr400));
            false
        }
        // a session-less target: its requests are judged like a live session's
        (SessionTrack::Sessionless, SessionUse::Current | SessionUse::Missing) => true,
        _ => false,
    };
    if !live {
        return out;
    }
    // before `notifications/initialized` only pings; after it, no request for a capability
    // the client did not declare (it declares none) (D-L14)
    if track.initialized {
        out.push((ids::OPERATION, Demand::NoUndeclaredCapability));
    } else {
        out.push((
            ids::NO_REQUESTS_BEFORE_INITIALIZED,
            Demand::OnlyPingRequests,
        ));
    }
    // a resumed stream may repeat the ids of the events it replays (D-L17)
    if !matches!(step, LegacyStep::Resume) {
        out.push((
            ids::EVENTID_UNIQUE,
            Demand::FreshEventIds(track.event_ids.clone()),
        ));
    }
    match step {
        // L-SHTTP-NOTIF-202 for what it accepts, -REJECT for what it refuses (D-L12)
        LegacyStep::Initialized | LegacyStep::Response => {
            out.push((ids::NOTIF_202, Demand::AcceptedIs202));
            out.push((ids::NOTIF_REJECT, Demand::RefusalIsError));
        }
        // a foreign host is invalid for a loopback server (D-04): serving it is no
        // validation, refusing it is 403 (D-L11)
        LegacyStep::ForeignOrigin | LegacyStep::ForeignOriginGet => {
            out.push((ids::ORIGIN_VALIDATE, Demand::NotServed));
            out.push((ids::ORIGIN_403, Demand::ServedOr403));
        }
        LegacyStep::Request { version, .. } => match version {
            VersionHeader::Unsupported => out.push((ids::PV_UNSUPPORTED_400, Demand::Status(400))),
            VersionHeader::Negotiated | VersionHeader::Absent => {
                out.push((ids::REQ_CT, Demand::JsonOrSseWhenServed));
                // a well-formed request in an initialized session: the endpoint supports
                // POST, so no 405 / 501 (D-L50)
                if track.initialized {
                    out.push((ids::EP_POST_GET, Demand::PostSupported));
                }
                post_stream(&mut out);
            }
        },
        LegacyStep::Get { .. } => {
            out.push((ids::GET_SSE_OR_405, Demand::SseOr405));
            out.push((ids::GET_NO_RESPONSE, Demand::NoResponseOnStream));
        }
        LegacyStep::Resume => {
            out.push((ids::GET_SSE_OR_405, Demand::SseOr405));
            match &track.resume {
                Some(point) => {
                    let elsewhere = track.answered_elsewhere.clone();
                    if point.owes_response {
                        out.push((
                            ids::SSE_RESPONSE,
                            Demand::DeliversOwedResponse(elsewhere.clone()),
                        ));
                    }
                    out.push((ids::RESUME_SAME_STREAM, Demand::NoResponseFrom(elsewhere)));
                }
                // nothing to resume: a plain GET
                None => out.push((ids::GET_NO_RESPONSE, Demand::NoResponseOnStream)),
            }
        }
        // DELETE may be answered anyhow (L-SHTTP-DELETE-405 is a MAY); what it did decides
        // the track
        LegacyStep::Delete { .. } | LegacyStep::Initialize { .. } => {}
    }
    out
}

/// The demands on an SSE stream answering a POSTed request (D-L15, D-L16).
fn post_stream(out: &mut Vec<(RuleId, Demand)>) {
    out.push((ids::SSE_PRIME, Demand::Primed));
    out.push((ids::SSE_TERMINATE, Demand::TerminatedAfterResponse));
    out.push((ids::SSE_RETRY, Demand::RetryBeforeClose));
}

/// The newest legacy version the target is known to support (the dates sort as text).
fn latest_legacy(profile: &LegacyProfile) -> Option<String> {
    profile
        .supported
        .iter()
        .filter(|v| is_legacy_version(v.as_bytes()))
        .max()
        .cloned()
}

/// The `MCP-Protocol-Version` step `step` sends after `track` (as `case_for` writes it).
fn sent_version<'a>(step: &LegacyStep, track: &'a Track) -> Option<&'a str> {
    match step {
        LegacyStep::Initialize { .. } => None,
        LegacyStep::Request { version, .. } => match version {
            VersionHeader::Negotiated => track.negotiated.as_deref(),
            VersionHeader::Absent => None,
            VersionHeader::Unsupported => Some(BOGUS_VERSION),
        },
        _ => track.negotiated.as_deref(),
    }
}

/// Judge the answer `obs` to step `step` (sent as `case_for(step, track, ..)`): the step's
/// findings, and the track for the next step.
pub fn judge_step(
    step: &LegacyStep,
    track: &Track,
    obs: &Observation,
    profile: &LegacyProfile,
) -> (StepOutcome, Track) {
    let answer = match obs {
        Observation::Http(a) if !is_challenge(a) => a,
        Observation::Http(a) => {
            let why = format!("authorization challenge ({})", a.status);
            return (StepOutcome::NotDetermined(why), unsure(step, track));
        }
        Observation::Transport { failure } => {
            return (
                StepOutcome::NotDetermined(failure.to_string()),
                unsure(step, track),
            )
        }
    };
    let findings = expectations(step, track, profile)
        .into_iter()
        .filter(|(_, d)| !d.holds(answer))
        .map(|(rule, d)| Finding {
            rule: rule.0.to_string(),
            level: level_of(rule).as_str().to_string(),
            expected: d.to_string(),
            observed: obs.summary(),
            co_failing: Vec::new(),
        })
        .collect();
    (StepOutcome::Judged(findings), advance(step, track, answer))
}

/// What the answer adds to the streams the track knows: its event ids, the responses it
/// carried, and (the first time) the stream a `Resume` step resumes.
fn streams(step: &LegacyStep, next: &mut Track, a: &HttpAnswer) {
    match step {
        // the resumed stream's ids and responses are the earlier stream's (D-L17, D-L18)
        LegacyStep::Resume | LegacyStep::Initialize { .. } => return,
        LegacyStep::Request { .. } if next.resume.is_none() && (200..300).contains(&a.status) => {
            if let Some(first) = a.wire.event_ids.iter().flatten().next() {
                let closed = matches!(a.body, Body::Sse { closed: true, .. });
                next.resume = Some(ResumePoint {
                    last_event_id: first.clone(),
                    owes_response: closed && a.rpc_response().is_none(),
                });
                next.event_ids.extend(event_ids(a));
                return;
            }
        }
        _ => {}
    }
    next.event_ids.extend(event_ids(a));
    next.answered_elsewhere.extend(response_ids(a));
}

fn event_ids(a: &HttpAnswer) -> Vec<String> {
    a.wire.event_ids.iter().flatten().cloned().collect()
}

/// The ids of the JSON-RPC responses an answer carries (the JSON body, or SSE messages).
fn response_ids(a: &HttpAnswer) -> Vec<Value> {
    let body = match &a.body {
        Body::Json { value } => vec![value],
        _ => a.sse_json().collect(),
    };
    body.into_iter()
        .filter(|v| v.get("result").is_some() || v.get("error").is_some())
        .filter_map(|v| v.get("id").cloned())
        .collect()
}

/// A 401/403 carrying a challenge is the authorization layer, not the legacy transport
/// (as D-80 for the modern rules).
fn is_challenge(a: &HttpAnswer) -> bool {
    matches!(a.status, 401 | 403) && a.www_authenticate.is_some()
}

/// After an unread answer: a step that could change the session leaves it unsure.
fn unsure(step: &LegacyStep, track: &Track) -> Track {
    match step {
        LegacyStep::Initialize { .. } | LegacyStep::Delete { .. } => Track {
            session: SessionTrack::Unsure(track.session.id().map(str::to_string)),
            ..track.clone()
        },
        _ => track.clone(),
    }
}

/// The track after `step` was answered with `a`.
fn advance(step: &LegacyStep, track: &Track, a: &HttpAnswer) -> Track {
    let mut next = track.clone();
    streams(step, &mut next, a);
    match step {
        LegacyStep::Initialized if (200..300).contains(&a.status) => next.initialized = true,
        LegacyStep::Initialize { .. } => match a.rpc_response().and_then(|r| r.get("result")) {
            Some(result) => {
                // a new session: its own phase, event ids and streams
                next.initialized = false;
                next.resume = None;
                next.event_ids = event_ids(a);
                next.answered_elsewhere = response_ids(a);
                next.negotiated = result
                    .get("protocolVersion")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                next.session = match &a.session_id {
                    Some(id) => SessionTrack::Live(id.clone()),
                    None => SessionTrack::Sessionless,
                };
            }
            None => next.session = SessionTrack::Unsure(None),
        },
        LegacyStep::Delete {
            session: SessionUse::Current,
        } => {
            if let SessionTrack::Live(id) = &track.session {
                next.session = match a.status {
                    200..=299 | 404 => SessionTrack::Terminated(id.clone()),
                    405 => SessionTrack::Live(id.clone()),
                    _ => SessionTrack::Unsure(Some(id.clone())),
                };
            }
        }
        _ => {}
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(step: &LegacyStep, session: SessionTrack) -> Vec<&'static str> {
        let track = Track {
            session,
            ..Track::start()
        };
        expectations(step, &track, &LegacyProfile::default())
            .into_iter()
            .map(|(r, _)| r.0)
            .collect()
    }

    #[test]
    fn a_foreign_origin_is_judged_in_a_live_session_and_without_sessions_only() {
        let step = LegacyStep::ForeignOrigin;
        for s in [SessionTrack::Live("a".into()), SessionTrack::Sessionless] {
            let r = rules(&step, s.clone());
            assert!(r.contains(&ids::ORIGIN_VALIDATE.0), "{s:?}: {r:?}");
            assert!(r.contains(&ids::ORIGIN_403.0), "{s:?}: {r:?}");
        }
        let dead = rules(&step, SessionTrack::Terminated("a".into()));
        assert!(!dead.contains(&ids::ORIGIN_VALIDATE.0), "{dead:?}");
        assert!(!dead.contains(&ids::ORIGIN_403.0), "{dead:?}");
    }

    #[test]
    fn post_support_is_judged_on_requests_of_an_initialized_live_session_only() {
        let ping = |version| LegacyStep::Request {
            method: "ping".into(),
            session: SessionUse::Current,
            version,
        };
        let judged = |step: &LegacyStep, initialized| {
            let track = Track {
                session: SessionTrack::Live("a".into()),
                initialized,
                ..Track::start()
            };
            expectations(step, &track, &LegacyProfile::default())
                .iter()
                .any(|(r, d)| *r == ids::EP_POST_GET && *d == Demand::PostSupported)
        };
        assert!(judged(&ping(VersionHeader::Negotiated), true));
        assert!(judged(&ping(VersionHeader::Absent), true));
        assert!(!judged(&ping(VersionHeader::Negotiated), false));
        assert!(!judged(&ping(VersionHeader::Unsupported), true));
        assert!(!judged(&LegacyStep::Initialized, true));
    }
}
