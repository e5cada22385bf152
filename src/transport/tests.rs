//! End-to-end tests of the client against tiny hostile servers on 127.0.0.1: how each kind
//! of answer becomes an `Observation`. (Connection handling is tested in `tests_conn`.)
//!
//! Each server is a few lines of raw tokio TCP doing one nasty thing. Limits are small so the
//! whole file runs in about a second of wall time (tests run in parallel).

use super::*;
use mcpdiff_oracle::{Body, Case, Observation, SseMessage, TransportFailure};
use serde_json::json;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{sleep, timeout, Instant};

pub(super) const TOTAL: Duration = Duration::from_millis(800);
pub(super) const SSE_TIME: Duration = Duration::from_millis(400);
/// "Did not wait for the time limit": well under `TOTAL`, with room for a loaded machine.
pub(super) const QUICK: Duration = Duration::from_millis(500);
/// Scheduling slack allowed past a limit.
const SLACK: Duration = Duration::from_millis(500);

pub(super) fn limits() -> Limits {
    Limits {
        connect_timeout: Duration::from_millis(500),
        total: TOTAL,
        max_header_bytes: 4 * 1024,
        max_body_bytes: 64 * 1024,
        sse_max_events: 20,
        sse_max_time: SSE_TIME,
        sse_idle_after_response: Duration::from_millis(50),
        sse_quiet: Duration::from_millis(300),
        keep_chars: 40,
        pool_per_endpoint: 2,
    }
}

/// Start a server on 127.0.0.1:0 running `handler` on each accepted connection (at most 16).
/// Returns the endpoint and a counter of accepted connections.
pub(super) async fn server<F, Fut>(handler: F) -> (Endpoint, Arc<AtomicUsize>)
where
    F: Fn(TcpStream) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    let handler = Arc::new(handler);
    tokio::spawn(async move {
        for _ in 0..16 {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            count.fetch_add(1, Ordering::SeqCst);
            let h = handler.clone();
            tokio::spawn(async move { h(stream).await });
        }
    });
    (
        Endpoint::parse(&format!("http://127.0.0.1:{port}/mcp")).unwrap(),
        accepted,
    )
}

/// Read one request (head + Content-Length body) within 2 s; `None` on EOF or timeout.
pub(super) async fn read_request(s: &mut TcpStream) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if buf.len() >= end + 4 + len {
                return Some(buf);
            }
        }
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout_at(deadline, s.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => buf.extend_from_slice(&chunk[..n]),
            _ => return None,
        }
    }
}

pub(super) fn case() -> Case {
    Case::post(
        "/mcp",
        &[("Content-Type", "application/json")],
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    )
}

pub(super) fn json_response(body: &str, extra: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

pub(super) async fn send(ep: &Endpoint) -> (Observation, Duration) {
    let client = Client::new(limits());
    let start = Instant::now();
    // The outer timeout only turns a hang (a bug) into a test failure.
    let obs = timeout(Duration::from_secs(5), client.send(&case(), ep))
        .await
        .expect("client hung");
    (obs, start.elapsed())
}

pub(super) fn failure(f: TransportFailure) -> Observation {
    Observation::Transport { failure: f }
}

pub(super) fn body(obs: &Observation) -> &Body {
    &obs.http().expect("an HTTP answer").body
}

#[tokio::test]
async fn normal_json_response() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let extra = "Mcp-Session-Id: abc\r\nX-Accel-Buffering: no\r\nAllow: GET, POST\r\n";
        let _ = s
            .write_all(&json_response(
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                extra,
            ))
            .await;
        sleep(Duration::from_secs(2)).await;
    })
    .await;
    let (obs, _) = send(&ep).await;
    let a = obs.http().unwrap();
    assert_eq!(a.status, 200);
    assert_eq!(a.content_type.as_deref(), Some("application/json"));
    assert_eq!(a.session_id.as_deref(), Some("abc"));
    assert_eq!(a.x_accel_buffering.as_deref(), Some("no"));
    assert_eq!(a.allow.as_deref(), Some("GET, POST"));
    assert_eq!(
        a.body,
        Body::Json {
            value: json!({"jsonrpc":"2.0","id":1,"result":{}})
        }
    );
}

#[tokio::test]
async fn chunked_response() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let raw = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext\r\n world\r\n0\r\n\r\n";
        for piece in raw.as_bytes().chunks(7) {
            let _ = s.write_all(piece).await;
            sleep(Duration::from_millis(1)).await;
        }
        sleep(Duration::from_secs(2)).await;
    })
    .await;
    let (obs, _) = send(&ep).await;
    assert_eq!(obs.http().unwrap().status, 400);
    assert_eq!(
        body(&obs),
        &Body::Other {
            len: 11,
            prefix: "hello world".into()
        }
    );
}

pub(super) fn sse_head() -> &'static [u8] {
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
}

