//! The steps of a legacy sequence and the exact request each one sends.

use super::track::{SessionTrack, Track};
use crate::case::Case;
use crate::surface::Surface;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A version no server implements (not an MCP revision date).
pub const BOGUS_VERSION: &str = "1900-01-01";
/// A session id no server minted.
pub const UNKNOWN_SESSION: &str = "mcpdiff-never-issued-0";
/// An `Origin` no loopback deployment allows (a foreign host: DNS rebinding's route, D-04).
pub const FOREIGN_ORIGIN: &str = "http://attacker.example";

/// Which `Mcp-Session-Id` a step sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionUse {
    /// The id the target assigned at `initialize` (none if it assigned none).
    Current,
    /// No `Mcp-Session-Id` header.
    Missing,
    /// An id the target never minted ([`UNKNOWN_SESSION`]).
    Unknown,
}

/// Which `MCP-Protocol-Version` a step sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionHeader {
    /// The version `initialize` negotiated.
    Negotiated,
    /// No header.
    Absent,
    /// [`BOGUS_VERSION`].
    Unsupported,
}

/// One step of a legacy sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "step")]
pub enum LegacyStep {
    /// `initialize` asking for `version`, without a session id.
    Initialize { version: String },
    /// `notifications/initialized` in the session.
    Initialized,
    /// A JSON-RPC response (to a server request) in the session: like a notification, 202.
    Response,
    /// A request (`ping`, `tools/list`) with a params-free body.
    Request {
        method: String,
        session: SessionUse,
        version: VersionHeader,
    },
    /// `ping` in the session from a foreign `Origin` ([`FOREIGN_ORIGIN`]).
    ForeignOrigin,
    /// `GET` with `Accept: text/event-stream` (no `Last-Event-ID`: not resuming).
    Get { session: SessionUse },
    /// `GET` in the session from a foreign `Origin` ([`FOREIGN_ORIGIN`]): the Origin is
    /// validated on every incoming connection, not only on POSTs (L-SHTTP-ORIGIN-VALIDATE).
    ForeignOriginGet,
    /// `DELETE`: end the session.
    Delete { session: SessionUse },
    /// `GET` with `Last-Event-ID`: resume the session's first SSE stream that carried an
    /// event id, from that stream's first event ([`Track::resume`]; without one, a plain
    /// `GET` judged on nothing of resumption).
    Resume,
}

impl LegacyStep {
    /// The session id this step uses, if it names one.
    pub fn session_use(&self) -> Option<SessionUse> {
        match self {
            LegacyStep::Initialize { .. } => None,
            LegacyStep::Initialized
            | LegacyStep::Response
            | LegacyStep::ForeignOrigin
            | LegacyStep::ForeignOriginGet
            | LegacyStep::Resume => Some(SessionUse::Current),
            LegacyStep::Request { session, .. }
            | LegacyStep::Get { session }
            | LegacyStep::Delete { session } => Some(*session),
        }
    }
}

/// The request step `index` of a sequence sends, given the track so far.
pub fn case_for(step: &LegacyStep, track: &Track, surface: &Surface, index: usize) -> Case {
    let path = surface.endpoint.as_str();
    let id = index as u64 + 1;
    let json_post = |body: serde_json::Value| {
        Case::post(
            path,
            &[
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
            ],
            body.to_string(),
        )
    };
    let mut case = match step {
        LegacyStep::Initialize { version } => json_post(json!({
            "jsonrpc": "2.0", "id": id, "method": "initialize",
            "params": {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "mcpdiff", "version": env!("CARGO_PKG_VERSION")},
            }
        })),
        LegacyStep::Initialized => {
            json_post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        }
        LegacyStep::Response => {
            json_post(json!({"jsonrpc": "2.0", "id": "mcpdiff-srv-1", "result": {}}))
        }
        LegacyStep::Request { method, .. } => {
            json_post(json!({"jsonrpc": "2.0", "id": id, "method": method}))
        }
        LegacyStep::ForeignOrigin => {
            let mut c = json_post(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
            c.set_header("Origin", Some(FOREIGN_ORIGIN.as_bytes()));
            c
        }
        LegacyStep::Get { .. } => bodiless("GET", path, &[("Accept", "text/event-stream")]),
        LegacyStep::ForeignOriginGet => bodiless(
            "GET",
            path,
            &[("Accept", "text/event-stream"), ("Origin", FOREIGN_ORIGIN)],
        ),
        LegacyStep::Resume => {
            let mut c = bodiless("GET", path, &[("Accept", "text/event-stream")]);
            if let Some(r) = &track.resume {
                c.set_header("Last-Event-ID", Some(r.last_event_id.as_bytes()));
            }
            c
        }
        LegacyStep::Delete { .. } => bodiless("DELETE", path, &[]),
    };
    let session = match (step.session_use(), &track.session) {
        (Some(SessionUse::Current), s) => s.id().map(str::to_string),
        (Some(SessionUse::Unknown), _) => Some(UNKNOWN_SESSION.to_string()),
        (Some(SessionUse::Missing) | None, _) => None,
    };
    if let Some(s) = session {
        case.set_header("Mcp-Session-Id", Some(s.as_bytes()));
    }
    let version = match step {
        LegacyStep::Initialize { .. } => None,
        LegacyStep::Request { version, .. } => match version {
            VersionHeader::Negotiated => track.negotiated.clone(),
            VersionHeader::Absent => None,
            VersionHeader::Unsupported => Some(BOGUS_VERSION.to_string()),
        },
        _ => track.negotiated.clone(),
    };
    if let Some(v) = version {
        case.set_header("MCP-Protocol-Version", Some(v.as_bytes()));
    }
    if matches!(track.session, SessionTrack::NotOpened) {
        case.labels.push("before initialize".to_string());
    }
    case
}

fn bodiless(method: &str, path: &str, headers: &[(&str, &str)]) -> Case {
    let mut c = Case::post(path, headers, Vec::new());
    c.method = method.to_string();
    c
}
