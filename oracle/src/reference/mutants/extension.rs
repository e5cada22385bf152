//! The extension-negotiation mutant: a server that advertises an extension and answers with
//! the extension's behaviour whether or not the client declared it (VER-EXT-FALLBACK,
//! DEVIATIONS.md D-183).

use super::super::response::Response;
use super::super::{dispatch::parse_call, render};
use super::answer::each;
use crate::case::{Case, META_CLIENT_CAPABILITIES};
use crate::judge::judge;
use crate::surface::Surface;
use serde_json::Value;

/// The `resultType` the mutant's extension adds (a value outside the core set).
const EXTENSION_RESULT_TYPE: &str = "deferred";

/// Advertises [`crate::fixture::FIXTURE_EXTENSION`] and answers a `tools/call` from a client
/// that declared no extension with `resultType: "deferred"` (the extension's value) instead
/// of reverting to `complete`.
pub(super) fn extension_not_reverted(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    surface.capabilities.extensions = true;
    let call = parse_call(&case.body)?;
    let declared = call
        .params
        .get("_meta")
        .and_then(|m| m.get(META_CLIENT_CAPABILITIES))
        .and_then(|c| c.get("extensions"))
        .and_then(Value::as_object)
        .is_some_and(|e| !e.is_empty());
    if call.method != "tools/call" || declared {
        return None;
    }
    let mut r = render(&judge(case, surface), case, surface);
    each(&mut r, "result", |m| {
        if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
            res.insert("resultType".into(), EXTENSION_RESULT_TYPE.into());
        }
    });
    Some(r)
}
