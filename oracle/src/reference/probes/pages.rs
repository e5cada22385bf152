//! The probes of pagination, caching across pages, completion and logging: a list request
//! with a cursor no server issued (PAGE-INVALID-CURSOR), a request with a log level that is
//! not one of the eight (LOG-INVALID-LEVEL), a streamed call that set a log level
//! (LOG-CAP-DECLARE, and LOG-LEVEL-THRESHOLD on a target declaring `logging`),
//! `server/discover` (COMPL-CAP-DECLARE), and, for every list the surface
//! knows in pages, its second page opened with the cursor discovery was given (PAGE-STABLE,
//! CACHE-SCOPE-PAGES: [`page_probes`], which the runner builds from each target's own
//! surface, since a cursor is the target's).

use super::{call, weather_call, with_meta, Probe};
use crate::case::META_LOG_LEVEL;
use crate::fixture::STREAM_TOOL;
use crate::rules;
use crate::surface::Surface;
use serde_json::json;

/// A cursor no server issues: mcpdiff never saw it in any answer.
pub const NOT_ISSUED_CURSOR: &str = "mcpdiff-cursor-never-issued";

/// The probes that need no page of the target's.
pub(super) fn pages_and_levels(s: &Surface) -> Vec<Probe> {
    let mut out = vec![
        Probe {
            rule: rules::PAGE_INVALID_CURSOR,
            case: call(s, 60, "tools/list", json!({ "cursor": NOT_ISSUED_CURSOR })),
        },
        Probe {
            rule: rules::LOG_INVALID_LEVEL,
            case: with_meta(weather_call(s), META_LOG_LEVEL, json!("verbose")),
        },
        Probe {
            rule: rules::LOG_CAP_DECLARE,
            case: streamed_call_logging_at(s, "info"),
        },
        // judged on the surface declaring `logging` (`fixture::surface_for`, D-198): a level
        // with levels below it to break the bound with
        Probe {
            rule: rules::LOG_LEVEL_THRESHOLD,
            case: streamed_call_logging_at(s, "warning"),
        },
        Probe {
            rule: rules::COMPL_CAP_DECLARE,
            case: call(s, 62, "server/discover", json!({})),
        },
    ];
    out.extend(page_probes(s));
    out
}

/// A call of the streamed tool that sets log level `level`.
fn streamed_call_logging_at(s: &Surface, level: &str) -> crate::case::Case {
    let c = call(
        s,
        61,
        "tools/call",
        json!({"name": STREAM_TOOL, "arguments": {"to": 2}}),
    );
    with_meta(c, META_LOG_LEVEL, json!(level))
}

/// For every list `s` knows in pages: its second page, opened with the first cursor
/// discovery was given (PAGE-STABLE; CACHE-SCOPE-PAGES when the first page's `cacheScope`
/// is known).
pub fn page_probes(s: &Surface) -> Vec<Probe> {
    let mut out = Vec::new();
    for (i, l) in s.pagination.lists.iter().enumerate() {
        let Some(cursor) = l.cursors.first() else {
            continue;
        };
        let case = call(s, 63 + i as i64, &l.method, json!({ "cursor": cursor }));
        if l.scope.is_some() {
            out.push(Probe {
                rule: rules::CACHE_SCOPE_PAGES,
                case: case.clone(),
            });
        }
        out.push(Probe {
            rule: rules::PAGE_STABLE,
            case,
        });
    }
    out
}
