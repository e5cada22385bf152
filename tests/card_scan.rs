//! `mcpdiff card` against in-process loopback servers: the reference server (`serve::spawn`)
//! and tiny scripted HTTP/1.1 servers, one per rule of the scanner, each with a
//! case that passes and one that does not; plus the CLI's exit codes.

use mcpdiff::card::{scan, CardReport, CardStatus, ScanOptions};
use mcpdiff::serve::{spawn, Variant};
use serde_json::{json, Value};
use server::{get, scripted, Route, Scripted};
use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

mod common;
#[path = "card_scan/server.rs"]
mod server;

fn card(remotes: Value) -> String {
    json!({
        "name": "io.github.example/weather",
        "version": "1.0.0",
        "description": "Weather tools",
        "remotes": remotes,
    })
    .to_string()
}

fn remote(kind: &str, url: &str) -> Value {
    json!({"type": kind, "url": url, "supportedProtocolVersions": ["2026-07-28"]})
}

const WK: &str = "/.well-known/mcp/server-card.json";

fn opts() -> ScanOptions {
    ScanOptions {
        timeout: Duration::from_secs(3),
        ..ScanOptions::default()
    }
}

async fn run(routes: Vec<Route>) -> (CardReport, Scripted) {
    let server = scripted(routes).await;
    let report = scan(&server.origin, &opts()).await.expect("scan runs");
    (report, server)
}

/// A card at the well-known path with these remotes, and these other routes.
async fn with_card(remotes: Value, mut routes: Vec<Route>) -> (CardReport, Scripted) {
    routes.push(get(WK, 200, card(remotes)));
    run(routes).await
}

#[tokio::test]
async fn reference_server_passes_and_tells_the_truth() {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal");
    let server = spawn(Variant::Reference, addr).await.expect("bind");
    let origin = format!("http://{}", server.addr);
    let r = scan(&origin, &opts()).await.expect("scan runs");
    assert_eq!(r.verdict, CardStatus::Pass, "{}", r.detail);
    assert_eq!(
        r.card_url.as_deref(),
        Some(format!("{origin}{WK}").as_str())
    );
    assert_eq!(r.remotes.len(), 1);
    assert_eq!(r.remotes[0].status, Some(405));
    assert!(r.remotes[0].counted);
    assert_eq!(r.truth.len(), 1);
    assert!(r.truth[0].consistent, "{}", r.truth[0].line);
    server.shutdown().await;
}

#[tokio::test]
async fn null_server_has_no_card() {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal");
    let server = spawn(Variant::Null, addr).await.expect("bind");
    let r = scan(&format!("http://{}", server.addr), &opts())
        .await
        .expect("scan runs");
    assert_eq!(r.verdict, CardStatus::Fail);
    server.shutdown().await;
}

#[tokio::test]
async fn the_three_locations_are_tried_in_order_and_the_first_200_decides() {
    let good = card(json!([remote("streamable-http", "{ORIGIN}/mcp")]));
    let mcp = get("/mcp", 405, "");
    // second location
    let (r, s) = run(vec![
        get("/.well-known/mcp.json", 200, good.clone()),
        mcp.clone(),
    ])
    .await;
    assert_eq!(r.verdict, CardStatus::Pass, "{}", r.detail);
    assert!(r.card_url.expect("card").ends_with("/.well-known/mcp.json"));
    assert_eq!(r.tried.len(), 2);
    assert!(!s.requested("/mcp.json"));
    // third location
    let (r, _) = run(vec![get("/mcp.json", 200, good.clone()), mcp.clone()]).await;
    assert_eq!(r.verdict, CardStatus::Pass);
    assert_eq!(r.tried.len(), 3);
    // a first 200 that is not JSON decides (fail), the later good card is never read
    let (r, s) = run(vec![
        get(WK, 200, "<html>hi</html>"),
        get("/mcp.json", 200, good),
        mcp,
    ])
    .await;
    assert_eq!(r.verdict, CardStatus::Fail);
    assert!(r.detail.contains("not JSON"), "{}", r.detail);
    assert!(!s.requested("/mcp.json"));
}

