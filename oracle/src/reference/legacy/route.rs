//! Which revision a dual-era server serves a request by.
//!
//! versioning.mdx (2026-07-28), VER-DUAL-ERA-SELECT: «A request carrying modern per-request
//! `_meta` is served statelessly according to this revision. - An `initialize` request selects
//! legacy semantics, scoped to the stdio process (stdio) or the session (HTTP)». So:
//! `initialize` is legacy; so is a request whose body `_meta` names no protocol version while
//! its `MCP-Protocol-Version` names a legacy version or is absent: how a 2025-11-25 client
//! sends every request after `initialize`, and exactly the requests the judge puts on a
//! dual-era target's legacy path (D-36). A body naming a version, or a header naming the
//! modern one, is modern. A header naming neither (unsupported or malformed) beside an
//! `Mcp-Session-Id` continues a legacy session: the legacy reference refuses it 400
//! (L-SHTTP-PV-UNSUPPORTED-400), which the judge accepts of a dual-era target too (D-50).

use crate::case::{Case, HeaderField, META_PROTOCOL_VERSION};
use crate::legacy::select_era;
pub use crate::legacy::Era;
use serde_json::Value;

/// The era `case` selects on a dual-era server (DEVIATIONS.md D-L1, D-L10): the decision is
/// `crate::legacy::select_era`, the one the judge's legacy path takes too; this only reads
/// the request's parts.
pub fn route(case: &Case) -> Era {
    let body: Option<Value> = if case.method == "POST" {
        serde_json::from_slice(&case.body).ok()
    } else {
        None
    };
    let method = body
        .as_ref()
        .and_then(|b| b.get("method"))
        .and_then(Value::as_str);
    let meta_version = body
        .as_ref()
        .and_then(|b| b.get("params"))
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(META_PROTOCOL_VERSION))
        .and_then(Value::as_str);
    let session = case.header("Mcp-Session-Id") != HeaderField::Absent;
    select_era(
        method == Some("initialize"),
        meta_version.map(str::as_bytes),
        &case.header("MCP-Protocol-Version"),
        session,
    )
    .era()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::conformant_case;
    use crate::fixture;
    use serde_json::json;

    #[test]
    fn initialize_and_legacy_shaped_requests_are_legacy_modern_meta_is_modern() {
        let s = fixture::surface();
        let modern = conformant_case(&s, json!(1), "tools/list", json!({}));
        assert_eq!(route(&modern), Era::Modern);
        let mut with_session = modern.clone();
        with_session.set_header("Mcp-Session-Id", Some(b"abc"));
        assert_eq!(route(&with_session), Era::Modern, "modern _meta wins");
        // a body whose `_meta` names a legacy version is not «modern per-request `_meta`»:
        // the reference routes it legacy, and the judge's legacy path takes it (D-L10)
        let mut legacy_meta = modern.clone();
        let mut body: Value = serde_json::from_slice(&legacy_meta.body).expect("json");
        body["params"]["_meta"][META_PROTOCOL_VERSION] = json!("2025-11-25");
        legacy_meta.body = body.to_string().into_bytes();
        assert_eq!(route(&legacy_meta), Era::Legacy);
        let mut dual = fixture::surface();
        dual.legacy_era = true;
        let any = crate::Observation::Http(crate::HttpAnswer::new(
            200,
            Some("application/json"),
            crate::Body::Json {
                value: json!({"jsonrpc": "2.0", "id": 1, "result": {"legacy": true}}),
            },
        ));
        let judged = crate::judge(&legacy_meta, &dual);
        assert!(
            crate::check(&judged, &any).is_empty(),
            "the judge's legacy path: nothing of the modern revision binds"
        );
        let init = Case::post(
            "/mcp",
            &[("Content-Type", "application/json")],
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        );
        assert_eq!(route(&init), Era::Legacy);
        let mut get = Case::post("/mcp", &[("Mcp-Session-Id", "abc")], "");
        get.method = "GET".into();
        assert_eq!(route(&get), Era::Legacy);
        get.set_header("MCP-Protocol-Version", Some(b"2026-07-28"));
        assert_eq!(route(&get), Era::Modern, "a modern header: the modern 405");
        get.set_header("MCP-Protocol-Version", Some(b"1900-01-01"));
        assert_eq!(
            route(&get),
            Era::Legacy,
            "an unsupported version in a session"
        );
        let bare = Case::post(
            "/mcp",
            &[("Content-Type", "application/json")],
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        );
        assert_eq!(route(&bare), Era::Legacy, "headerless, no _meta: D-36");
        let mut legacy_header = bare.clone();
        legacy_header.set_header("MCP-Protocol-Version", Some(b"2025-11-25"));
        assert_eq!(route(&legacy_header), Era::Legacy);
        let mut broken = bare.clone();
        broken.set_header("MCP-Protocol-Version", Some(b"2026-"));
        assert_eq!(
            route(&broken),
            Era::Modern,
            "no session: the modern refusal"
        );
    }
}
