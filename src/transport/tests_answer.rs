//! `Client::send_noting`: the answer is told while the SSE stream is still read for its idle
//! window, once, and the observation is the same as `send`'s (a server request sent late in
//! the window is still observed). Servers are raw tokio TCP on 127.0.0.1 (`tests::server`).

use super::tests::{body, case, json_response, read_request, server, sse_head};
use super::*;
use mcpdiff_oracle::{Body, SseMessage};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::time::{sleep, timeout};

/// Long stream limits: the late request below is sent right after the client told the answer,
/// and the idle window leaves a loaded machine room to deliver it.
fn limits() -> Limits {
    Limits {
        total: Duration::from_secs(4),
        sse_max_time: Duration::from_secs(3),
        sse_idle_after_response: Duration::from_millis(800),
        ..super::tests::limits()
    }
}

const RESPONSE: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
const SERVER_REQUEST: &[u8] =
    b"data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n";

#[tokio::test]
async fn the_answer_is_told_before_the_idle_window_and_a_late_request_is_observed() {
    let told = Arc::new(AtomicBool::new(false));
    let seen_by_server = told.clone();
    let (ep, _) = server(move |mut s| {
        let told = seen_by_server.clone();
        async move {
            read_request(&mut s).await;
            let _ = s.write_all(sse_head()).await;
            let _ = s.write_all(RESPONSE).await;
            // the request goes out only once the client said the case was answered (bounded:
            // 2 s), so observing it proves the stream was read on after the answer was told
            for _ in 0..1000 {
                if told.load(Ordering::SeqCst) {
                    break;
                }
                sleep(Duration::from_millis(2)).await;
            }
            let _ = s.write_all(SERVER_REQUEST).await;
            sleep(Duration::from_secs(3)).await;
        }
    })
    .await;
    let calls = AtomicUsize::new(0);
    let on_answer = || {
        calls.fetch_add(1, Ordering::SeqCst);
        told.store(true, Ordering::SeqCst);
    };
    let client = Client::new(limits());
    let obs = timeout(
        Duration::from_secs(6),
        client.send_noting(&case(), &ep, &on_answer),
    )
    .await
    .expect("client hung");
    assert_eq!(calls.load(Ordering::SeqCst), 1, "told once");
    match body(&obs) {
        Body::Sse { messages, closed } => {
            assert!(!closed, "abandoned after the idle window");
            assert_eq!(messages.len(), 2, "{messages:?}");
            let SseMessage::Json(late) = &messages[1] else {
                panic!("{messages:?}")
            };
            assert_eq!(late["method"], "ping");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn no_answer_is_told_without_an_idle_window() {
    // a plain JSON answer: complete when read, nothing to tell
    let (json, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let body = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        let _ = s.write_all(&json_response(body, "")).await;
    })
    .await;
    // a stream of notifications the server closes, with no response on it
    let (notes, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let _ = s.write_all(sse_head()).await;
        let _ = s
            .write_all(b"data: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\n")
            .await;
    })
    .await;
    let client = Client::new(limits());
    for ep in [json, notes] {
        let calls = AtomicUsize::new(0);
        let on_answer = || {
            calls.fetch_add(1, Ordering::SeqCst);
        };
        let noted = timeout(
            Duration::from_secs(6),
            client.send_noting(&case(), &ep, &on_answer),
        )
        .await
        .expect("client hung");
        assert_eq!(calls.load(Ordering::SeqCst), 0);
        assert_eq!(noted, client.send(&case(), &ep).await, "same observation");
    }
}
