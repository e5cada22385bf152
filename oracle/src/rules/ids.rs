//! Named constants for the rule ids the judge refers to (typo-safe; the table test checks
//! that each one is in the table).

use super::RuleId;

macro_rules! ids {
    ($($name:ident = $id:literal,)*) => {
        $(pub const $name: RuleId = RuleId($id);)*
        /// Every id the judge can emit.
        pub const JUDGED_IDS: &[RuleId] = &[$($name),*];
    };
}

ids! {
    EP_POST = "SHTTP-EP-POST",
    ORIGIN_403 = "SHTTP-ORIGIN-403",
    NOTIF_202 = "SHTTP-NOTIF-202",
    NOTIF_NO_RESPONSE = "BASE-NOTIF-NO-RESPONSE",
    REQ_CT = "SHTTP-REQ-CT",
    SSE_NO_REQUESTS = "SHTTP-SSE-NO-REQUESTS",
    SSE_XACCEL = "SHTTP-SSE-XACCEL",
    PV_MISMATCH = "SHTTP-PV-MISMATCH-400",
    PV_UNSUPPORTED = "SHTTP-PV-UNSUPPORTED-400",
    PV_MISSING = "SHTTP-PV-MISSING-REJECT",
    METHOD_404 = "SHTTP-METHOD-404",
    VER_DISCOVER = "VER-DISCOVER",
    VER_INIT_NAMES = "VER-INIT-NAMES-VERSIONS",
    HDR_MISMATCH = "SHTTP-HDR-MISMATCH-400",
    HDR_ERR = "SHTTP-HDR-ERR-32020",
    HDR_MISSING = "SHTTP-HDR-MISSING-400",
    HDR_INVALID_CHARS = "SHTTP-HDR-INVALID-CHARS",
    HDR_NAME_CI = "SHTTP-HDR-NAME-CI",
    HDR_VALUE_CASE = "SHTTP-HDR-VALUE-CASE",
    HDR_OWS = "SHTTP-HDR-OWS",
    PARAM_VALIDATE = "SHTTP-PARAM-VALIDATE",
    PARAM_ERR = "SHTTP-PARAM-ERR-32020",
    PARAM_INVALID_CHARS = "SHTTP-PARAM-INVALID-CHARS",
    PARAM_OMITTED = "SHTTP-PARAM-OMITTED-REJECT",
    PARAM_NULL = "SHTTP-PARAM-NULL-NOT-EXPECTED",
    PARAM_ABSENT = "SHTTP-PARAM-ABSENT-NOT-EXPECTED",
    B64_DECODE = "SHTTP-B64-DECODE",
    B64_MARKERS = "SHTTP-B64-MARKERS",
    B64_MALFORMED = "SHTTP-B64-MALFORMED",
    B64_ONLY_NAME_PARAM = "SHTTP-B64-ONLY-NAME-PARAM",
    INT_NUMERIC = "SHTTP-INT-NUMERIC",
    BOOL_LOWER = "SHTTP-BOOL-LOWER",
    BC_GET_DELETE = "SHTTP-BC-GET-DELETE-405",
    BC_SESSION = "SHTTP-BC-SESSION-IGNORE",
    BC_LAST_EVENT_ID = "SHTTP-BC-LASTEVENTID-IGNORE",
    RESULT_ID = "BASE-RESULT-ID",
    RESULTTYPE = "BASE-RESULTTYPE",
    ERROR_ID = "BASE-ERROR-ID",
    ERROR_SHAPE = "BASE-ERROR-SHAPE",
    ERRCODE_LEGACY = "BASE-ERRCODE-LEGACY",
    ERRCODE_RESERVED = "BASE-ERRCODE-RESERVED-UNDEFINED",
    ERRCODE_RETIRED = "BASE-ERRCODE-RETIRED",
    META_REQUIRED = "BASE-META-REQUIRED-400",
    SERVERINFO = "BASE-SERVERINFO",
    TOOLS_UNKNOWN = "TOOLS-UNKNOWN-32602",
    RES_NOTFOUND = "RES-NOTFOUND-32602",
    PROMPTS_ERRORS = "PROMPTS-ERRORS",
    BASE_ALL_SUPPORT = "BASE-ALL-SUPPORT",
    HDR_MN_SOURCE = "SHTTP-HDR-MN-SOURCE",
    SSE_FINAL_TERMINATES = "SHTTP-SSE-FINAL-TERMINATES",
    SSE_NOTIF_RELATED = "SHTTP-SSE-NOTIF-RELATED",
    PROG_TOKEN_ONLY = "PROG-TOKEN-ONLY",
    PROG_INCREASING = "PROG-INCREASING",
    PROG_STOP = "PROG-STOP",
    LOG_NO_LEVEL = "LOG-NO-LEVEL",
    LOG_NOT_ON_LISTEN = "LOG-NOT-ON-LISTEN",
    LOG_LEVEL_THRESHOLD = "LOG-LEVEL-THRESHOLD",
    CANCEL_ONLY_LISTEN = "CANCEL-SERVER-ONLY-LISTEN",
    SUB_ACK_FIRST = "SUB-ACK-FIRST",
    SUB_NO_NOTIF_BEFORE_ACK = "SUB-NO-NOTIF-BEFORE-ACK",
    LISTEN_SUBID = "BASE-LISTEN-SUBID",
    // H1: streams and cancellation (issue 23)
    SUB_FILTER = "SUB-FILTER",
    SUB_GRACEFUL = "SUB-GRACEFUL",
    ORIGIN_VALIDATE = "SHTTP-ORIGIN-VALIDATE",
    NOTIF_REJECT = "SHTTP-NOTIF-REJECT",
    // content checks (`crate::content`)
    DISC_SHAPE = "DISC-SHAPE",
    DISC_SERVERINFO = "DISC-SERVERINFO",
    CACHE_HINTS = "CACHE-HINTS",
    CACHE_TTL_NONNEG = "CACHE-TTL-NONNEG",
    TOOLS_CAP_DECLARE = "TOOLS-CAP-DECLARE",
    RES_CAP_DECLARE = "RES-CAP-DECLARE",
    PROMPTS_CAP_DECLARE = "PROMPTS-CAP-DECLARE",
    TOOLS_LIST_RESPOND = "TOOLS-LIST-RESPOND",
    RES_LIST_RESPOND = "RES-LIST-RESPOND",
    PROMPTS_LIST_RESPOND = "PROMPTS-LIST-RESPOND",
    TOOLS_INPUTSCHEMA_VALID = "TOOLS-INPUTSCHEMA-VALID",
    TOOLS_OUTPUT_CONFORM = "TOOLS-OUTPUT-CONFORM",
    TOOLS_STRUCTURED_TEXT = "TOOLS-STRUCTURED-TEXT",
    RES_URI_RFC3986 = "RES-URI-RFC3986",
    TOOLS_ORDER = "TOOLS-ORDER",
    TOOLS_XMCP_CONSTRAINTS = "TOOLS-XMCP-CONSTRAINTS",
    // base-protocol shape, multi-round requests, extension ids (`crate::shape`; issue 23, h4)
    ERROR_INT = "BASE-ERROR-INT",
    ERRCODE_APP_RANGE = "BASE-ERRCODE-APP-RANGE",
    META_KEYS = "BASE-META-KEYS",
    TRACE_FORMAT = "BASE-TRACE-FORMAT",
    RESULTTYPE_SET = "BASE-RESULTTYPE-SET",
    MRTR_ONLY_SUPPORTED = "MRTR-ONLY-SUPPORTED",
    MRTR_ATLEASTONE = "MRTR-ATLEASTONE",
    MRTR_VALUE_TYPES = "MRTR-VALUE-TYPES",
    NOTIF_NO_ID = "BASE-NOTIF-NO-ID",
    VER_EXT_IDS = "VER-EXT-IDS",
    JSONRPC = "BASE-JSONRPC",
    // (mu1, issue 23)
    RESULT_FIELD = "BASE-RESULT-FIELD",
    MRTR_KEYS_UNIQUE = "MRTR-KEYS-UNIQUE",
    ERRCODE_MEANING = "BASE-ERRCODE-MEANING",
    MISSING_CAP = "BASE-MISSING-CAP-32021",
    MRTR_NO_UNDECLARED = "MRTR-NO-UNDECLARED",
    // -- end mu1 --
    // -- end h4 --
    // H2: tools, resources, prompts (what a server publishes and answers)
    TOOLS_VALIDATE_INPUTS = "TOOLS-VALIDATE-INPUTS",
    RES_BINARY = "RES-BINARY",
    PROMPTS_MEDIA_B64 = "PROMPTS-MEDIA-B64",
    PROMPTS_EMBEDDED = "PROMPTS-EMBEDDED",
    RES_TRAVERSAL = "RES-TRAVERSAL",
    RES_NO_EMPTY_CONTENTS = "RES-NO-EMPTY-CONTENTS",
    PROMPTS_VALIDATE_ARGS = "PROMPTS-VALIDATE-ARGS",
    TOOLS_NAMES = "TOOLS-NAMES",
    // SHOULD-level rules (issue 23, sh)
    SCHEMA_2020_12 = "BASE-SCHEMA-2020-12",
    COMPL_ERRORS = "COMPL-ERRORS",
    MRTR_VALIDATE_INPUTS = "MRTR-VALIDATE-INPUTS",
    MRTR_IGNORE_EXTRA = "MRTR-IGNORE-EXTRA",
    INFO_NOT_BEHAVIOR = "BASE-INFO-NOT-BEHAVIOR",
    TOOLS_EMBEDDED_RESCAP = "TOOLS-EMBEDDED-RESCAP",
    // issue 23 (mu2): rules observable but not judged until then
    PARAM_PATH = "SHTTP-PARAM-PATH",
    VER_EXT_FALLBACK = "VER-EXT-FALLBACK",
    // H3: pagination, caching across pages, completion and logging (issue 23)
    PAGE_INVALID_CURSOR = "PAGE-INVALID-CURSOR",
    PAGE_STABLE = "PAGE-STABLE",
    CACHE_SCOPE_PAGES = "CACHE-SCOPE-PAGES",
    COMPL_CAP_DECLARE = "COMPL-CAP-DECLARE",
    LOG_CAP_DECLARE = "LOG-CAP-DECLARE",
    LOG_INVALID_LEVEL = "LOG-INVALID-LEVEL",
}

