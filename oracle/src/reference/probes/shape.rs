//! Carriers of the base-protocol shape rules (`crate::shape`; issue 23): a parse error for
//! the error-code lints, conformant requests whose results and streams the `_meta`, trace,
//! `resultType` and `InputRequiredResult` lints read, and `server/discover` for the
//! extension identifiers; a call from a client without extensions for the extension fallback
//! (judged against `fixture::extension_surface`). Each lint decides every answer of its kind,
//! so a carrier only has to make the reference answer with one.

use super::{call, weather_call, with_meta, Probe};
use crate::case::{Case, META_CLIENT_CAPABILITIES};
use crate::fixture::{PLAIN_TOOL, STREAM_TOOL};
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use serde_json::json;

pub(super) fn shape_probes(s: &Surface) -> Vec<Probe> {
    let mut out = Vec::new();
    let mut add = |rule: RuleId, case: Case| out.push(Probe { rule, case });
    let parse_error = Case::post(
        &s.endpoint,
        &[
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
        b"{\"jsonrpc\": \"2.0\", \"id\": 2, ".to_vec(),
    );
    add(rules::ERROR_INT, parse_error.clone());
    add(rules::ERRCODE_APP_RANGE, parse_error);
    add(rules::JSONRPC, call(s, 66, "resources/list", json!({})));
    add(
        rules::RESULT_FIELD,
        call(s, 67, "resources/templates/list", json!({})),
    );
    add(rules::META_KEYS, call(s, 61, "tools/list", json!({})));
    // a request carrying trace context (a server that propagates it echoes it)
    let traced = with_meta(
        weather_call(s),
        "traceparent",
        json!("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"),
    );
    add(rules::TRACE_FORMAT, traced);
    add(
        rules::RESULTTYPE_SET,
        call(s, 62, "server/discover", json!({})),
    );
    add(
        rules::VER_EXT_IDS,
        call(s, 63, "server/discover", json!({})),
    );
    add(
        rules::MRTR_ONLY_SUPPORTED,
        call(s, 64, "prompts/list", json!({})),
    );
    add(rules::MRTR_ATLEASTONE, weather_call(s));
    add(rules::MRTR_VALUE_TYPES, weather_call(s));
    // a call declaring `roots`: a server may ask it for roots (MRTR-NO-UNDECLARED)
    let roots = json!({"roots": {}});
    // a call declaring sampling: a server may refuse it for a capability it lacks (-32021)
    add(
        rules::MISSING_CAP,
        with_meta(
            weather_call(s),
            META_CLIENT_CAPABILITIES,
            json!({"sampling": {}}),
        ),
    );
    // a call declaring elicitation: a -32021 naming only it misuses the code
    add(
        rules::ERRCODE_MEANING,
        with_meta(
            weather_call(s),
            META_CLIENT_CAPABILITIES,
            json!({"elicitation": {}}),
        ),
    );
    add(
        rules::MRTR_KEYS_UNIQUE,
        with_meta(weather_call(s), META_CLIENT_CAPABILITIES, roots.clone()),
    );
    add(
        rules::MRTR_NO_UNDECLARED,
        with_meta(weather_call(s), META_CLIENT_CAPABILITIES, roots),
    );
    let stream = call(
        s,
        65,
        "tools/call",
        json!({"name": STREAM_TOOL, "arguments": {"to": 2}}),
    );
    add(
        rules::NOTIF_NO_ID,
        with_meta(stream, "progressToken", json!("p-65")),
    );
    // a call from a client that declares no extension: judged against a target advertising
    // one (`fixture::extension_surface`), its result takes a core resultType (D-183)
    add(
        rules::VER_EXT_FALLBACK,
        call(
            s,
            67,
            "tools/call",
            json!({"name": PLAIN_TOOL, "arguments": {"location": "Oslo"}}),
        ),
    );
    out
}
