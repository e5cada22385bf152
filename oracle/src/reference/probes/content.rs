//! The content probes: conformant requests whose answers publish what the content checks
//! (`crate::content`) read, one per rule, so each rule has a carrier of its own.

use super::{call, Probe};
use crate::fixture::{HEADER_TOOL, RESOURCE};
use crate::rules;
use crate::surface::Surface;
use serde_json::json;

/// Conformant requests of the methods whose results the content rules judge.
pub(super) fn content_probes(s: &Surface) -> Vec<Probe> {
    let c = |id: i64, method: &str, params| call(s, id, method, params);
    // the tool that declares an outputSchema, called conformantly
    let sql = json!({"name": HEADER_TOOL,
        "arguments": {"region": "us-west1", "count": 42, "query": "select 1"}});
    vec![
        Probe {
            rule: rules::DISC_SHAPE,
            case: c(40, "server/discover", json!({})),
        },
        Probe {
            rule: rules::DISC_SERVERINFO,
            case: c(41, "server/discover", json!({})),
        },
        Probe {
            rule: rules::CACHE_HINTS,
            case: c(42, "resources/read", json!({"uri": RESOURCE})),
        },
        Probe {
            rule: rules::CACHE_TTL_NONNEG,
            case: c(43, "resources/templates/list", json!({})),
        },
        Probe {
            rule: rules::TOOLS_CAP_DECLARE,
            case: c(44, "server/discover", json!({})),
        },
        Probe {
            rule: rules::RES_CAP_DECLARE,
            case: c(45, "server/discover", json!({})),
        },
        Probe {
            rule: rules::PROMPTS_CAP_DECLARE,
            case: c(46, "server/discover", json!({})),
        },
        Probe {
            rule: rules::TOOLS_LIST_RESPOND,
            case: c(47, "tools/list", json!({})),
        },
        Probe {
            rule: rules::RES_LIST_RESPOND,
            case: c(48, "resources/list", json!({})),
        },
        Probe {
            rule: rules::PROMPTS_LIST_RESPOND,
            case: c(49, "prompts/list", json!({})),
        },
        Probe {
            rule: rules::TOOLS_INPUTSCHEMA_VALID,
            case: c(50, "tools/list", json!({})),
        },
        Probe {
            rule: rules::TOOLS_OUTPUT_CONFORM,
            case: c(51, "tools/call", sql.clone()),
        },
        Probe {
            rule: rules::TOOLS_STRUCTURED_TEXT,
            case: c(52, "tools/call", sql),
        },
        Probe {
            rule: rules::RES_URI_RFC3986,
            case: c(53, "resources/list", json!({})),
        },
        // ids 54 and 55 rotate an id-dependent ordering by different amounts
        Probe {
            rule: rules::TOOLS_ORDER,
            case: c(54, "tools/list", json!({})),
        },
        Probe {
            rule: rules::TOOLS_ORDER,
            case: c(55, "tools/list", json!({})),
        },
    ]
}
