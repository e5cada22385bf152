//! A conformant client's request: the baseline every generated case departs from
//! (RULES.md §0.3 `BASE(method, params)`). Building it here, next to the rules, keeps the
//! generators, the reference-server tests and the runner's discovery on one definition.

use crate::annotations::{extract, header_text, Extracted};
use crate::case::{
    Case, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, MODERN_VERSION,
};
use crate::encoding::encode_header_value;
use crate::judge::name_source;
use crate::surface::Surface;
use serde_json::{json, Map, Value};

/// The `_meta` a conformant client sends.
pub fn request_meta(version: &str) -> Value {
    json!({
        META_PROTOCOL_VERSION: version,
        META_CLIENT_CAPABILITIES: {},
        META_CLIENT_INFO: {
            "name": crate::judge::view::CONFORMANT_CLIENT,
            "version": env!("CARGO_PKG_VERSION"),
        },
    })
}

/// The JSON-RPC body of a conformant request (`params._meta` filled in).
pub fn request_body(id: &Value, method: &str, params: &Value) -> Value {
    let mut p: Map<String, Value> = params.as_object().cloned().unwrap_or_default();
    p.insert("_meta".to_string(), request_meta(MODERN_VERSION));
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": p})
}

/// A conformant POST for `method` with `params` against `surface`: every mirrored header
/// present and encoded as the spec says, including `Mcp-Param-*` for annotated arguments.
pub fn conformant_case(surface: &Surface, id: Value, method: &str, params: Value) -> Case {
    let body = request_body(&id, method, &params);
    let mut headers: Vec<(String, String)> = vec![
        ("Content-Type".into(), "application/json".into()),
        (
            "Accept".into(),
            "application/json, text/event-stream".into(),
        ),
        ("MCP-Protocol-Version".into(), MODERN_VERSION.into()),
        ("Mcp-Method".into(), method.into()),
    ];
    if let Some(field) = name_source(method) {
        if let Some(name) = params.get(field).and_then(Value::as_str) {
            headers.push(("Mcp-Name".into(), encode_header_value(name)));
        }
    }
    if method == "tools/call" {
        let tool = params
            .get("name")
            .and_then(Value::as_str)
            .and_then(|n| surface.tool(n));
        if let Some(Ok(annotated)) = tool.map(|t| &t.header_params) {
            for p in annotated {
                if let Extracted::Value(v) = extract(params.get("arguments"), &p.path) {
                    if let Some(text) = header_text(v) {
                        headers.push((p.header_name(), encode_header_value(&text)));
                    }
                }
            }
        }
    }
    Case {
        method: "POST".to_string(),
        path: surface.endpoint.clone(),
        headers: headers
            .into_iter()
            .map(|(n, v)| (n.into_bytes(), v.into_bytes()))
            .collect(),
        // serializing a Value cannot fail (all keys are strings)
        body: serde_json::to_vec(&body).unwrap_or_default(),
        labels: Vec::new(),
    }
}
