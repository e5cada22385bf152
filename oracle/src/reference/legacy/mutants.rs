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
    // L1: issue 24
    /// A foreign `Origin` is refused with 400, not 403.
    OriginRefused400,
    /// A client's JSON-RPC response is refused with `200` and a JSON-RPC error.
    ResponseRefused200,
    /// An unsupported requested version is answered with its oldest version.
    OffersOldest,
    /// `initialize` is streamed with a `roots/list` request before its result.
    InitSendsRequest,
    /// The GET stream carries a `sampling/createMessage` request.
    GetSamples,
    /// Streams open without a priming event.
    NoPrime,
    /// Streams stay open after the response.
    StreamLeftOpen,
    /// Streams close after the priming event, without `retry` (the response waits for a
    /// resumption).
    ClosesWithoutRetry,
    /// Streams close after the priming event (with `retry`) and the response is never sent.
    ResponseNeverSent,
    /// Event ids restart at every stream (`e0`, `e1`).
    EventIdsPerStream,
    /// A resumption replays every stream of the session.
    ReplaysEveryStream,
    /// `ping` is answered with a Latin-1 byte in its JSON.
    Latin1Answer,
    /// The Origin is checked on POSTs only: a foreign-Origin GET is served.
    OriginPostOnly,
    // L5: issue 24
    /// A POSTed request in a session (anything but `initialize`) is refused `405`.
    RequestPost405,
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
        rule: ids::ORIGIN_VALIDATE,
        description: "serves a request from a foreign Origin",
        fault: LegacyFault::OriginUnchecked,
    },
    // L1: issue 24
    LegacyMutant {
        name: "legacy-origin-400",
        rule: ids::ORIGIN_403,
        description: "refuses a foreign Origin with 400 instead of 403",
        fault: LegacyFault::OriginRefused400,
    },
    LegacyMutant {
        name: "legacy-response-refused-200",
        rule: ids::NOTIF_REJECT,
        description: "refuses a client's JSON-RPC response with 200 and an error",
        fault: LegacyFault::ResponseRefused200,
    },
    LegacyMutant {
        name: "legacy-version-offers-oldest",
        rule: ids::VERSION_LATEST,
        description: "answers an unsupported requested version with its oldest version",
        fault: LegacyFault::OffersOldest,
    },
    LegacyMutant {
        name: "legacy-init-sends-request",
        rule: ids::NO_REQUESTS_BEFORE_INITIALIZED,
        description: "streams initialize with a roots/list request before the result",
        fault: LegacyFault::InitSendsRequest,
    },
    LegacyMutant {
        name: "legacy-get-samples",
        rule: ids::OPERATION,
        description: "sends sampling/createMessage on the GET stream to a client without sampling",
        fault: LegacyFault::GetSamples,
    },
    LegacyMutant {
        name: "legacy-stream-unprimed",
        rule: ids::SSE_PRIME,
        description: "opens request streams without a priming event",
        fault: LegacyFault::NoPrime,
    },
    LegacyMutant {
        name: "legacy-stream-left-open",
        rule: ids::SSE_TERMINATE,
        description: "keeps request streams open after the response",
        fault: LegacyFault::StreamLeftOpen,
    },
    LegacyMutant {
        name: "legacy-stream-close-no-retry",
        rule: ids::SSE_RETRY,
        description: "closes request streams before the response without a retry field",
        fault: LegacyFault::ClosesWithoutRetry,
    },
    LegacyMutant {
        name: "legacy-stream-response-lost",
        rule: ids::SSE_RESPONSE,
        description: "closes request streams before the response and never sends it",
        fault: LegacyFault::ResponseNeverSent,
    },
    LegacyMutant {
        name: "legacy-event-ids-per-stream",
        rule: ids::EVENTID_UNIQUE,
        description: "restarts SSE event ids at every stream",
        fault: LegacyFault::EventIdsPerStream,
    },
    LegacyMutant {
        name: "legacy-resume-every-stream",
        rule: ids::RESUME_SAME_STREAM,
        description: "replays every stream of the session on a resumption",
        fault: LegacyFault::ReplaysEveryStream,
    },
    LegacyMutant {
        name: "legacy-latin1-answer",
        rule: ids::BASE_UTF8,
        description: "answers ping with a JSON body holding a Latin-1 byte",
        fault: LegacyFault::Latin1Answer,
    },
    LegacyMutant {
        name: "legacy-origin-post-only",
        rule: ids::ORIGIN_VALIDATE,
        description: "checks the Origin of POSTs only, serving a foreign-Origin GET",
        fault: LegacyFault::OriginPostOnly,
    },
    // L5: issue 24
    LegacyMutant {
        name: "legacy-request-post-405",
        rule: ids::EP_POST_GET,
        description: "answers 405 to POSTed requests in a session (initialize still served)",
        fault: LegacyFault::RequestPost405,
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