#[tokio::test]
async fn no_card_at_all_fails() {
    let (r, s) = run(vec![]).await;
    assert_eq!(r.verdict, CardStatus::Fail);
    assert_eq!(r.card_url, None);
    assert_eq!(
        r.tried.iter().map(|f| f.status).collect::<Vec<_>>(),
        [Some(404); 3]
    );
    assert!(s.requested("/mcp.json"));
    assert!(r.fix.expect("fix").contains("io.github.you/server"));
}

#[tokio::test]
async fn card_mutants_with_bad_identity_fail() {
    let mut cases = Vec::new();
    for (field, value) in [
        ("name", json!("Weather Server")),
        ("name", json!("io.github/example/weather")),
    ] {
        let mut c: Value =
            serde_json::from_str(&card(json!([remote("streamable-http", "{ORIGIN}/mcp")])))
                .expect("json");
        c[field] = value;
        cases.push(c);
    }
    let mut c: Value = serde_json::from_str(&card(json!([]))).expect("json");
    c.as_object_mut().expect("object").remove("description");
    cases.push(c);
    for c in cases {
        let (r, _) = run(vec![get(WK, 200, c.to_string()), get("/mcp", 405, "")]).await;
        assert_eq!(r.verdict, CardStatus::Fail, "{c}");
        assert!(r.fix.is_some());
    }
}

#[tokio::test]
async fn identity_without_usable_remote_is_partial() {
    let mut declared = remote("streamable-http", "{ORIGIN}/mcp");
    declared["status"] = json!("declared");
    let (r, s) = with_card(json!([declared]), vec![get("/mcp", 200, "")]).await;
    assert_eq!(r.verdict, CardStatus::Partial, "{}", r.detail);
    assert!(!s.requested("/mcp"), "a declared remote is not requested");
    assert!(!r.remotes[0].usable);
    let (r, _) = with_card(json!([]), vec![]).await;
    assert_eq!(r.verdict, CardStatus::Partial);
}

#[tokio::test]
async fn remotes_on_another_origin_are_not_requested() {
    let other = scripted(vec![get("/mcp", 200, "")]).await;
    let url = format!("{}/mcp", other.origin);
    let (r, _) = with_card(json!([remote("streamable-http", &url)]), vec![]).await;
    assert_eq!(r.verdict, CardStatus::Partial, "{}", r.detail);
    assert!(!r.remotes[0].requested && !r.remotes[0].on_origin);
    assert!(r.detail.contains("another origin"), "{}", r.detail);
    assert!(
        other.log.lock().expect("log").is_empty(),
        "nothing sent off origin"
    );
}

#[tokio::test]
async fn remote_answers_decide_pass_or_partial() {
    // (transport, status, challenge) -> counted?
    let rm = "Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource\"";
    let cases: [(&str, u16, Option<&'static str>, bool); 9] = [
        ("streamable-http", 200, None, true),
        ("sse", 200, None, true),
        ("streamable-http", 405, None, true),
        ("streamable-http", 406, None, true),
        ("sse", 405, None, false),
        ("streamable-http", 401, Some(rm), true),
        ("streamable-http", 401, None, false),
        ("streamable-http", 404, None, false),
        ("streamable-http", 500, None, false),
    ];
    for (kind, status, challenge, counted) in cases {
        let mut route = get("/mcp", status, "");
        route.header = challenge.map(|c| ("WWW-Authenticate", c));
        let (r, _) = with_card(json!([remote(kind, "{ORIGIN}/mcp")]), vec![route]).await;
        let want = if counted {
            CardStatus::Pass
        } else {
            CardStatus::Partial
        };
        assert_eq!(
            r.verdict, want,
            "{kind} {status} {challenge:?}: {}",
            r.detail
        );
        assert_eq!(r.remotes[0].status, Some(status));
        assert_eq!(r.remotes[0].counted, counted);
        if status == 401 && !counted {
            assert!(r.fix.as_deref().expect("fix").contains("resource_metadata"));
        }
    }
}

#[tokio::test]
async fn the_cap_limits_requested_remotes() {
    let remotes = json!([
        remote("streamable-http", "{ORIGIN}/a"),
        remote("streamable-http", "{ORIGIN}/b"),
        remote("streamable-http", "{ORIGIN}/c"),
    ]);
    let routes = vec![get(WK, 200, card(remotes)), get("/c", 405, "")];
    let server = scripted(routes.clone()).await;
    let capped = ScanOptions {
        max_remotes: 2,
        ..opts()
    };
    let r = scan(&server.origin, &capped).await.expect("scan runs");
    assert_eq!(r.verdict, CardStatus::Partial, "{}", r.detail);
    assert!(server.requested("/a") && server.requested("/b") && !server.requested("/c"));
    assert!(!r.remotes[2].requested);
    assert!(r.detail.contains("1 not requested"), "{}", r.detail);
    let server = scripted(routes).await;
    let r = scan(&server.origin, &opts()).await.expect("scan runs");
    assert_eq!(r.verdict, CardStatus::Pass);
}

#[tokio::test]
async fn a_card_that_lies_about_versions_is_reported() {
    let mut rm = remote("streamable-http", "{ORIGIN}/mcp");
    rm["supportedProtocolVersions"] = json!(["2025-06-18"]);
    let discover = json!({"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"]}});
    let post = Route {
        method: "POST",
        ..get("/mcp", 200, discover.to_string())
    };
    let (r, _) = with_card(json!([rm]), vec![get("/mcp", 405, ""), post]).await;
    assert_eq!(
        r.verdict,
        CardStatus::Pass,
        "the scanner's verdict is unchanged"
    );
    assert!(!r.truth[0].consistent);
    assert!(r.truth[0].line.contains("MISMATCH"), "{}", r.truth[0].line);
}

