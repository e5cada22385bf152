//! Which `L-*` demands a step carries given the track, and the check of one answer.

use super::demand::Demand;
use super::step::{LegacyStep, SessionUse, VersionHeader, BOGUS_VERSION};
use super::track::{SessionTrack, Track};
use crate::check::Finding;
use crate::observation::{HttpAnswer, Observation};
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
    let mut out = Vec::new();
    if let LegacyStep::Initialize { version } = step {
        out.push((ids::INIT_RESULT, Demand::InitResult));
        out.push((ids::SESSION_ID_CHARS, Demand::SessionIdVisible));
        out.push((ids::REQ_CT, Demand::JsonOrSseWhenServed));
        if profile.supported.iter().any(|v| v == version) {
            out.push((ids::VERSION_SAME, Demand::VersionIs(version.clone())));
        } else if version == BOGUS_VERSION {
            // D-L2: only a version no server implements is known to be unsupported
            out.push((ids::VERSION_OTHER, Demand::VersionIsNot(version.clone())));
        }
        return out;
    }
    let session = step.session_use().unwrap_or(SessionUse::Current);
    // a foreign Origin is judged only inside a live session: beside a dead or missing one,
    // two sentences with no order between them would both bind the answer (D-L9)
    let foreign = matches!(step, LegacyStep::ForeignOrigin);
    // an unsupported version beside a dead session: 404 and 400 are both mandated (D-L9);
    // the version is the one the step's header carries, so a negotiated `1900-01-01` (a
    // target that echoed it) is unsupported too (D-L41)
    let unsupported = sent_version(step, track) == Some(BOGUS_VERSION);
    let live = match (&track.session, session) {
        // the id it assigned, still live: the step is judged on its own rules below
        (SessionTrack::Live(_), SessionUse::Current) => true,
        (_, _) if foreign => false,
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
        (SessionTrack::Live(_), SessionUse::Missing) if unsupported => false,
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
    match step {
        LegacyStep::Initialized | LegacyStep::Response => {
            out.push((ids::NOTIF_202, Demand::AcceptedOrError))
        }
        // L-SHTTP-ORIGIN-403: a foreign host is invalid for a loopback server (D-04)
        LegacyStep::ForeignOrigin => out.push((ids::ORIGIN_403, Demand::Status(403))),
        LegacyStep::Request { version, .. } => match version {
            VersionHeader::Unsupported => out.push((ids::PV_UNSUPPORTED_400, Demand::Status(400))),
            VersionHeader::Negotiated | VersionHeader::Absent => {
                out.push((ids::REQ_CT, Demand::JsonOrSseWhenServed))
            }
        },
        LegacyStep::Get { .. } => {
            out.push((ids::GET_SSE_OR_405, Demand::SseOr405));
            out.push((ids::GET_NO_RESPONSE, Demand::NoResponseOnStream));
        }
        // DELETE may be answered anyhow (L-SHTTP-DELETE-405 is a MAY); what it did decides
        // the track
        LegacyStep::Delete { .. } | LegacyStep::Initialize { .. } => {}
    }
    out
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
            negotiated: track.negotiated.clone(),
        },
        _ => track.clone(),
    }
}

/// The track after `step` was answered with `a`.
fn advance(step: &LegacyStep, track: &Track, a: &HttpAnswer) -> Track {
    let mut next = track.clone();
    match step {
        LegacyStep::Initialize { .. } => match a.rpc_response().and_then(|r| r.get("result")) {
            Some(result) => {
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
