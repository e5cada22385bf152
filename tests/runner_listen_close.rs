//! SUB-GRACEFUL over the real transport (`NetSender`): a listen stream the server closes
//! after its acknowledgement without a completion result is a finding on every case; one it
//! closes after the completion result passes; one it keeps open until mcpdiff stops reading
//! decides nothing (not observed, never a pass). Raw loopback servers, one case in flight
//! at a time; SUB-FILTER beside it: a change of a type the listen did not ask for.

mod common;

use common::listens::{self, request_id};
use mcpdiff::transport::Limits;
use mcpdiff_oracle::{rules, RuleId};
use serde_json::json;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// How the raw server ends each listen stream.
#[derive(Clone, Copy)]
enum End {
    /// Closes right after the acknowledgement.
    Drop,
    /// Sends the completion result, then closes.
    Complete,
    /// Sends a change of a type no listen asked for, then stays open.
    Unasked,
    /// Stays open until the client leaves (at most 5 s).
    Open,
}

/// A listen-only server ending its streams as `end` says; SSE over a close-delimited body
/// (no chunking), so closing the socket ends the stream. At most 32 connections.
async fn listen_server(end: End) -> String {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        for _ in 0..32 {
            let Ok((mut s, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let Some(id) = request_id(&mut s).await else {
                    return;
                };
                let meta = json!({"io.modelcontextprotocol/subscriptionId": id});
                let ack = json!({"jsonrpc": "2.0",
                    "method": "notifications/subscriptions/acknowledged",
                    "params": {"_meta": meta, "notifications": {"toolsListChanged": true}}});
                let mut out = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                     Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\n\
                     Connection: close\r\n\r\nevent: message\ndata: {ack}\n\n"
                );
                match end {
                    End::Complete => {
                        let done = json!({"jsonrpc": "2.0", "id": id, "result": {
                            "resultType": "complete",
                            "_meta": {"io.modelcontextprotocol/subscriptionId": id,
                                "io.modelcontextprotocol/serverInfo":
                                    {"name": "raw", "version": "1"}}}});
                        out.push_str(&format!("event: message\ndata: {done}\n\n"));
                    }
                    End::Unasked => {
                        let change = json!({"jsonrpc": "2.0",
                            "method": "notifications/prompts/list_changed",
                            "params": {"_meta": meta}});
                        out.push_str(&format!("event: message\ndata: {change}\n\n"));
                    }
                    End::Drop | End::Open => {}
                }
                if s.write_all(out.as_bytes()).await.is_err() {
                    return;
                }
                if matches!(end, End::Open | End::Unasked) {
                    let mut sink = [0u8; 64];
                    let _ = tokio::time::timeout(Duration::from_secs(5), s.read(&mut sink)).await;
                }
                let _ = s.shutdown().await;
            });
        }
    });
    format!("http://{addr}/mcp")
}

/// Run `cases` listen cases asking for tools/list_changed against `url`; (exercised, failed)
/// of `rule`.
async fn run_listens(url: &str, cases: u64, rule: RuleId) -> (u64, u64) {
    let limits = Limits {
        total: Duration::from_secs(3),
        sse_max_time: Duration::from_millis(800),
        sse_idle_after_response: Duration::from_millis(300),
        ..Limits::default()
    };
    let params = json!({"notifications": {"toolsListChanged": true}});
    let run = listens::run_listens(url, cases, params, limits, rule).await;
    (run.exercised, run.failed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listen_stream_closed_without_its_completion_result_is_a_finding() {
    let dropped = listen_server(End::Drop).await;
    assert_eq!(run_listens(&dropped, 4, rules::SUB_GRACEFUL).await, (4, 4));
    let completed = listen_server(End::Complete).await;
    assert_eq!(
        run_listens(&completed, 4, rules::SUB_GRACEFUL).await,
        (4, 0)
    );
    // an open stream cut by mcpdiff's own limit says nothing about the server's closure
    let open = listen_server(End::Open).await;
    assert_eq!(run_listens(&open, 3, rules::SUB_GRACEFUL).await, (0, 0));
    assert_eq!(run_listens(&open, 3, rules::SUB_FILTER).await, (0, 0));
    // (the streams were read: their acknowledgement was judged)
    assert_eq!(run_listens(&open, 3, rules::SUB_ACK_FIRST).await, (3, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_of_a_type_the_listen_did_not_ask_for_is_a_finding() {
    let unasked = listen_server(End::Unasked).await;
    assert_eq!(run_listens(&unasked, 3, rules::SUB_FILTER).await, (3, 3));
}
