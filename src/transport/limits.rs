//! `Limits`: the hard per-case bounds that keep one hostile or broken target from hanging a
//! run or exhausting memory. Every read the transport does is bounded by one of these.

use std::time::Duration;

/// Per-case bounds of the client. `Limits::default()` suits a real run; tests shrink them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time to establish the TCP connection (including name resolution). A connect that does
    /// not finish in time is reported as `Refused` (the connection failed), not `Timeout`.
    pub connect_timeout: Duration,
    /// Time for the whole case: connect, send, and read the answer. Running out before the
    /// answer is complete gives `Timeout`, except for an SSE body, which then ends with
    /// `closed: false`.
    pub total: Duration,
    /// Bytes of response head (status line and fields, interim 1xx heads included) before
    /// `OversizeHeaders`.
    pub max_header_bytes: usize,
    /// Decoded body bytes kept before `Body::Oversize` (for SSE: bytes read before mcpdiff
    /// stops reading the stream).
    pub max_body_bytes: usize,
    /// SSE: stop reading after this many events.
    pub sse_max_events: usize,
    /// SSE: stop reading this long after the response head arrived.
    pub sse_max_time: Duration,
    /// SSE: once a JSON-RPC response arrived, stop when the stream stays idle this long (a
    /// server may still close it, or send trailing notifications, right after).
    pub sse_idle_after_response: Duration,
    /// SSE, for a stream read with `Client::send_listening` only: stop when no byte came for
    /// this long (from the response head on). A listening stream that has nothing to say is
    /// cut here, as `closed: false` (abandoned by mcpdiff, exactly as at `sse_max_time`),
    /// instead of being held for `sse_max_time`. Why the 2025-11-25 judge loses no verdict
    /// by it: `runner::legacy_seq::quiet_get`.
    pub sse_quiet: Duration,
    /// Characters kept of a non-JSON body (`Body::Other::prefix`) or SSE data (`NotJson`).
    pub keep_chars: usize,
    /// Idle keep-alive connections kept per endpoint (0 disables reuse).
    pub pool_per_endpoint: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connect_timeout: Duration::from_secs(2),
            total: Duration::from_secs(5),
            max_header_bytes: 64 * 1024,
            max_body_bytes: 1024 * 1024,
            sse_max_events: 100,
            sse_max_time: Duration::from_secs(3),
            sse_idle_after_response: Duration::from_millis(100),
            sse_quiet: Duration::from_millis(300),
            keep_chars: 200,
            pool_per_endpoint: 8,
        }
    }
}
