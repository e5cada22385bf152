//! The probe set: one or more requests per rule the judge emits, each departing from a
//! conformant request (`client::conformant_case`) in exactly one way, so the reference
//! server's answer to each is unambiguous and each mutant shows up on exactly its rule.
//! Pure and deterministic, so the runner can replay it against any target.
//!
//! The probes name the fixture's tools, resource and prompt (`crate::fixture`); against a
//! surface without them the tool probes exercise the unknown-tool path instead.
//!
//! Files: `carriers.rs` (conformant requests), `refusals.rs` (transport, version and name
//! refusals), `headers.rs` (the mirrored and `Mcp-Param` headers), `isolation.rs` (the byte
//! forms HTTP stacks differ on), `stream.rs` (what travels on SSE answers), `content.rs`
//! (carriers of what results publish), `shape.rs` (carriers of the base-protocol shape
//! rules), `should.rs` (the SHOULD-level rules of the issue 23 sweep), `pages.rs` (pagination,
//! completion and logging; the page probes built from a target's own cursors).

mod carriers;
mod content;
mod headers;
mod isolation;
mod pages;
mod refusals;
mod shape;
mod should;
mod stream;

use crate::case::Case;
use crate::client::conformant_case;
use crate::fixture::PLAIN_TOOL;
use crate::rules::RuleId;
use crate::surface::Surface;
use serde_json::{json, Value};

/// One probe: the rule it is meant to exercise and the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub rule: RuleId,
    pub case: Case,
}

/// `initialize` as a 2025-11-25 client sends it first: JSON-RPC over POST with the media
/// headers, no `MCP-Protocol-Version` or `Mcp-Method` (that era had no mirrored headers
/// before negotiation) and no `_meta`.
pub fn legacy_initialize(surface: &Surface) -> Case {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "mcpdiff-legacy-probe", "version": "1.0.0"}
        }
    });
    Case::post(
        &surface.endpoint,
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
        body.to_string(),
    )
}

/// The probe set for `surface` (meant for `fixture::surface()`), in a fixed order.
pub fn probes(surface: &Surface) -> Vec<Probe> {
    let mut out = carriers::carriers(surface);
    out.extend(refusals::refusals(surface));
    out.extend(headers::headers(surface));
    out.extend(isolation::isolation_probes(surface));
    out.extend(stream::stream_probes(surface));
    out.extend(content::content_probes(surface));
    out.extend(shape::shape_probes(surface));
    out.extend(should::should_probes(surface));
    out.extend(pages::pages_and_levels(surface));
    out
}

pub use pages::{page_probes, NOT_ISSUED_CURSOR};

/// The probe set as the runner sends it: each probe's rule beside its case.
pub fn probe_cases(surface: &Surface) -> Vec<(RuleId, Case)> {
    probes(surface)
        .into_iter()
        .map(|p| (p.rule, p.case))
        .collect()
}

/// The conformant request `method(params)` with JSON-RPC id `id`.
fn call(s: &Surface, id: i64, method: &str, params: Value) -> Case {
    conformant_case(s, json!(id), method, params)
}

/// `case` with header `name` set to `value` (removed when `None`).
fn with(mut case: Case, name: &str, value: Option<&[u8]>) -> Case {
    case.set_header(name, value);
    case
}

/// The conformant `get_weather` call the header probes depart from.
fn weather_call(s: &Surface) -> Case {
    call(
        s,
        1,
        "tools/call",
        json!({"name": PLAIN_TOOL, "arguments": {"location": "Seattle, WA"}}),
    )
}

/// Set `params._meta[key]` in the body of a conformant case.
fn with_meta(mut case: Case, key: &str, value: Value) -> Case {
    edit_meta(&mut case, |m| {
        m.insert(key.to_string(), value);
    });
    case
}

/// Remove `params._meta[key]` from the body of a conformant case.
pub(crate) fn without_meta(mut case: Case, key: &str) -> Case {
    edit_meta(&mut case, |m| {
        m.remove(key);
    });
    case
}

fn edit_meta(case: &mut Case, f: impl FnOnce(&mut serde_json::Map<String, Value>)) {
    let Ok(mut body) = serde_json::from_slice::<Value>(&case.body) else {
        return;
    };
    if let Some(meta) = body
        .get_mut("params")
        .and_then(|p| p.get_mut("_meta"))
        .and_then(Value::as_object_mut)
    {
        f(meta);
    }
    // serializing a Value cannot fail (all keys are strings)
    case.body = serde_json::to_vec(&body).unwrap_or_default();
}