/// The client rules (`CLIENT-*`), emitted by `client_judge` on what a client SDK sent. Kept
/// apart from [`JUDGED_IDS`] (the server judge's ids, each with a server probe).
pub mod client {
    use super::RuleId;

    macro_rules! client_ids {
        ($($name:ident = $id:literal,)*) => {
            $(pub const $name: RuleId = RuleId($id);)*
            /// Every id the client judge can emit.
            pub const CLIENT_JUDGED_IDS: &[RuleId] = &[$($name),*];
        };
    }

    client_ids! {
        TOOL_EXCLUDE = "CLIENT-TOOL-EXCLUDE",
        TOOL_KEEP_VALID = "CLIENT-TOOL-KEEP-VALID",
        PARAM_INCLUDE = "CLIENT-PARAM-INCLUDE",
        PARAM_NULL_OMIT = "CLIENT-PARAM-NULL-OMIT",
        PARAM_ABSENT_OMIT = "CLIENT-PARAM-ABSENT-OMIT",
        PARAM_MIRROR = "CLIENT-PARAM-MIRROR",
        INT_DECIMAL = "CLIENT-INT-DECIMAL",
        BOOL_LOWER = "CLIENT-BOOL-LOWER",
        B64_REQUIRED = "CLIENT-B64-REQUIRED",
        B64_FORMAT = "CLIENT-B64-FORMAT",
        B64_MARKERS = "CLIENT-B64-MARKERS",
        B64_COLLISION = "CLIENT-B64-COLLISION",
        HDR_METHOD = "CLIENT-HDR-METHOD",
        HDR_NAME = "CLIENT-HDR-NAME",
        NAME_B64 = "CLIENT-NAME-B64",
        PV_PRESENT = "CLIENT-PV-PRESENT",
        PV_MATCH = "CLIENT-PV-MATCH",
        ACCEPT = "CLIENT-ACCEPT",
        MISMATCH_RETRY = "CLIENT-MISMATCH-RETRY",
    }
}

