//! A server request sent late on a listen stream, inside the idle window after the
//! acknowledgement, is still observed by a run (SHTTP-SSE-NO-REQUESTS on every case), now
//! that answered cases wait out that window outside their request slot. Raw loopback servers
//! over the real transport (`NetSender`), one case in flight at a time.

mod common;

use common::listens::{self, request_id};
use mcpdiff::transport::Limits;
use mcpdiff_oracle::rules;
use serde_json::json;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A listen-only server: every request gets a stream with the acknowledgement, then, after
/// `late` (when set), a JSON-RPC request, then silence until the client leaves (at most 5 s).
/// Accepts at most 64 connections.
async fn listen_server(late: Option<Duration>) -> String {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        for _ in 0..64 {
            let Ok((mut s, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let Some(id) = request_id(&mut s).await else {
                    return;
                };
                let ack = json!({"jsonrpc": "2.0",
                    "method": "notifications/subscriptions/acknowledged",
                    "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id},
                               "notifications": {}}});
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                            Cache-Control: no-cache\r\n\r\n";
                let first = format!("{head}event: message\ndata: {ack}\n\n");
                if s.write_all(first.as_bytes()).await.is_err() {
                    return;
                }
                if let Some(late) = late {
                    tokio::time::sleep(late).await;
                    let ping = json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"});
                    let event = format!("event: message\ndata: {ping}\n\n");
                    if s.write_all(event.as_bytes()).await.is_err() {
                        return;
                    }
                }
                let mut sink = [0u8; 64];
                let _ = tokio::time::timeout(Duration::from_secs(5), s.read(&mut sink)).await;
            });
        }
    });
    format!("http://{addr}/mcp")
}

/// Run `cases` listen cases against `url`; the cases and how many broke SSE-NO-REQUESTS.
async fn run_listens(url: &str, cases: u64) -> (u64, u64) {
    // an idle window long enough that the late request arrives inside it on a loaded machine
    let limits = Limits {
        total: Duration::from_secs(5),
        sse_max_time: Duration::from_secs(4),
        sse_idle_after_response: Duration::from_millis(600),
        ..Limits::default()
    };
    let run = listens::run_listens(url, cases, json!({}), limits, rules::SSE_NO_REQUESTS).await;
    (run.cases, run.failed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_sent_late_in_the_idle_window_is_a_finding_on_every_case() {
    let late = listen_server(Some(Duration::from_millis(30))).await;
    assert_eq!(run_listens(&late, 6).await, (6, 6));
    // the control: the same streams without the late request break nothing of the rule
    let quiet = listen_server(None).await;
    assert_eq!(run_listens(&quiet, 6).await, (6, 0));
}
