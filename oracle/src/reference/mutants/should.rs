//! The mutants that break one SHOULD-level rule each (issue 23, the SHOULD sweep): a tool
//! schema in another JSON Schema dialect, a completion for a prompt that does not exist,
//! `inputResponses` read without checking or refused for entries nobody asked for, and a
//! server that changes its answer on the client's self-reported `clientInfo`.

use super::super::response::Response;
use super::answer::Answered;
use super::content::on;
use serde_json::{json, Value};

/// The meta-schema URI of draft-07, the dialect basic/index.mdx's own example names.
const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// Lists get_weather with an `inputSchema` that declares draft-07 (BASE-SCHEMA-2020-12).
pub(super) fn schema_draft_07(a: &Answered, r: &mut Response) {
    on(a, r, "tools/list", |res| {
        let tools = res.get_mut("tools").and_then(Value::as_array_mut);
        for t in tools.into_iter().flatten() {
            if t.get("name") == Some(&json!(crate::fixture::PLAIN_TOOL)) {
                if let Some(s) = t.get_mut("inputSchema").and_then(Value::as_object_mut) {
                    s.insert("$schema".into(), json!(DRAFT_07));
                }
            }
        }
    });
}