/// The authorization rules (`AUTH-*`), judged on protected targets by the authorization
/// probe family (`crate::auth`), not by `judge`: kept apart from [`JUDGED_IDS`] like the
/// client ids.
pub mod auth {
    use super::RuleId;

    macro_rules! auth_ids {
        ($($name:ident = $id:literal,)*) => {
            $(pub const $name: RuleId = RuleId($id);)*
            /// Every id the authorization judge can emit.
            pub const AUTH_JUDGED_IDS: &[RuleId] = &[$($name),*];
        };
    }

    auth_ids! {
        PRM = "AUTH-PRM",
        PRM_AS = "AUTH-PRM-AS",
        DISCOVERY = "AUTH-DISCOVERY",
        STATUS = "AUTH-STATUS",
        INVALID_401 = "AUTH-INVALID-401",
        AUDIENCE = "AUTH-AUDIENCE",
        QUERY = "AUTH-QUERY",
        NO_DATA = "AUTH-NO-DATA",
        SCOPE = "AUTH-SCOPE",
        OFFLINE_ACCESS = "AUTH-OFFLINE-ACCESS",
        CHALLENGE_401 = "AUTH-401-CHALLENGE",
        OWN_TOKENS = "AUTH-OWN-TOKENS",
    }
}

/// The connection rules, judged by the runner on requests sent on fresh and on reused
/// connections (`crate::reuse`, `crate::list_stable`), not by `judge` (no single request shows them): kept
/// apart from [`JUDGED_IDS`] like the client and authorization ids.
pub mod connection {
    use super::RuleId;

    macro_rules! connection_ids {
        ($($name:ident = $id:literal,)*) => {
            $(pub const $name: RuleId = RuleId($id);)*
            /// Every id the connection judge can emit.
            pub const CONNECTION_JUDGED_IDS: &[RuleId] = &[$($name),*];
        };
    }

    connection_ids! {
        STATELESS_NO_PRIOR = "BASE-STATELESS-NO-PRIOR",
        TOOLS_LIST_STABLE = "TOOLS-LIST-STABLE",
        RES_LIST_STABLE = "RES-LIST-STABLE",
        PROMPTS_LIST_STABLE = "PROMPTS-LIST-STABLE",
    }
}
