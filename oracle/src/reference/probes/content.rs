//! The content probes: conformant requests whose answers publish what the content checks
//! (`crate::content`) read, one per rule, so each rule has a carrier of its own.

use super::{call, Probe};
use crate::fixture::RESOURCE;
use crate::rules;
use crate::surface::Surface;
use serde_json::json;

/// Conformant requests of the methods whose results the content rules judge.
pub(super) fn content_probes(s: &Surface) -> Vec<Probe> {
    let c = |id: i64, method: &str, params| call(s, id, method, params);
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
    ]
}
