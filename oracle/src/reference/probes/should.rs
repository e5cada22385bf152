//! The probes of the SHOULD-level rules judged in the issue 23 sweep, one or more per rule,
//! each a conformant request departing in the one way its rule speaks of (or, for a rule on
//! what a result publishes, the conformant carrier of that result).

use super::{call, weather_call, with_meta, Probe};
use crate::case::META_CLIENT_INFO;
use crate::fixture::PLAIN_TOOL;
use crate::rules;
use crate::surface::Surface;
use serde_json::json;

/// The key of an `inputResponses` entry no server assigned (D-193).
const UNREQUESTED: &str = "mcpdiff.unrequested";

/// The probes of the SHOULD sweep.
pub(super) fn should_probes(s: &Surface) -> Vec<Probe> {
    let c = |id: i64, method: &str, params| call(s, id, method, params);
    vec![
        // the tools a target lists, each schema in the dialect it declares (D-190)
        Probe {
            rule: rules::SCHEMA_2020_12,
            case: c(200, "tools/list", json!({})),
        },
        // a completion for a prompt the target does not list: -32602 (D-191)
        Probe {
            rule: rules::COMPL_ERRORS,
            case: c(
                201,
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "no_such_prompt"},
                    "argument": {"name": "code", "value": ""}}),
            ),
        },
        // a retry whose inputResponses is no object: a JSON-RPC error (D-192)
        Probe {
            rule: rules::MRTR_VALIDATE_INPUTS,
            case: c(
                202,
                "tools/call",
                json!({"name": PLAIN_TOOL, "arguments": {"location": "Seattle, WA"},
                    "inputResponses": "yes"}),
            ),
        },
        // an entry no InputRequests asked for: ignored, the call served (D-193)
        Probe {
            rule: rules::MRTR_IGNORE_EXTRA,
            case: c(
                203,
                "tools/call",
                json!({"name": PLAIN_TOOL, "arguments": {"location": "Seattle, WA"},
                    "inputResponses": {UNREQUESTED: {"action": "decline"}}}),
            ),
        },
        // another client's self-reported identity: served as mcpdiff is (D-194)
        Probe {
            rule: rules::INFO_NOT_BEHAVIOR,
            case: with_meta(
                weather_call(s),
                META_CLIENT_INFO,
                json!({"name": "other-client", "version": "0.1.0"}),
            ),
        },
    ]
}