#[tokio::test]
async fn the_ai_catalog_is_checked_on_its_own_line() {
    let catalog = json!({"specVersion":"draft","entries":[{"identifier":"urn:air:example.com:weather",
        "type":"application/mcp-server-card+json","url":"{ORIGIN}/mcp/server-card"}]});
    let good = card(json!([remote("streamable-http", "{ORIGIN}/mcp")]));
    let (r, _) = run(vec![
        get(WK, 200, good.clone()),
        get("/mcp", 405, ""),
        get("/.well-known/ai-catalog.json", 200, catalog.to_string()),
        get("/mcp/server-card", 200, good),
    ])
    .await;
    let c = r.catalog.expect("catalog checked");
    assert_eq!(c.entries.len(), 1);
    assert_eq!(c.entries[0].card_usable, Some(true), "{}", c.line);
    assert!(
        c.line.contains("usable card io.github.example/weather"),
        "{}",
        c.line
    );
    let (r, _) = run(vec![get(WK, 200, card(json!([])))]).await;
    assert!(r.catalog.expect("catalog").line.contains("not published"));
}

/// Run the binary (blocking, so on a blocking thread while the servers keep serving).
async fn cli(args: Vec<String>) -> (Option<i32>, String) {
    tokio::task::spawn_blocking(move || {
        let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
            .arg("card")
            .args(&args)
            .output()
            .expect("run mcpdiff");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    })
    .await
    .expect("join")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_exit_codes_and_json() {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal");
    let reference = spawn(Variant::Reference, addr).await.expect("bind");
    let (code, out) = cli(vec![format!("http://{}", reference.addr), "--json".into()]).await;
    assert_eq!(code, Some(0), "{out}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["verdict"], "pass");
    assert!(v["card_url"].as_str().expect("card_url").ends_with(WK));
    for key in ["url", "requested", "status", "counted"] {
        assert!(v["remotes"][0].get(key).is_some(), "remotes[0].{key}");
    }
    reference.shutdown().await;

    let partial = scripted(vec![get(
        WK,
        200,
        card(json!([remote("sse", "http://example.com/sse")])),
    )])
    .await;
    let (code, out) = cli(vec![partial.origin.clone()]).await;
    assert_eq!(code, Some(1), "{out}");
    assert!(out.starts_with("PARTIAL"), "{out}");
    assert!(
        out.lines().nth(1).expect("fix line").contains("ship:"),
        "{out}"
    );

    let fail = scripted(vec![]).await;
    let (code, out) = cli(vec![fail.origin.clone(), "--json".into()]).await;
    assert_eq!(code, Some(1));
    assert_eq!(
        serde_json::from_str::<Value>(&out).expect("json")["verdict"],
        "fail"
    );

    let (code, _) = cli(vec![
        "http://127.0.0.1:1".into(),
        "--timeout".into(),
        "1".into(),
    ])
    .await;
    assert_eq!(code, Some(2), "nothing listening: could not run");
    let (code, _) = cli(vec!["not a url".into()]).await;
    assert_eq!(code, Some(2));
}