#[tokio::test]
async fn sse_three_events_then_close() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let _ = s.write_all(sse_head()).await;
        let _ = s
            .write_all(b": hi\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\n")
            .await;
        let _ = s.write_all(b"data: not json\r\n\r\n").await;
        let _ = s
            .write_all(b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\r")
            .await;
    })
    .await;
    let (obs, _) = send(&ep).await;
    match body(&obs) {
        Body::Sse { messages, closed } => {
            assert!(*closed);
            assert_eq!(messages.len(), 3);
            assert_eq!(messages[1], SseMessage::NotJson("not json".into()));
        }
        other => panic!("{other:?}"),
    }
    assert!(obs.http().unwrap().is_result());
}

#[tokio::test]
async fn sse_forever_is_cut_at_the_time_limit() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let _ = s.write_all(sse_head()).await;
        for i in 0..200 {
            let ev = format!(
                "data: {{\"jsonrpc\":\"2.0\",\"method\":\"tick\",\"params\":{{\"i\":{i}}}}}\n\n"
            );
            if s.write_all(ev.as_bytes()).await.is_err() {
                return;
            }
            sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let (obs, elapsed) = send(&ep).await;
    match body(&obs) {
        Body::Sse { messages, closed } => {
            assert!(!closed);
            assert!((1..=12).contains(&messages.len()), "{}", messages.len());
        }
        other => panic!("{other:?}"),
    }
    assert!(
        elapsed >= SSE_TIME && elapsed < SSE_TIME + SLACK,
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn sse_response_then_idle_stops_early() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let _ = s.write_all(sse_head()).await;
        let _ = s
            .write_all(b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
            .await;
        sleep(Duration::from_secs(3)).await;
    })
    .await;
    let (obs, elapsed) = send(&ep).await;
    assert!(matches!(body(&obs), Body::Sse { closed: false, messages } if messages.len() == 1));
    // Stopped by the idle window after the response, not by `sse_max_time`.
    assert!(elapsed < SSE_TIME, "{elapsed:?}");
}

#[tokio::test]
async fn silent_server_times_out() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        sleep(Duration::from_secs(5)).await;
    })
    .await;
    let (obs, elapsed) = send(&ep).await;
    assert_eq!(obs, failure(TransportFailure::Timeout));
    assert!(elapsed >= TOTAL && elapsed < TOTAL + SLACK, "{elapsed:?}");
}

#[tokio::test]
async fn immediate_close_is_reset() {
    let (ep, _) = server(|s| async move { drop(s) }).await;
    assert_eq!(send(&ep).await.0, failure(TransportFailure::Reset));
}

#[tokio::test]
async fn garbage_is_detected_without_waiting() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let _ = s.write_all(b"SSH-2.0-OpenSSH_9.6\r\n").await;
        sleep(Duration::from_secs(5)).await;
    })
    .await;
    let (obs, elapsed) = send(&ep).await;
    assert_eq!(obs, failure(TransportFailure::Garbage));
    assert!(elapsed < QUICK, "{elapsed:?}");
}

#[tokio::test]
async fn huge_body_is_oversize_quickly() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let size = 10 * 1024 * 1024;
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
        );
        let _ = s.write_all(head.as_bytes()).await;
        let block = vec![b'['; 64 * 1024];
        for _ in 0..size / block.len() {
            if s.write_all(&block).await.is_err() {
                return;
            }
        }
    })
    .await;
    let (obs, elapsed) = send(&ep).await;
    assert_eq!(body(&obs), &Body::Oversize { read: 64 * 1024 });
    assert!(elapsed < QUICK, "{elapsed:?}");
}

#[tokio::test]
async fn endless_headers_are_oversize() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n").await;
        for _ in 0..100_000 {
            if s.write_all(b"X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n")
                .await
                .is_err()
            {
                return;
            }
        }
    })
    .await;
    let (obs, elapsed) = send(&ep).await;
    assert_eq!(obs, failure(TransportFailure::OversizeHeaders));
    assert!(elapsed < QUICK, "{elapsed:?}");
}

#[tokio::test]
async fn slowloris_times_out() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        for &b in
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
        {
            if s.write_all(&[b]).await.is_err() {
                return;
            }
            sleep(Duration::from_millis(40)).await;
        }
    })
    .await;
    let (obs, elapsed) = send(&ep).await;
    assert_eq!(obs, failure(TransportFailure::Timeout));
    assert!(elapsed < TOTAL + SLACK, "{elapsed:?}");
}

#[tokio::test]
async fn closed_port_is_refused() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let ep = Endpoint::parse(&format!("http://127.0.0.1:{port}/mcp")).unwrap();
    assert_eq!(send(&ep).await.0, failure(TransportFailure::Refused));
}

#[tokio::test]
async fn interim_and_bare_lf_and_head() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let _ = s
            .write_all(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\nContent-Length: 0\n\n")
            .await;
        sleep(Duration::from_secs(2)).await;
    })
    .await;
    let (obs, _) = send(&ep).await;
    assert_eq!(
        obs.http().map(|a| (a.status, a.body.clone())),
        Some((202, Body::Empty))
    );
}
