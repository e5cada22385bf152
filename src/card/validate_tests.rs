//! Unit tests of the pure validator: one passing and one failing case per sentence.

use super::*;
use serde_json::json;

fn card(remotes: Value) -> Value {
    json!({
        "name": "io.github.example/weather",
        "version": "1.0.0",
        "description": "Weather tools",
        "remotes": remotes,
    })
}

fn remote() -> Value {
    json!({
        "type": "streamable-http",
        "url": "http://127.0.0.1:9/mcp",
        "supportedProtocolVersions": ["2026-07-28"],
    })
}

#[test]
fn a_complete_card_is_usable() {
    let c = check_card(&card(json!([remote()])));
    assert!(c.identity_ok(), "{:?}", c.problems);
    assert!(c.usable());
    assert_eq!(c.remotes[0].kind, Some(TransportKind::StreamableHttp));
    assert_eq!(c.remotes[0].versions, ["2026-07-28"]);
}

#[test]
fn name_needs_exactly_one_slash() {
    assert_eq!(name_problem("io.github.example/weather"), None);
    assert_eq!(name_problem("example-org/minimal"), None);
    assert!(name_problem("io.github/example/weather")
        .expect("two slashes")
        .contains("2 slashes"));
    assert!(name_problem("weather")
        .expect("no slash")
        .contains("0 slashes"));
}

#[test]
fn name_must_be_reverse_dns_characters() {
    assert!(name_problem("Example Corp/weather").is_some());
    assert!(name_problem("/weather").is_some());
    assert!(name_problem("io.example/").is_some());
    assert!(name_problem("io.example/weather_v2.x-1").is_none());
    assert!(name_problem("a/").is_some());
    let long = format!("io.example/{}", "x".repeat(200));
    assert!(name_problem(&long).expect("too long").contains("200"));
}

#[test]
fn identity_fields_are_required() {
    for key in ["name", "version", "description"] {
        let mut doc = card(json!([remote()]));
        doc.as_object_mut().expect("object").remove(key);
        let c = check_card(&doc);
        assert!(!c.identity_ok(), "{key}");
        assert!(c.problems[0].contains(key), "{:?}", c.problems);
        assert!(!c.usable());
    }
    let mut doc = card(json!([remote()]));
    doc["description"] = json!("  ");
    assert!(!check_card(&doc).identity_ok());
    doc["description"] = json!(7);
    assert!(!check_card(&doc).identity_ok());
}

#[test]
fn schema_is_accepted_not_required() {
    let mut doc = card(json!([remote()]));
    assert!(check_card(&doc).usable());
    doc["$schema"] =
        json!("https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json");
    assert!(check_card(&doc).usable());
}

#[test]
fn not_an_object_is_not_a_card() {
    let c = check_card(&json!(["io.example/x"]));
    assert!(!c.identity_ok());
    assert!(c.remotes.is_empty());
}

#[test]
fn transport_type_must_be_streamable_http_or_sse() {
    let mut r = remote();
    r["type"] = json!("sse");
    assert_eq!(
        check_card(&card(json!([r.clone()]))).remotes[0].kind,
        Some(TransportKind::Sse)
    );
    r["type"] = json!("websocket");
    assert!(!check_card(&card(json!([r.clone()]))).usable());
    r.as_object_mut().expect("object").remove("type");
    assert!(!check_card(&card(json!([r]))).usable());
}

#[test]
fn url_and_versions_are_required() {
    let mut r = remote();
    r.as_object_mut().expect("object").remove("url");
    assert!(!check_card(&card(json!([r]))).usable());
    let mut r = remote();
    r.as_object_mut()
        .expect("object")
        .remove("supportedProtocolVersions");
    assert!(!check_card(&card(json!([r]))).usable());
    let mut r = remote();
    r["supportedProtocolVersions"] = json!([]);
    assert!(!check_card(&card(json!([r]))).usable());
    let mut r = remote();
    r["url"] = json!("/mcp");
    assert!(!check_card(&card(json!([r]))).usable());
}

#[test]
fn declared_status_is_not_usable() {
    let mut r = remote();
    r["status"] = json!("declared");
    let c = check_card(&card(json!([r.clone()])));
    assert!(c.identity_ok());
    assert!(!c.usable());
    assert!(c.remotes[0].problems[0].contains("declared"));
    r["status"] = json!("active");
    assert!(check_card(&card(json!([r]))).usable());
}

#[test]
fn no_remotes_keeps_identity_but_is_not_usable() {
    let mut doc = card(json!([]));
    assert!(check_card(&doc).identity_ok());
    assert!(!check_card(&doc).usable());
    doc.as_object_mut().expect("object").remove("remotes");
    assert!(!check_card(&doc).usable());
}

#[test]
fn one_usable_remote_is_enough() {
    let mut bad = remote();
    bad["status"] = json!("declared");
    let c = check_card(&card(json!([bad, remote()])));
    assert!(c.usable());
    assert_eq!(c.usable_remotes().count(), 1);
}

#[test]
fn templates_fill_from_defaults() {
    let mut r = remote();
    r["url"] = json!("http://{host}:9/{path}");
    r["variables"] = json!({"host": {"default": "127.0.0.1"}, "path": {"default": "mcp"}});
    let c = check_card(&card(json!([r.clone()])));
    let url = c.remotes[0].resolved.as_ref().expect("resolved");
    assert_eq!(url.origin.host, "127.0.0.1");
    assert_eq!(url.path, "/mcp");
    r["variables"] = json!({"host": {"description": "no default"}});
    assert!(!check_card(&card(json!([r]))).usable());
}
