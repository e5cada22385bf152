//! The mutant table: each mutant is the reference server with exactly one rule broken, so a
//! scorer can be shown to catch that rule (and only that rule) on the probe set. How each one
//! rewrites the request or the answer lives in `mutate.rs`.
//!
//! Every judged rule has a mutant. `BASE-MISSING-CAP-32021` is not judged: a -32021 answer is
//! only ever *tolerated* (no fixture tool requires a client capability), so no answer could
//! break it; the rule table marks it `judged: false`.

use crate::rules::{self, RuleId};

/// One deliberately broken variant of the reference server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mutant {
    /// Stable name, used by `mcpdiff serve --mutant NAME`.
    pub name: &'static str,
    /// The one rule it breaks.
    pub rule: RuleId,
    /// What it does wrong, in one line.
    pub description: &'static str,
}

const fn m(name: &'static str, rule: RuleId, description: &'static str) -> Mutant {
    Mutant {
        name,
        rule,
        description,
    }
}

/// Every mutant, grouped by the part of the spec it breaks.
pub static MUTANTS: &[Mutant] = &[
    // endpoint, origin, notifications, content types, SSE
    m(
        "list-refused",
        rules::EP_POST,
        "answers resources/templates/list with 500 / -32603 instead of a result",
    ),
    m(
        "origin-unchecked",
        rules::ORIGIN_403,
        "never looks at Origin: a foreign origin is served",
    ),
    m(
        "notif-body-on-202",
        rules::NOTIF_202,
        "answers notifications 202 with a `{}` body",
    ),
    m(
        "notif-answered",
        rules::NOTIF_NO_RESPONSE,
        "answers notifications 400 with an error carrying id 0",
    ),
    m(
        "result-text-plain",
        rules::REQ_CT,
        "labels JSON answers `Content-Type: text/plain`",
    ),
    m(
        "sse-server-request",
        rules::SSE_NO_REQUESTS,
        "sends a `ping` request on response streams",
    ),
    m(
        "no-x-accel",
        rules::SSE_XACCEL,
        "omits `X-Accel-Buffering: no` on SSE answers",
    ),
    // protocol version
    m(
        "pv-mismatch-unchecked",
        rules::PV_MISMATCH,
        "believes the MCP-Protocol-Version header over _meta",
    ),
    m(
        "pv-any-version",
        rules::PV_UNSUPPORTED,
        "serves any protocol version the client names",
    ),
    m(
        "init-versions-unnamed",
        rules::VER_INIT_NAMES,
        "refuses a legacy `initialize` without naming the protocol versions it supports",
    ),
    m(
        "pv-missing-default",
        rules::PV_MISSING,
        "treats a missing MCP-Protocol-Version as the _meta version",
    ),
    // methods
    m(
        "unknown-method-400",
        rules::METHOD_404,
        "answers -32601 with HTTP 400 instead of 404",
    ),
    m(
        "no-discover",
        rules::VER_DISCOVER,
        "does not implement server/discover (404 / -32601)",
    ),
    m(
        "no-listen",
        rules::BASE_ALL_SUPPORT,
        "does not implement subscriptions/listen (404 / -32601)",
    ),
    m(
        "unknown-tool-is-error",
        rules::TOOLS_UNKNOWN,
        "answers an unknown tool with an isError result, not -32602",
    ),
    m(
        "unknown-resource-empty",
        rules::RES_NOTFOUND,
        "answers an unknown resource with empty contents",
    ),
    m(
        "unknown-prompt-empty",
        rules::PROMPTS_ERRORS,
        "answers an unknown prompt with an empty message list",
    ),
    m(
        "meta-unchecked",
        rules::META_REQUIRED,
        "fills in missing _meta protocol fields instead of refusing",
    ),
    // standard headers
    m(
        "mcp-method-prefix",
        rules::HDR_MISMATCH,
        "compares Mcp-Method by namespace only (tools/list = tools/call)",
    ),
    m(
        "hdr-err-32602",
        rules::HDR_ERR,
        "refuses standard-header mismatches with -32602 instead of -32020",
    ),
    m(
        "mcp-name-optional",
        rules::HDR_MISSING,
        "accepts a request without its Mcp-Name header",
    ),
    m(
        "hdr-non-ascii-stripped",
        rules::HDR_INVALID_CHARS,
        "drops non-ASCII bytes from standard headers before comparing",
    ),
    m(
        "header-names-case-sensitive",
        rules::HDR_NAME_CI,
        "only recognizes canonically-cased header names",
    ),
    m(
        "mcp-name-case-insensitive",
        rules::HDR_VALUE_CASE,
        "compares Mcp-Name ignoring ASCII case",
    ),
    m(
        "ows-not-trimmed",
        rules::HDR_OWS,
        "refuses mirrored header values padded with spaces or tabs",
    ),
    m(
        "mcp-name-from-name",
        rules::HDR_MN_SOURCE,
        "compares Mcp-Name of resources/read with params.name, not params.uri",
    ),
    // Mcp-Param headers and value encoding
    m(
        "param-int-unchecked",
        rules::PARAM_VALIDATE,
        "accepts any integer in an integer Mcp-Param header",
    ),
    m(
        "param-err-32602",
        rules::PARAM_ERR,
        "refuses Mcp-Param mismatches with -32602 instead of -32020",
    ),
    m(
        "param-non-ascii-stripped",
        rules::PARAM_INVALID_CHARS,
        "drops non-ASCII bytes from Mcp-Param headers before comparing",
    ),
    m(
        "param-optional",
        rules::PARAM_OMITTED,
        "accepts a call whose Mcp-Param header is missing",
    ),
    m(
        "param-null-expected",
        rules::PARAM_NULL,
        "demands Mcp-Param headers for null arguments",
    ),
    m(
        "param-absent-expected",
        rules::PARAM_ABSENT,
        "demands Mcp-Param-Region even when region is absent",
    ),
    m(
        "no-base64-decode",
        rules::B64_DECODE,
        "compares Base64 sentinels without decoding them",
    ),
    m(
        "base64-markers-stripped",
        rules::B64_MARKERS,
        "strips `=?`/`?=` from plain values before comparing",
    ),
    m(
        "base64-malformed-ignored",
        rules::B64_MALFORMED,
        "skips validation of headers whose sentinel does not decode",
    ),
    m(
        "base64-method-decoded",
        rules::B64_ONLY_NAME_PARAM,
        "decodes a Base64 sentinel in Mcp-Method",
    ),
    m(
        "int-string-compare",
        rules::INT_NUMERIC,
        "compares integer Mcp-Param values as strings",
    ),
    m(
        "bool-case-insensitive",
        rules::BOOL_LOWER,
        "compares boolean Mcp-Param values ignoring case",
    ),
    // backwards compatibility
    m(
        "get-200",
        rules::BC_GET_DELETE,
        "answers GET with 200 `{}` instead of 405",
    ),
    m(
        "405-no-allow",
        rules::BC_GET_DELETE,
        "answers 405 without an Allow header",
    ),
    m(
        "session-id-header",
        rules::BC_SESSION,
        "sends an Mcp-Session-Id header",
    ),
    m(
        "session-id-rejected",
        rules::BC_SESSION,
        "refuses requests that carry Mcp-Session-Id",
    ),
    m(
        "last-event-id-rejected",
        rules::BC_LAST_EVENT_ID,
        "refuses requests that carry Last-Event-ID",
    ),
    // JSON-RPC shape
    m(
        "result-id-string",
        rules::RESULT_ID,
        "echoes integer request ids as strings on results",
    ),
    m(
        "no-result-type",
        rules::RESULTTYPE,
        "omits resultType from results",
    ),
    m(
        "error-id-null",
        rules::ERROR_ID,
        "answers errors with `id: null` even when the id was readable",
    ),
    m(
        "error-no-message",
        rules::ERROR_SHAPE,
        "omits `message` from error objects",
    ),
    m(
        "legacy-code-32000",
        rules::ERRCODE_LEGACY,
        "uses -32000 in place of -32700 for parse errors",
    ),
    m(
        "reserved-code-32050",
        rules::ERRCODE_RESERVED,
        "uses the undefined reserved code -32050 for parse errors",
    ),
    // -32002 also lies in the legacy range -32019..-32000, so this one breaks the SHOULD NOT
    // BASE-ERRCODE-LEGACY too; the other retired code, -32042, would instead break the MUST NOT
    // on undefined reserved codes.
    m(
        "retired-code-32002",
        rules::ERRCODE_RETIRED,
        "uses the retired code -32002 for parse errors",
    ),
    m(
        "serverinfo-dropped",
        rules::SERVERINFO,
        "omits _meta serverInfo from results",
    ),
];

