//! The legacy reference's mutants: each breaks exactly one rule the legacy sequence judge
//! checks (`crate::legacy`), and `oracle/tests/legacy_pure.rs` holds each to being caught on
//! that rule alone.

use super::respond::respond_with;
use super::state::LegacyState;
use crate::case::Case;
use crate::reference::Response;
use crate::rules::legacy as ids;
use crate::rules::RuleId;
use crate::surface::Surface;

/// The one thing a legacy mutant does wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegacyFault {
    /// `initialize`'s result has no `serverInfo`.
    InitNoServerInfo,
    /// A supported requested version is answered with the latest instead.
    VersionNotEchoed,
    /// An unsupported requested version is echoed back.
    EchoesUnsupported,
    /// Session ids carry a space (outside 0x21-0x7E).
    SessionIdWithSpace,
    /// An id it never minted is served like a live session.
    ServesUnknownSession,
    /// DELETE answers 200 but the session goes on.
    KeepsDeletedSession,
    /// A request without `Mcp-Session-Id` is refused with 404, not 400.
    MissingSession404,
    /// Notifications and responses are answered 200, not 202.
    NotificationOk,
    /// Requests are answered with `Content-Type: text/plain`.
    PlainTextAnswer,
    /// An unsupported `MCP-Protocol-Version` header is served.
    ServesUnsupportedVersion,
    /// GET is answered with `200 application/json`.
    GetAnswersJson,
    /// The GET stream carries a JSON-RPC response.
    GetStreamResponse,
    /// A foreign `Origin` is served.
    OriginUnchecked,
}

/// One legacy mutant: its name, the rule it breaks, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegacyMutant {
    pub name: &'static str,
    pub rule: RuleId,
    pub description: &'static str,
    pub fault: LegacyFault,
}

/// Every legacy mutant.
pub static LEGACY_MUTANTS: &[LegacyMutant] = &[
    LegacyMutant {
        name: "legacy-init-no-server-info",
        rule: ids::INIT_RESULT,
        description: "answers initialize without serverInfo",
        fault: LegacyFault::InitNoServerInfo,
    },
    LegacyMutant {
        name: "legacy-version-not-echoed",
        rule: ids::VERSION_SAME,
        description: "answers a supported requested version with its latest one",
        fault: LegacyFault::VersionNotEchoed,
    },
    LegacyMutant {
        name: "legacy-version-echoes-unsupported",
        rule: ids::VERSION_OTHER,
        description: "echoes a requested version it does not support",
        fault: LegacyFault::EchoesUnsupported,
    },
    LegacyMutant {
        name: "legacy-session-id-space",
        rule: ids::SESSION_ID_CHARS,
        description: "mints session ids containing a space",
        fault: LegacyFault::SessionIdWithSpace,
    },
    LegacyMutant {
        name: "legacy-unknown-session-served",
        rule: ids::SESSION_404,
        description: "serves a session id it never minted",
        fault: LegacyFault::ServesUnknownSession,
    },
    LegacyMutant {
        name: "legacy-deleted-session-served",
        rule: ids::SESSION_404,
        description: "accepts DELETE but keeps serving the session",
        fault: LegacyFault::KeepsDeletedSession,
    },
    LegacyMutant {
        name: "legacy-missing-session-404",
        rule: ids::SESSION_MISSING_400,
        description: "refuses a request without Mcp-Session-Id with 404 instead of 400",
        fault: LegacyFault::MissingSession404,
    },
    LegacyMutant {
        name: "legacy-notification-200",
        rule: ids::NOTIF_202,
        description: "answers notifications with 200 instead of 202",
        fault: LegacyFault::NotificationOk,
    },
    LegacyMutant {
        name: "legacy-request-text-plain",
        rule: ids::REQ_CT,
        description: "answers requests with Content-Type text/plain",
        fault: LegacyFault::PlainTextAnswer,
    },
    LegacyMutant {
        name: "legacy-unsupported-version-served",
        rule: ids::PV_UNSUPPORTED_400,
        description: "serves a request whose MCP-Protocol-Version it does not support",
        fault: LegacyFault::ServesUnsupportedVersion,
    },
    LegacyMutant {
        name: "legacy-get-json",
        rule: ids::GET_SSE_OR_405,
        description: "answers GET with 200 application/json",
        fault: LegacyFault::GetAnswersJson,
    },
    LegacyMutant {
        name: "legacy-get-stream-response",
        rule: ids::GET_NO_RESPONSE,
        description: "sends a JSON-RPC response on the GET stream",
        fault: LegacyFault::GetStreamResponse,
    },
    LegacyMutant {
        name: "legacy-origin-unchecked",
        rule: ids::ORIGIN_403,
        description: "serves a request from a foreign Origin",
        fault: LegacyFault::OriginUnchecked,
    },
];

/// A legacy mutant by name (`None`: no such mutant).
pub fn legacy_mutant(name: &str) -> Option<&'static LegacyMutant> {
    LEGACY_MUTANTS.iter().find(|m| m.name == name)
}

/// What mutant `m` answers to `case`, and the session table after it.
pub fn respond_legacy_mutant(
    m: &LegacyMutant,
    state: LegacyState,
    case: &Case,
    surface: &Surface,
) -> (Response, LegacyState) {
    respond_with(Some(m.fault), state, case, surface)
}
