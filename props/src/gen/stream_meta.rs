//! The `_meta` members a generated request carries for its response stream: a
//! `progressToken` on some tool calls (a string or an integer, the two JSON types
//! progress.mdx allows, zero included) and an `io.modelcontextprotocol/logLevel` on a few
//! requests of any method (one of the eight levels of logging.mdx); and the `notifications`
//! filter of a `subscriptions/listen` (which change types it asks for: SUB-FILTER judges
//! what the stream then carries against it). Drawn from streams of their own keyed by (seed,
//! index), so every other draw of a case, and every case that gets none of them, is what it
//! was before the stream rules existed.

use crate::choice::{Draw, Rng, Source};
use mcpdiff_oracle::case::{META_LOG_LEVEL, META_PROGRESS_TOKEN};
use mcpdiff_oracle::soft_params::LOG_LEVELS;
use serde_json::{json, Value};

/// Keys the stream-meta draws apart from the case's own.
const SALT: u64 = 0x7374_7265_616d_6d65;

/// The extra `_meta` members of case `index` of a run with `seed`, calling `method`.
pub(crate) fn draw(seed: u64, index: u64, method: &str) -> Vec<(&'static str, Value)> {
    let mut r = Rng::for_case(seed ^ SALT, index);
    let mut out = Vec::new();
    // a quarter of the tool calls ask for progress
    if method == "tools/call" && r.below(4) == 0 {
        let n = r.below(1000) as u64;
        let token = match r.below(3) {
            0 => json!(format!("p-{n}")),
            1 => json!(n),
            _ => json!(0),
        };
        out.push((META_PROGRESS_TOKEN, token));
    }
    // one request in sixteen asks for log messages; one of those in eight with a level that
    // is none of the eight (LOG-INVALID-LEVEL: the SHOULD's -32602)
    if r.below(16) == 0 {
        let level = match r.below(8) {
            0 => json!(r.pick(&["verbose", "DEBUG", "warn"])),
            _ => json!(r.pick(&LOG_LEVELS)),
        };
        out.push((META_LOG_LEVEL, level));
    }
    out
}

/// Keys the cursor draws apart from the others.
const CURSOR_SALT: u64 = 0x6375_7273_6f72_7321;

/// The `cursor` of list case `index` of a run with `seed`, when it gets one (one in eight):
/// the first cursor the surface's discovery was given for this list when there is one (the
/// second page: PAGE-STABLE, CACHE-SCOPE-PAGES), else, and for a third of them anyway, one
/// the target never issued (a string, or a number: PAGE-INVALID-CURSOR).
pub(crate) fn cursor(seed: u64, index: u64, issued: Option<&str>) -> Option<Value> {
    let mut r = Rng::for_case(seed ^ CURSOR_SALT, index);
    if r.below(8) != 0 {
        return None;
    }
    Some(match (issued, r.below(3)) {
        (Some(c), 0 | 1) => json!(c),
        (_, 2) => json!(r.below(100)),
        _ => json!(format!("mcpdiff-cursor-{}", r.below(1000))),
    })
}

/// Keys the listen-filter draws apart from the others.
const FILTER_SALT: u64 = 0x6c69_7374_656e_6670;

/// The `notifications` filter of listen case `index` of a run with `seed`: half keep the
/// plan's `{"toolsListChanged": true}`, the rest ask for another mix of the four types of
/// subscriptions.mdx § Notification Filter (none at all included), with `false` and
/// non-boolean values among them (which request nothing, D-100).
pub(crate) fn listen_filter(seed: u64, index: u64) -> Option<Value> {
    let mut r = Rng::for_case(seed ^ FILTER_SALT, index);
    if r.below(2) == 0 {
        return None;
    }
    let mut filter = serde_json::Map::new();
    for key in [
        "toolsListChanged",
        "promptsListChanged",
        "resourcesListChanged",
    ] {
        match r.below(4) {
            0 | 1 => {}
            2 => {
                filter.insert(key.into(), json!(true));
            }
            _ => {
                let odd = [json!(false), json!("true"), json!(1)];
                filter.insert(key.into(), odd[r.below(3)].clone());
            }
        }
    }
    match r.below(4) {
        0 => {
            filter.insert(
                "resourceSubscriptions".into(),
                json!(["file:///project/config.json"]),
            );
        }
        1 => {
            filter.insert("resourceSubscriptions".into(), json!([]));
        }
        _ => {}
    }
    Some(Value::Object(filter))
}
