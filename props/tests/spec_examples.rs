//! Every spec example whose directory ends in `Request` (copied into `tests/data`, see the
//! README there) parses as a request object: a JSON-RPC 2.0 request (`jsonrpc`, `id`,
//! `method`) for client-to-server requests, a bare `{method, params?}` object for the three
//! server-to-client requests that 2026-07-28 embeds in `inputRequests`.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// Request types that are not JSON-RPC messages in 2026-07-28 (schema.json requires only
/// `method` for them).
const EMBEDDED: &[&str] = &["CreateMessageRequest", "ElicitRequest", "ListRootsRequest"];

fn example_files() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/spec-examples");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).expect("data dir") {
        let dir = dir.expect("entry").path();
        let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !dir.is_dir() || !name.ends_with("Request") {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("example dir") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "json") {
                out.push((name.to_string(), f));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn all_request_examples_are_present() {
    let dirs: std::collections::BTreeSet<String> =
        example_files().into_iter().map(|(d, _)| d).collect();
    assert_eq!(dirs.len(), 13, "{dirs:?}");
    for d in [
        "CallToolRequest",
        "ListToolsRequest",
        "DiscoverRequest",
        "ReadResourceRequest",
    ] {
        assert!(dirs.contains(d), "{d}");
    }
}

#[test]
fn request_examples_parse_as_requests() {
    for (dir, file) in example_files() {
        let text = std::fs::read_to_string(&file).expect("readable");
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let obj = v
            .as_object()
            .unwrap_or_else(|| panic!("{file:?} is not an object"));
        let method = obj.get("method").and_then(Value::as_str);
        assert!(method.is_some_and(|m| !m.is_empty()), "{file:?}: method");
        if let Some(p) = obj.get("params") {
            assert!(p.is_object(), "{file:?}: params is not an object");
        }
        if EMBEDDED.contains(&dir.as_str()) {
            assert!(
                obj.get("jsonrpc").is_none(),
                "{file:?}: embedded request has jsonrpc"
            );
            continue;
        }
        assert_eq!(
            obj.get("jsonrpc"),
            Some(&Value::from("2.0")),
            "{file:?}: jsonrpc"
        );
        let id = obj.get("id").unwrap_or_else(|| panic!("{file:?}: id"));
        assert!(
            id.is_string() || id.is_i64() || id.is_u64(),
            "{file:?}: id {id}"
        );
        let meta = &obj["params"]["_meta"];
        assert_eq!(
            meta[mcpdiff_oracle::case::META_PROTOCOL_VERSION],
            Value::from(mcpdiff_oracle::case::MODERN_VERSION),
            "{file:?}: _meta protocol version"
        );
    }
}