/// The mutants of the protected reference (`serve --auth TOKEN --mutant NAME`), one per
/// `AUTH-*` rule (`auth.rs` implements them). Without `--auth` they answer like the
/// reference; they are kept out of [`MUTANTS`], whose mutants break rules of `judge`.
pub static AUTH_MUTANTS: &[Mutant] = &[
    m(
        "auth-missing-403",
        rules::auth::STATUS,
        "answers a request without credentials 403 instead of 401",
    ),
    m(
        "auth-invalid-403",
        rules::auth::INVALID_401,
        "answers an unknown or foreign bearer token 403 instead of 401",
    ),
    m(
        "auth-audience-unchecked",
        rules::auth::AUDIENCE,
        "accepts a token its authorization server issued for another audience",
    ),
    m(
        "auth-query-token",
        rules::auth::QUERY,
        "accepts the token in the access_token query parameter",
    ),
    m(
        "auth-scheme-unchecked",
        rules::auth::NO_DATA,
        "accepts the token under any scheme (Basic TOKEN)",
    ),
    m(
        "auth-no-scope",
        rules::auth::SCOPE,
        "challenges without a scope parameter",
    ),
    m(
        "auth-offline-access",
        rules::auth::OFFLINE_ACCESS,
        "challenges for offline_access and lists it in scopes_supported",
    ),
    m(
        "auth-no-metadata",
        rules::auth::DISCOVERY,
        "names no resource_metadata and serves no well-known metadata",
    ),
    m(
        "auth-resource-foreign",
        rules::auth::PRM,
        "its metadata names another resource",
    ),
    m(
        "auth-no-authorization-servers",
        rules::auth::PRM_AS,
        "its metadata lists no authorization server",
    ),
];

/// Look a mutant up by name (either table).
pub fn mutant(name: &str) -> Option<&'static Mutant> {
    MUTANTS.iter().chain(AUTH_MUTANTS).find(|m| m.name == name)
}

/// Whether `name` is one of the [`AUTH_MUTANTS`].
pub fn is_auth_mutant(name: &str) -> bool {
    AUTH_MUTANTS.iter().any(|m| m.name == name)
}
