//! `Client::send_listening`: an SSE stream that stays silent for `Limits::sse_quiet` ends
//! there as `closed: false` (abandoned by mcpdiff, as at any limit), after every event sent
//! before the silence; `send` holds the same stream to `sse_max_time`.

use super::tests::{read_request, server};
use super::*;
use mcpdiff_oracle::{Body, Case};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::time::{sleep, timeout, Instant};

const SSE_TIME: Duration = Duration::from_millis(1500);
const QUIET: Duration = Duration::from_millis(250);

fn limits() -> Limits {
    Limits {
        total: Duration::from_secs(3),
        sse_max_time: SSE_TIME,
        sse_quiet: QUIET,
        ..super::tests::limits()
    }
}

fn get() -> Case {
    let mut c = Case::post("/mcp", &[("Accept", "text/event-stream")], Vec::new());
    c.method = "GET".into();
    c
}

#[tokio::test]
async fn a_listening_stream_ends_after_its_silence_with_every_event_before_it() {
    let (ep, _) = server(|mut s| async move {
        read_request(&mut s).await;
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n";
        let _ = s.write_all(head.as_bytes()).await;
        let _ = s.write_all(b"id: 1\ndata: \n\n").await;
        // a pause shorter than the quiet window: the stream goes on
        sleep(QUIET / 3).await;
        let _ = s
            .write_all(b"id: 2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}\n\n")
            .await;
        sleep(Duration::from_secs(5)).await;
    })
    .await;
    let client = Client::new(limits());
    for listening in [true, false] {
        let start = Instant::now();
        let sent = async {
            if listening {
                client.send_listening(&get(), &ep).await
            } else {
                client.send(&get(), &ep).await
            }
        };
        let obs = timeout(Duration::from_secs(5), sent)
            .await
            .expect("client hung");
        let took = start.elapsed();
        let Body::Sse { messages, closed } = &obs.http().expect("an HTTP answer").body else {
            panic!("not an SSE body: {obs:?}");
        };
        assert_eq!(messages.len(), 2, "listening {listening}: {obs:?}");
        assert!(!closed, "cut by mcpdiff, not closed by the server");
        if listening {
            assert!(took < SSE_TIME - QUIET, "listening: {took:?}");
        } else {
            assert!(took >= SSE_TIME, "held to sse_max_time: {took:?}");
        }
    }
}
