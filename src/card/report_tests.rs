//! Unit tests of the verdict: pass, partial and fail, each with its two lines.

use super::*;
use crate::card::url::parse_url;
use crate::card::validate::check_card;
use crate::card::verdict::{plan, remote_row, GetProbe};
use serde_json::{json, Value};

fn origin() -> Origin {
    parse_url("http://127.0.0.1:7").expect("valid").origin
}

fn fetches(statuses: &[u16]) -> Vec<Fetch> {
    CARD_PATHS
        .iter()
        .zip(statuses)
        .map(|(p, s)| Fetch {
            url: format!("http://127.0.0.1:7{p}"),
            status: Some(*s),
            outcome: s.to_string(),
        })
        .collect()
}

fn doc(remote_url: &str) -> Value {
    json!({"name": "io.example/x", "version": "1", "description": "d",
        "remotes": [{"type": "streamable-http", "url": remote_url,
                     "supportedProtocolVersions": ["2026-07-28"]}]})
}

/// Decide with every on-origin remote answering `status`.
fn decide_with(doc: &Value, status: u16) -> CardDecision {
    let check = check_card(doc);
    let plans = plan(&check, &origin(), 5);
    let rows: Vec<RemoteReport> = check
        .remotes
        .iter()
        .zip(&plans)
        .map(|(e, p)| {
            let probe = GetProbe {
                status: Some(status),
                www_authenticate: None,
                summary: format!("{status}"),
            };
            let requested = matches!(p, crate::card::verdict::RemotePlan::Request(_));
            remote_row(e, p, requested.then_some(&probe), &origin())
        })
        .collect();
    let tried = fetches(&[200]);
    decide(
        &origin(),
        &tried,
        Found::Card {
            url: &tried[0].url,
            check: &check,
        },
        &rows,
    )
}

#[test]
fn pass_needs_a_remote_on_the_origin_that_answered() {
    let d = decide_with(&doc("http://127.0.0.1:7/mcp"), 405);
    assert_eq!(d.verdict, CardStatus::Pass);
    assert_eq!(d.fix, None);
    let d = decide_with(&doc("http://127.0.0.1:7/mcp"), 404);
    assert_eq!(d.verdict, CardStatus::Partial);
    assert!(d.detail.contains("did not answer"), "{}", d.detail);
    assert!(d.fix.expect("fix").contains("plain GET"));
}

#[test]
fn remotes_elsewhere_give_partial() {
    let d = decide_with(&doc("http://example.com/mcp"), 200);
    assert_eq!(d.verdict, CardStatus::Partial);
    assert!(
        d.detail
            .contains("1 on another origin (http://example.com/mcp)"),
        "{}",
        d.detail
    );
}

#[test]
fn a_bare_401_gives_partial_with_the_header_to_ship() {
    let d = decide_with(&doc("http://127.0.0.1:7/mcp"), 401);
    assert_eq!(d.verdict, CardStatus::Partial);
    assert!(d.fix.expect("fix").contains("resource_metadata="));
}

#[test]
fn identity_without_usable_remote_is_partial() {
    let mut d = doc("http://127.0.0.1:7/mcp");
    d["remotes"][0]["status"] = json!("declared");
    let out = decide_with(&d, 200);
    assert_eq!(out.verdict, CardStatus::Partial);
    assert!(out.fix.expect("fix").contains("declared"));
    d["remotes"] = json!([]);
    let out = decide_with(&d, 200);
    assert_eq!(out.verdict, CardStatus::Partial);
    assert!(out.detail.contains("no `remotes`"));
}

#[test]
fn missing_fields_fail_and_say_what_to_ship() {
    let mut d = doc("http://127.0.0.1:7/mcp");
    d["name"] = json!("io.github/acme/weather");
    let out = decide_with(&d, 200);
    assert_eq!(out.verdict, CardStatus::Fail);
    assert!(out.fix.expect("fix").contains("io.github.acme/weather"));
    d["name"] = json!("io.example/x");
    d.as_object_mut().expect("object").remove("description");
    let out = decide_with(&d, 200);
    assert_eq!(out.verdict, CardStatus::Fail);
    assert!(out.detail.contains("`description` is missing"));
}

#[test]
fn no_card_and_not_json_fail() {
    let tried = fetches(&[404, 404, 404]);
    let d = decide(&origin(), &tried, Found::Nothing, &[]);
    assert_eq!(d.verdict, CardStatus::Fail);
    assert!(
        d.detail.contains("/.well-known/mcp/server-card.json 404"),
        "{}",
        d.detail
    );
    assert!(d
        .fix
        .expect("fix")
        .contains("\"name\":\"io.github.you/server\""));
    let d = decide(
        &origin(),
        &tried,
        Found::NotJson {
            url: "u",
            outcome: "200 text/html 5 non-JSON bytes",
        },
        &[],
    );
    assert_eq!(d.verdict, CardStatus::Fail);
    assert!(d.detail.contains("not JSON"));
}

#[test]
fn suggested_names_pass_the_validator() {
    for bad in [
        "Reference Server",
        "io.github/acme/weather",
        "a b/c d",
        "/",
        "x",
    ] {
        let s = suggest_name(bad);
        assert_eq!(name_problem(&s), None, "{bad} -> {s}");
    }
}
