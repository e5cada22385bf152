//! The mutant table: one row per mutant, carrying its name, the rule it breaks, what it does
//! wrong and its behaviour. Each row is also a constant (`ORIGIN_UNCHECKED`), the handle code
//! uses to name one mutant.
//!
//! Every judged rule has a mutant.

use super::super::auth::AuthChange;
use super::super::render_canonical;
use super::Behaviour::{Answer, Auth, OnSurface, Render, Request};
use super::{
    answer, content, extension, pages, request, request_headers, request_params, shape, shape_gaps,
    should, stream, Mutant,
};
use crate::rules;

/// Declares each row once: as the constant named on its left and as an element of the table
/// (and, for the tests, the constant's name beside the mutant's in `$handles`).
macro_rules! table {
    (
        $(#[$meta:meta])*
        static $table:ident (handles: $handles:ident) = [
            $($id:ident = $name:literal, $rule:expr, $description:literal, $behaviour:expr;)*
        ];
    ) => {
        $(
            #[doc = concat!("`", $name, "`: ", $description, ".")]
            pub const $id: Mutant = Mutant {
                name: $name,
                rule: $rule,
                description: $description,
                behaviour: $behaviour,
            };
        )*
        $(#[$meta])*
        pub static $table: &[Mutant] = &[$($id),*];
        #[cfg(test)]
        pub(super) static $handles: &[(&str, &str)] = &[$((stringify!($id), $name)),*];
    };
}

table! {
    /// Every mutant, grouped by the part of the spec it breaks.
    static MUTANTS (handles: MUTANT_HANDLES) = [
        // endpoint, origin, notifications, content types, SSE
        LIST_REFUSED = "list-refused", rules::EP_POST,
            "answers resources/templates/list with 500 / -32603 instead of a result",
            Answer(answer::list_refused);
        ORIGIN_UNCHECKED = "origin-unchecked", rules::ORIGIN_403,
            "never looks at Origin on POST: a foreign origin is served",
            Request(request::origin_unchecked);
        ORIGIN_POST_ONLY = "origin-post-only", rules::ORIGIN_VALIDATE,
            "validates Origin on POST only: a GET or DELETE from a foreign origin gets 405",
            Request(request::origin_checked_on_post_only);
        NOTIF_BODY_ON_202 = "notif-body-on-202", rules::NOTIF_202,
            "answers notifications 202 with a `{}` body",
            Answer(answer::notif_body_on_202);
        NOTIF_ANSWERED = "notif-answered", rules::NOTIF_NO_RESPONSE,
            "answers notifications 400 with an error carrying id 0",
            Answer(answer::notif_answered);
        NOTIF_REDIRECTED = "notif-redirected", rules::NOTIF_REJECT,
            "answers notifications 307 with a Location instead of 202 or an error status",
            Answer(answer::notif_redirected);
        RESULT_TEXT_PLAIN = "result-text-plain", rules::REQ_CT,
            "labels JSON answers `Content-Type: text/plain`",
            Answer(answer::result_text_plain);
        SSE_SERVER_REQUEST = "sse-server-request", rules::SSE_NO_REQUESTS,
            "sends a `ping` request on response streams",
            Answer(answer::sse_server_request);
        NO_X_ACCEL = "no-x-accel", rules::SSE_XACCEL,
            "omits `X-Accel-Buffering: no` on SSE answers",
            Answer(answer::no_x_accel);
        // protocol version
        PV_MISMATCH_UNCHECKED = "pv-mismatch-unchecked", rules::PV_MISMATCH,
            "believes the MCP-Protocol-Version header over _meta",
            Request(request::pv_mismatch_unchecked);
        PV_ANY_VERSION = "pv-any-version", rules::PV_UNSUPPORTED,
            "serves any protocol version the client names",
            Request(request::pv_any_version);
        INIT_VERSIONS_UNNAMED = "init-versions-unnamed", rules::VER_INIT_NAMES,
            "refuses a legacy `initialize` without naming the protocol versions it supports",
            Render(render_canonical);
        PV_MISSING_DEFAULT = "pv-missing-default", rules::PV_MISSING,
            "treats a missing MCP-Protocol-Version as the _meta version",
            Request(request::pv_missing_default);
        // methods
        UNKNOWN_METHOD_400 = "unknown-method-400", rules::METHOD_404,
            "answers -32601 with HTTP 400 instead of 404",
            Answer(answer::unknown_method_400);
        NO_DISCOVER = "no-discover", rules::VER_DISCOVER,
            "does not implement server/discover (404 / -32601)",
            Answer(answer::no_discover);
        NO_LISTEN = "no-listen", rules::BASE_ALL_SUPPORT,
            "does not implement subscriptions/listen (404 / -32601)",
            Answer(answer::no_listen);
        UNKNOWN_TOOL_IS_ERROR = "unknown-tool-is-error", rules::TOOLS_UNKNOWN,
            "answers an unknown tool with an isError result, not -32602",
            Answer(answer::unknown_tool_is_error);
        UNKNOWN_RESOURCE_EMPTY = "unknown-resource-empty", rules::RES_NO_EMPTY_CONTENTS,
            "answers an unknown resource with empty contents",
            Answer(answer::unknown_resource_empty);
        UNKNOWN_RESOURCE_32603 = "unknown-resource-32603", rules::RES_NOTFOUND,
            "answers a read of an unknown resource -32603 instead of -32602",
            Answer(answer::unknown_resource_32603);
        UNKNOWN_PROMPT_EMPTY = "unknown-prompt-empty", rules::PROMPTS_ERRORS,
            "answers an unknown prompt with an empty message list",
            Answer(answer::unknown_prompt_empty);
        META_UNCHECKED = "meta-unchecked", rules::META_REQUIRED,
            "fills in missing _meta protocol fields instead of refusing",
            Request(request::meta_unchecked);
        // standard headers
        MCP_METHOD_PREFIX = "mcp-method-prefix", rules::HDR_MISMATCH,
            "compares Mcp-Method by namespace only (tools/list = tools/call)",
            Request(request_headers::mcp_method_prefix);
        HDR_ERR_32602 = "hdr-err-32602", rules::HDR_ERR,
            "refuses standard-header mismatches with -32602 instead of -32020",
            Answer(answer::hdr_err_32602);
        MCP_NAME_OPTIONAL = "mcp-name-optional", rules::HDR_MISSING,
            "accepts a request without its Mcp-Name header",
            Request(request_headers::mcp_name_optional);
        HDR_NON_ASCII_STRIPPED = "hdr-non-ascii-stripped", rules::HDR_INVALID_CHARS,
            "drops non-ASCII bytes from standard headers before comparing",
            Request(request_headers::hdr_non_ascii_stripped);
        HDR_CHARS_UNCHECKED = "hdr-chars-unchecked", rules::HDR_INVALID_CHARS,
            "skips the invalid-character check on Mcp-Name, comparing its bytes read as UTF-8",
            Request(request_headers::hdr_chars_unchecked);
        HDR_LATIN1 = "hdr-latin1", rules::HDR_INVALID_CHARS,
            "reads Mcp-Name as ISO-8859-1 (`caf\\xE9` matches `café`), no character check",
            Request(request_headers::hdr_latin1);
        HEADER_NAMES_CASE_SENSITIVE = "header-names-case-sensitive", rules::HDR_NAME_CI,
            "only recognizes canonically-cased header names",
            Request(request_headers::header_names_case_sensitive);
        MCP_NAME_CASE_INSENSITIVE = "mcp-name-case-insensitive", rules::HDR_VALUE_CASE,
            "compares Mcp-Name ignoring ASCII case",
            Request(request_headers::mcp_name_case_insensitive);
        OWS_NOT_TRIMMED = "ows-not-trimmed", rules::HDR_OWS,
            "refuses mirrored header values padded with spaces or tabs",
            Request(request_headers::ows_not_trimmed);
        MCP_NAME_FROM_NAME = "mcp-name-from-name", rules::HDR_MN_SOURCE,
            "compares Mcp-Name of resources/read with params.name, not params.uri",
            Answer(answer::mcp_name_from_name);
        // Mcp-Param headers and value encoding
        PARAM_INT_UNCHECKED = "param-int-unchecked", rules::PARAM_VALIDATE,
            "accepts any integer in an integer Mcp-Param header",
            Request(request_params::param_int_unchecked);
        PARAM_ERR_32602 = "param-err-32602", rules::PARAM_ERR,
            "refuses Mcp-Param mismatches with -32602 instead of -32020",
            Answer(answer::param_err_32602);
        PARAM_NON_ASCII_STRIPPED = "param-non-ascii-stripped", rules::PARAM_INVALID_CHARS,
            "drops non-ASCII bytes from Mcp-Param headers before comparing",
            Request(request_params::param_non_ascii_stripped);
        PARAM_CHARS_UNCHECKED = "param-chars-unchecked", rules::PARAM_INVALID_CHARS,
            "skips the invalid-character check on Mcp-Param headers, comparing bytes read as UTF-8",
            Request(request_params::param_chars_unchecked);
        PARAM_LATIN1 = "param-latin1", rules::PARAM_INVALID_CHARS,
            "reads Mcp-Param headers as ISO-8859-1 (`caf\\xE9` matches `café`), no character check",
            Request(request_params::param_latin1);
        PARAM_OPTIONAL = "param-optional", rules::PARAM_OMITTED,
            "accepts a call whose Mcp-Param header is missing",
            Request(request_params::param_optional);
        PARAM_NULL_EXPECTED = "param-null-expected", rules::PARAM_NULL,
            "demands Mcp-Param headers for null arguments",
            Request(request_params::param_null_expected);
        PARAM_ABSENT_EXPECTED = "param-absent-expected", rules::PARAM_ABSENT,
            "demands Mcp-Param-Region even when region is absent",
            Request(request_params::param_absent_expected);
        PARAM_WRONG_PATH = "param-wrong-path", rules::PARAM_PATH,
            "reads Mcp-Param-TargetRegion at the top-level `region`, not at `target.region`",
            Request(request_params::param_wrong_path);
        NO_BASE64_DECODE = "no-base64-decode", rules::B64_DECODE,
            "compares Base64 sentinels without decoding them",
            Request(request_params::no_base64_decode);
        BASE64_MARKERS_STRIPPED = "base64-markers-stripped", rules::B64_MARKERS,
            "strips `=?`/`?=` from plain values before comparing",
            Request(request_params::base64_markers_stripped);
        BASE64_MARKERS_ANY_CASE = "base64-markers-any-case", rules::B64_MARKERS,
            "reads `=?BASE64?...?=` markers in any case as the sentinel",
            Request(request_params::base64_markers_any_case);
        BASE64_MALFORMED_IGNORED = "base64-malformed-ignored", rules::B64_MALFORMED,
            "skips validation of headers whose sentinel does not decode",
            Request(request_params::base64_malformed_ignored);
        BASE64_METHOD_DECODED = "base64-method-decoded", rules::B64_ONLY_NAME_PARAM,
            "decodes a Base64 sentinel in Mcp-Method",
            Request(request_headers::base64_method_decoded);
        INT_STRING_COMPARE = "int-string-compare", rules::INT_NUMERIC,
            "compares integer Mcp-Param values as strings",
            Request(request_params::int_string_compare);
        BOOL_CASE_INSENSITIVE = "bool-case-insensitive", rules::BOOL_LOWER,
            "compares boolean Mcp-Param values ignoring case",
            Request(request_params::bool_case_insensitive);
        // backwards compatibility
        GET_200 = "get-200", rules::BC_GET_DELETE,
            "answers GET with 200 `{}` instead of 405",
            Answer(answer::get_200);
        NO_ALLOW_405 = "405-no-allow", rules::BC_GET_DELETE,
            "answers 405 without an Allow header",
            Answer(answer::no_allow_405);
        SESSION_ID_HEADER = "session-id-header", rules::BC_SESSION,
            "sends an Mcp-Session-Id header",
            Answer(answer::session_id_header);
        SESSION_ID_REJECTED = "session-id-rejected", rules::BC_SESSION,
            "refuses requests that carry Mcp-Session-Id",
            Request(request::session_id_rejected);
        LAST_EVENT_ID_REJECTED = "last-event-id-rejected", rules::BC_LAST_EVENT_ID,
            "refuses requests that carry Last-Event-ID",
            Request(request::last_event_id_rejected);
        // JSON-RPC shape
        RESULT_ID_STRING = "result-id-string", rules::RESULT_ID,
            "echoes integer request ids as strings on results",
            Answer(answer::result_id_string);
        NO_RESULT_TYPE = "no-result-type", rules::RESULTTYPE,
            "omits resultType from results",
            Answer(answer::no_result_type);
        ERROR_ID_NULL = "error-id-null", rules::ERROR_ID,
            "answers errors with `id: null` even when the id was readable",
            Answer(answer::error_id_null);
        ERROR_ID_NULL_MALFORMED = "error-id-null-malformed", rules::ERROR_ID,
            "answers `id: null` to a malformed request whose id it read",
            Answer(answer::error_id_null_malformed);
        ERROR_NO_MESSAGE = "error-no-message", rules::ERROR_SHAPE,
            "omits `message` from error objects",
            Answer(answer::error_no_message);
        LEGACY_CODE_32000 = "legacy-code-32000", rules::ERRCODE_LEGACY,
            "uses -32000 in place of -32700 for parse errors",
            Answer(answer::legacy_code_32000);
        RESERVED_CODE_32050 = "reserved-code-32050", rules::ERRCODE_RESERVED,
            "uses the undefined reserved code -32050 for parse errors",
            Answer(answer::reserved_code_32050);
        // -32002 also lies in the legacy range -32019..-32000, so this one breaks the SHOULD NOT
        // BASE-ERRCODE-LEGACY too; the other retired code, -32042, would instead break the MUST NOT
        // on undefined reserved codes.
        RETIRED_CODE_32002 = "retired-code-32002", rules::ERRCODE_RETIRED,
            "uses the retired code -32002 for parse errors",
            Answer(answer::retired_code_32002);
        SERVERINFO_DROPPED = "serverinfo-dropped", rules::SERVERINFO,
            "omits _meta serverInfo from results other than server/discover's",
            Answer(answer::serverinfo_dropped);
        // what travels on SSE streams
        SSE_LEFT_OPEN = "sse-left-open", rules::SSE_FINAL_TERMINATES,
            "keeps a request's SSE stream open after the final response",
            Answer(stream::sse_left_open);
        SSE_FOREIGN_ACK = "sse-foreign-ack", rules::SSE_NOTIF_RELATED,
            "sends a subscription acknowledgement on a request's SSE stream",
            Answer(stream::sse_foreign_ack);
        PROGRESS_FOREIGN_TOKEN = "progress-foreign-token", rules::PROG_TOKEN_ONLY,
            "sends progress for a token the request did not give",
            Answer(stream::progress_foreign_token);
        PROGRESS_REPEATED = "progress-repeated", rules::PROG_INCREASING,
            "repeats its last progress value",
            Answer(stream::progress_repeated);
        PROGRESS_AFTER_RESPONSE = "progress-after-response", rules::PROG_STOP,
            "sends one more progress notification after the final response",
            Answer(stream::progress_after_response);
        LOG_WITHOUT_LEVEL = "log-without-level", rules::LOG_NO_LEVEL,
            "logs on the stream of a request that asked for no log level",
            Answer(stream::log_without_level);
        LOG_ON_LISTEN = "log-on-listen", rules::LOG_NOT_ON_LISTEN,
            "sends a notifications/message on subscriptions/listen streams",
            Answer(stream::log_on_listen);
        CANCEL_ON_REQUEST_STREAM = "cancel-on-request-stream", rules::CANCEL_ONLY_LISTEN,
            "sends notifications/cancelled for the request on its own stream",
            Answer(stream::cancel_on_request_stream);
        ACK_WITHOUT_SUBSCRIPTION_ID = "ack-without-subscription-id", rules::SUB_ACK_FIRST,
            "acknowledges a subscription without its id in _meta",
            Answer(stream::ack_without_subscription_id);
        NOTIFICATION_BEFORE_ACK = "notification-before-ack", rules::SUB_NO_NOTIF_BEFORE_ACK,
            "sends a tools/list_changed on a listen stream before its acknowledgement",
            Answer(stream::notification_before_ack);
        LISTEN_NOTIFICATION_WITHOUT_ID = "listen-notification-without-id", rules::LISTEN_SUBID,
            "sends a tools/list_changed on a listen stream without the subscription id",
            Answer(stream::listen_notification_without_id);
        // H1: streams and cancellation (issue 23)
        LISTEN_UNREQUESTED_TYPE = "listen-unrequested-type", rules::SUB_FILTER,
            "sends a list_changed of a type the listen filter did not ask for",
            Answer(stream::listen_unrequested_type);
        LISTEN_CANCELLED_ABRUPTLY = "listen-cancelled-abruptly", rules::SUB_GRACEFUL,
            "ends listen streams with notifications/cancelled but no completion result",
            Answer(stream::listen_cancelled_abruptly);
        // content: what the results publish (`crate::content`)
        DISCOVER_NO_VERSIONS = "discover-no-versions", rules::DISC_SHAPE,
            "answers server/discover without supportedVersions",
            Answer(content::discover_no_versions);
        DISCOVER_NO_SERVERINFO = "discover-no-serverinfo", rules::DISC_SERVERINFO,
            "omits _meta serverInfo from the server/discover result",
            Answer(content::discover_no_serverinfo);
        NO_CACHE_HINTS = "no-cache-hints", rules::CACHE_HINTS,
            "omits ttlMs and cacheScope from cacheable results",
            Answer(content::no_cache_hints);
        NEGATIVE_TTL = "negative-ttl", rules::CACHE_TTL_NONNEG,
            "sends ttlMs -1 on cacheable results",
            Answer(content::negative_ttl);
        DISCOVER_NO_TOOLS_CAP = "discover-no-tools-cap", rules::TOOLS_CAP_DECLARE,
            "lists tools but declares no tools capability in server/discover",
            Answer(content::discover_no_tools_cap);
        DISCOVER_NO_RESOURCES_CAP = "discover-no-resources-cap", rules::RES_CAP_DECLARE,
            "lists resources but declares no resources capability in server/discover",
            Answer(content::discover_no_resources_cap);
        DISCOVER_NO_PROMPTS_CAP = "discover-no-prompts-cap", rules::PROMPTS_CAP_DECLARE,
            "lists prompts but declares no prompts capability in server/discover",
            Answer(content::discover_no_prompts_cap);
        TOOLS_LIST_UNNAMED = "tools-list-unnamed", rules::TOOLS_LIST_RESPOND,
            "answers tools/list with tools that carry no name",
            Answer(content::tools_list_unnamed);
        RESOURCES_LIST_MISSING = "resources-list-missing", rules::RES_LIST_RESPOND,
            "answers resources/list without the resources member",
            Answer(content::resources_list_missing);
        PROMPTS_LIST_NULL = "prompts-list-null", rules::PROMPTS_LIST_RESPOND,
            "answers prompts/list with `prompts: null`",
            Answer(content::prompts_list_null);
        TOOL_SCHEMA_NULL = "tool-schema-null", rules::TOOLS_INPUTSCHEMA_VALID,
            "publishes its first tool with `inputSchema: null`",
            Answer(content::tool_schema_null);
        STRUCTURED_NONCONFORMING = "structured-nonconforming", rules::TOOLS_OUTPUT_CONFORM,
            "returns structuredContent without the `arguments` its outputSchema requires",
            Answer(content::structured_nonconforming);
        STRUCTURED_NO_TEXT = "structured-no-text", rules::TOOLS_STRUCTURED_TEXT,
            "returns structuredContent with a text block that is not its serialized JSON",
            Answer(content::structured_no_text);
        RESOURCE_URI_UNENCODED = "resource-uri-unencoded", rules::RES_URI_RFC3986,
            "lists a resource whose custom-scheme URI holds an unencoded space",
            Answer(content::resource_uri_unencoded);
        TOOLS_ORDER_BY_ID = "tools-order-by-id", rules::TOOLS_ORDER,
            "rotates its tools/list by the request id (a different order per request)",
            Answer(content::tools_order_by_id);
        // H2: tools, resources, prompts
        TOOL_INPUTS_UNCHECKED = "tool-inputs-unchecked", rules::TOOLS_VALIDATE_INPUTS,
            "serves tool calls whose arguments break the tool's inputSchema",
            Render(content::render_unvalidated);
        RESOURCE_BLOB_NOT_BASE64 = "resource-blob-not-base64", rules::RES_BINARY,
            "answers resources/read of a binary resource with a hex blob, not Base64",
            Answer(content::resource_blob_not_base64);
        PROMPT_IMAGE_NOT_BASE64 = "prompt-image-not-base64", rules::PROMPTS_MEDIA_B64,
            "puts a data: URL in a prompt image's data instead of Base64",
            Answer(content::prompt_image_not_base64);
        PROMPT_EMBEDDED_NO_MIME = "prompt-embedded-no-mime", rules::PROMPTS_EMBEDDED,
            "embeds a resource in a prompt without its mimeType",
            Answer(content::prompt_embedded_no_mime);
        PROMPT_ARGS_UNCHECKED = "prompt-args-unchecked", rules::PROMPTS_VALIDATE_ARGS,
            "serves prompts/get with arguments that are not strings, ignoring them",
            Request(content::prompt_args_unchecked);
        TOOL_NAME_WITH_SPACE = "tool-name-with-space", rules::TOOLS_NAMES,
            "lists get_weather as `get weather` in tools/list",
            Answer(content::tool_name_with_space);
        TRAVERSAL_SERVED = "traversal-served", rules::RES_TRAVERSAL,
            "serves file:// reads whose path climbs out with `..` segments",
            Request(content::traversal_served);
        PUBLISHES_INVALID_TOOL = "publishes-invalid-tool", rules::TOOLS_XMCP_CONSTRAINTS,
            "lists a tool whose x-mcp-header is empty in tools/list",
            Answer(answer::publishes_invalid_tool);
        // repeated mirrored fields (D-09)
        REPEATED_NAME_FIRST_COPY = "repeated-name-first-copy", rules::HDR_MISMATCH,
            "compares only the first copy of a repeated Mcp-Method or Mcp-Name",
            Request(request_headers::repeated_name_first_copy);
        REPEATED_VERSION_FIRST_COPY = "repeated-version-first-copy", rules::PV_MISMATCH,
            "checks only the first copy of a repeated MCP-Protocol-Version",
            Request(request_headers::repeated_version_first_copy);
        REPEATED_PARAM_FIRST_COPY = "repeated-param-first-copy", rules::PARAM_VALIDATE,
            "compares only the first copy of a repeated Mcp-Param header",
            Request(request_headers::repeated_param_first_copy);
        // base-protocol shape and multi-round requests (`crate::shape`; issue 23, h4)
        ERROR_CODE_STRING = "error-code-string", rules::ERROR_INT,
            "sends the parse-error code as the string \"-32700\"",
            Answer(shape::error_code_string);
        RESERVED_CODE_32500 = "reserved-code-32500", rules::ERRCODE_APP_RANGE,
            "uses -32500, inside the JSON-RPC reserved range, for parse errors",
            Answer(shape::reserved_code_32500);
        META_KEY_MALFORMED = "meta-key-malformed", rules::META_KEYS,
            "adds the malformed key `example..com/trace id` to every result's _meta",
            Answer(shape::meta_key_malformed);
        TRACEPARENT_MALFORMED = "traceparent-malformed", rules::TRACE_FORMAT,
            "adds `traceparent: trace-1234` to every result's _meta",
            Answer(shape::traceparent_malformed);
        RESULT_TYPE_UNKNOWN = "result-type-unknown", rules::RESULTTYPE_SET,
            "answers prompts/list with resultType \"partial\" while advertising no extension",
            Answer(shape::result_type_unknown);
        INPUT_REQUIRED_ON_LIST = "input-required-on-list", rules::MRTR_ONLY_SUPPORTED,
            "answers prompts/list with an InputRequiredResult",
            Answer(shape::input_required_on_list);
        INPUT_REQUIRED_BARE = "input-required-bare", rules::MRTR_ATLEASTONE,
            "answers tools/call with an InputRequiredResult carrying neither inputRequests nor requestState",
            Answer(shape::input_required_bare);
        INPUT_REQUEST_PING = "input-request-ping", rules::MRTR_VALUE_TYPES,
            "answers tools/call with an InputRequiredResult whose inputRequests holds a ping",
            Answer(shape::input_request_ping);
        NOTIFICATION_WITH_ID = "notification-with-id", rules::NOTIF_NO_ID,
            "gives every notification on its SSE streams an id",
            Answer(shape::notification_with_id);
        EXTENSION_ID_UNPREFIXED = "extension-id-unprefixed", rules::VER_EXT_IDS,
            "advertises the extension `tasks` (no prefix) in server/discover",
            Answer(shape::extension_id_unprefixed);
        EXTENSION_NOT_REVERTED = "extension-not-reverted", rules::VER_EXT_FALLBACK,
            "advertises an extension and answers tools/call with its resultType \"deferred\" to a client that declared none",
            Request(extension::extension_not_reverted);
        JSONRPC_VERSION_DROPPED = "jsonrpc-version-dropped", rules::JSONRPC,
            "omits the `jsonrpc` member from its result responses",
            Answer(shape::jsonrpc_version_dropped);
        // -- end h4 --
        // the remaining shape rules of issue 23 (mu1)
        RESULT_MEMBER_DROPPED = "result-member-dropped", rules::RESULT_FIELD,
            "answers resources/templates/list with a response carrying neither result nor error",
            Answer(shape_gaps::result_member_dropped);
        INPUT_KEYS_REPEATED = "input-keys-repeated", rules::MRTR_KEYS_UNIQUE,
            "answers a get_weather call declaring roots with inputRequests naming one key twice",
            Answer(shape_gaps::input_keys_repeated);
        MISSING_CAP_DECLARED = "missing-cap-declared", rules::ERRCODE_MEANING,
            "refuses a get_weather call declaring elicitation with 400/-32021 requiring elicitation",
            Answer(shape_gaps::missing_cap_declared);
        MISSING_CAP_LISTED_NONE = "missing-cap-listed-none", rules::MISSING_CAP,
            "refuses a get_weather call declaring sampling with 400/-32021 whose requiredCapabilities is empty",
            Answer(shape_gaps::missing_cap_listed_none);
        INPUT_REQUEST_UNDECLARED = "input-request-undeclared", rules::MRTR_NO_UNDECLARED,
            "asks a get_weather call declaring only roots for an elicitation/create",
            Answer(shape_gaps::input_request_undeclared);
        // -- end mu1 --
        // SHOULD-level rules (issue 23, sh)
        SCHEMA_DRAFT_07 = "schema-draft-07", rules::SCHEMA_2020_12,
            "declares draft-07 by `$schema` in get_weather's inputSchema in tools/list",
            Answer(should::schema_draft_07);
        COMPLETION_UNKNOWN_PROMPT_SERVED = "completion-unknown-prompt-served", rules::COMPL_ERRORS,
            "serves completion/complete for a prompt it does not have with an empty completion",
            Request(should::completion_unknown_prompt_served);
        INPUT_RESPONSES_UNCHECKED = "input-responses-unchecked", rules::MRTR_VALIDATE_INPUTS,
            "serves a request whose inputResponses is no object, ignoring it",
            Request(should::input_responses_unchecked);
        INPUT_RESPONSES_EXTRA_REFUSED = "input-responses-extra-refused", rules::MRTR_IGNORE_EXTRA,
            "refuses -32602 a request whose inputResponses holds entries it never asked for",
            Request(should::input_responses_extra_refused);
        CLIENT_INFO_GATED = "client-info-gated", rules::INFO_NOT_BEHAVIOR,
            "refuses 400 / -32600 requests whose clientInfo names a client other than mcpdiff",
            Request(should::client_info_gated);
        EMBEDDED_WITHOUT_RESOURCES = "embedded-without-resources", rules::TOOLS_EMBEDDED_RESCAP,
            "declares and serves no resources, yet embeds a resource in every tool result",
            OnSurface(crate::fixture::without_resources, should::embedded_without_resources);
        // H3: pagination, caching across pages, completion, logging (issue 23)
        CURSOR_UNCHECKED = "cursor-unchecked", rules::PAGE_INVALID_CURSOR,
            "serves the first page for a list cursor it never issued",
            Request(pages::cursor_unchecked);
        CURSORS_REFUSED = "cursors-refused", rules::PAGE_STABLE,
            "issues nextCursor but refuses every cursor with -32602 (serve --page-size)",
            Answer(pages::cursors_refused);
        PAGE_SCOPE_PRIVATE = "page-scope-private", rules::CACHE_SCOPE_PAGES,
            "marks every page after the first cacheScope private (serve --page-size)",
            Answer(pages::page_scope_private);
        COMPLETIONS_UNDECLARED = "completions-undeclared", rules::COMPL_CAP_DECLARE,
            "answers completion/complete but leaves completions out of server/discover",
            Answer(pages::completions_undeclared);
        LOG_UNDECLARED = "log-undeclared", rules::LOG_CAP_DECLARE,
            "logs on the stream of a request that set a log level, declaring no logging",
            Answer(pages::log_undeclared);
        LOG_LEVEL_UNCHECKED = "log-level-unchecked", rules::LOG_INVALID_LEVEL,
            "serves a request whose log level is not one of the eight, ignoring it",
            Request(pages::log_level_unchecked);
        LOG_BELOW_LEVEL = "log-below-level", rules::LOG_LEVEL_THRESHOLD,
            "declares logging, and logs a level below the one a request asked for",
            OnSurface(crate::fixture::with_logging, stream::log_below_level);
    ];
}

table! {
    /// The mutants of the protected reference (`serve --auth TOKEN --mutant NAME`), one per
    /// `AUTH-*` rule (`reference::auth` applies their [`AuthChange`]). Without `--auth` they
    /// answer like the reference; they are kept out of [`MUTANTS`], whose mutants break rules
    /// of `judge`.
    static AUTH_MUTANTS (handles: AUTH_HANDLES) = [
        AUTH_MISSING_403 = "auth-missing-403", rules::auth::STATUS,
            "answers a request without credentials 403 instead of 401",
            Auth(AuthChange::MissingIs403);
        AUTH_INVALID_403 = "auth-invalid-403", rules::auth::INVALID_401,
            "answers an unknown or foreign bearer token 403 instead of 401",
            Auth(AuthChange::InvalidIs403);
        AUTH_AUDIENCE_UNCHECKED = "auth-audience-unchecked", rules::auth::AUDIENCE,
            "accepts a token its authorization server issued for another audience",
            Auth(AuthChange::AudienceUnchecked);
        AUTH_QUERY_TOKEN = "auth-query-token", rules::auth::QUERY,
            "accepts the token in the access_token query parameter",
            Auth(AuthChange::QueryToken);
        AUTH_SCHEME_UNCHECKED = "auth-scheme-unchecked", rules::auth::NO_DATA,
            "accepts the token under any scheme (Basic TOKEN)",
            Auth(AuthChange::SchemeUnchecked);
        AUTH_NO_SCOPE = "auth-no-scope", rules::auth::SCOPE,
            "challenges without a scope parameter",
            Auth(AuthChange::NoScope);
        AUTH_OFFLINE_ACCESS = "auth-offline-access", rules::auth::OFFLINE_ACCESS,
            "challenges for offline_access and lists it in scopes_supported",
            Auth(AuthChange::OfflineAccess);
        AUTH_NO_METADATA = "auth-no-metadata", rules::auth::DISCOVERY,
            "names no resource_metadata and serves no well-known metadata",
            Auth(AuthChange::NoMetadata);
        AUTH_RESOURCE_FOREIGN = "auth-resource-foreign", rules::auth::PRM,
            "its metadata names another resource",
            Auth(AuthChange::ResourceForeign);
        AUTH_NO_AUTHORIZATION_SERVERS = "auth-no-authorization-servers", rules::auth::PRM_AS,
            "its metadata lists no authorization server",
            Auth(AuthChange::NoAuthorizationServers);
        AUTH_NO_CHALLENGE = "auth-no-challenge", rules::auth::CHALLENGE_401,
            "answers 401 without a WWW-Authenticate header field",
            Auth(AuthChange::NoChallenge);
        AUTH_UNSIGNED_ACCEPTED = "auth-unsigned-accepted", rules::auth::OWN_TOKENS,
            "accepts an unsigned JWT (alg none) whose aud names it, without validating it",
            Auth(AuthChange::UnsignedAccepted);
    ];
}
