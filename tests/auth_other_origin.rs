//! A protected target whose challenge names its protected-resource metadata on another origin
//! (RFC 9728 §5.1): the document is fetched there (DEVIATIONS.md D-72), without the run's
//! credentials, and judged like one served by the target. The "other origin" is a second
//! loopback server; nothing leaves the machine.

mod common;

use common::raw_http::read_request;
use mcpdiff::auth::metadata_facts;
use mcpdiff::transport::{Client, Credentials, Endpoint, Limits};
use mcpdiff_oracle::auth::judge_metadata;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

/// A loopback server answering every request with `status` and `body` (JSON), recording each
/// request head; at most `max` connections, each within 5 s.
async fn fixed_server(status: u16, body: String, max: usize) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let heads = Arc::new(Mutex::new(Vec::new()));
    let seen = heads.clone();
    tokio::spawn(async move {
        for _ in 0..max {
            let Ok(Ok((mut s, _))) =
                tokio::time::timeout(Duration::from_secs(20), listener.accept()).await
            else {
                return;
            };
            let Some((head, _)) = read_request(&mut s, Duration::from_secs(5)).await else {
                continue;
            };
            seen.lock().expect("lock").push(head);
            let answer = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = s.write_all(answer.as_bytes()).await;
        }
    });
    (port, heads)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metadata_on_another_origin_is_fetched_there_without_credentials() {
    // the target: answers 404 to anything (its well-known URIs serve nothing)
    let (target_port, target_heads) = fixed_server(404, "{}".into(), 4).await;
    let target = Endpoint::parse(&format!("http://127.0.0.1:{target_port}/mcp")).expect("url");
    let doc = serde_json::json!({
        "resource": format!("http://127.0.0.1:{target_port}/mcp"),
        "authorization_servers": ["http://127.0.0.1:9/as"],
    });
    let (meta_port, meta_heads) = fixed_server(200, doc.to_string(), 2).await;
    let url = format!("http://127.0.0.1:{meta_port}/prm/mcp");
    let creds = Credentials::parse(&["Authorization: Bearer tok-other-origin-1".into()], None)
        .expect("credentials");
    let client = Client::with_credentials(Limits::default(), creds);
    let (facts, cases) = metadata_facts(&client, &target, Some(url.clone())).await;

    assert_eq!(facts.fetched.len(), 1, "{:?}", facts.fetched);
    let (fetched_url, obs) = &facts.fetched[0];
    assert_eq!(fetched_url, &url);
    let status = obs.as_ref().and_then(|o| o.http()).map(|a| a.status);
    assert_eq!(status, Some(200));
    let judged = judge_metadata(&facts);
    let failed: Vec<_> = judged
        .iter()
        .filter(|(j, _)| j.finding.is_some())
        .map(|(j, _)| j.rule.0)
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert!(judged.iter().any(|(j, _)| j.rule.0 == "AUTH-DISCOVERY"));
    assert!(cases[0]
        .labels
        .iter()
        .any(|l| l == &format!("auth: metadata at {url}")));

    let heads = meta_heads.lock().expect("lock").clone();
    assert_eq!(heads.len(), 1, "{heads:?}");
    assert!(heads[0].starts_with("GET /prm/mcp "), "{}", heads[0]);
    assert!(
        !heads[0].to_ascii_lowercase().contains("authorization"),
        "the run's credential went to another origin: {}",
        heads[0]
    );
    assert!(target_heads.lock().expect("lock").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_document_naming_another_resource_is_judged() {
    let (target_port, _) = fixed_server(404, "{}".into(), 4).await;
    let target = Endpoint::parse(&format!("http://127.0.0.1:{target_port}/mcp")).expect("url");
    let doc = serde_json::json!({
        "resource": "http://resource.invalid/mcp",
        "authorization_servers": ["http://127.0.0.1:9/as"],
    });
    let (meta_port, _) = fixed_server(200, doc.to_string(), 2).await;
    let url = format!("http://127.0.0.1:{meta_port}/prm");
    let client = Client::new(Limits::default());
    let (facts, _) = metadata_facts(&client, &target, Some(url)).await;
    let failed: Vec<_> = judge_metadata(&facts)
        .into_iter()
        .filter(|(j, _)| j.finding.is_some())
        .map(|(j, _)| j.rule.0)
        .collect();
    assert_eq!(failed, ["AUTH-PRM"]);
}
