//! Slow and hostile behaviour for `mcpdiff serve`, for tests and demos of the
//! per-case limit and `--max-time`. The answers stay the reference server's (or mutant's);
//! only their timing changes:
//! - `--slow-tool-ms N` publishes one extra tool, [`SLOW_TOOL`], whose calls answer on an SSE
//!   stream after N ms, sending a `notifications/progress` every [`TICK`] meanwhile when the
//!   request gave a `progressToken` (progress.mdx), else a `:` comment. A conformant server
//!   with a slow tool, as any tool that calls a model or a database is.
//! - `--hostile sse-forever` answers every request the server would answer with `200` on an
//!   SSE stream that never carries the response: the same keep-alive traffic, until the
//!   client goes away (or [`STREAM_LIMIT`]).
//!
//! The default surface (the fixture the corpus depends on) is untouched unless asked.

use bytes::Bytes;
use http_body_util::Channel;
use mcpdiff_oracle::reference::{Response, ResponseBody};
use mcpdiff_oracle::{Case, Surface, ToolDecl};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::time::Duration;

/// The name of the slow tool.
pub const SLOW_TOOL: &str = "slow_tool";
/// Interval of progress notifications (or comments) on a slow or endless stream.
pub const TICK: Duration = Duration::from_millis(250);
/// An endless stream still ends after this long.
const STREAM_LIMIT: Duration = Duration::from_secs(600);

/// Timing changes of a served variant. `Default`: none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// Publish [`SLOW_TOOL`], answering after this many ms.
    pub slow_tool_ms: Option<u64>,
    /// Never finish a `200` answer (see the module docs).
    pub sse_forever: bool,
}

/// `surface` with [`SLOW_TOOL`] published (no arguments, read-only).
pub fn with_slow_tool(mut surface: Surface) -> Surface {
    if surface.tool(SLOW_TOOL).is_none() {
        let schema = json!({"type": "object", "properties": {}});
        surface.tools.push(ToolDecl::new(SLOW_TOOL, schema, true));
    }
    surface
}

/// The streamed replacement of `resp` for `case`, if `extras` change it: the head to send
/// (status and headers of an SSE answer) and the stream's body.
pub(crate) fn intercept(
    extras: &Extras,
    case: &Case,
    resp: &Response,
) -> Option<(Response, Channel<Bytes, Infallible>)> {
    if resp.status != 200 || !(extras.sse_forever || extras.slow_tool_ms.is_some()) {
        return None;
    }
    let body: Value = serde_json::from_slice(&case.body).ok()?;
    let token = body
        .pointer("/params/_meta/progressToken")
        .filter(|t| t.is_string() || t.is_i64() || t.is_u64())
        .cloned();
    if extras.sse_forever {
        // only requests the server answered (a response to come), not 202 notifications
        body.get("id")?;
        return Some((head(), stream(token, None)));
    }
    let ms = extras.slow_tool_ms?;
    let slow = body.get("method").and_then(Value::as_str) == Some("tools/call")
        && body.pointer("/params/name").and_then(Value::as_str) == Some(SLOW_TOOL);
    let answer = match (&resp.body, slow) {
        (ResponseBody::Json(v), true) => v.clone(),
        _ => return None,
    };
    Some((
        head(),
        stream(token, Some((Duration::from_millis(ms), answer))),
    ))
}

/// Status and headers of an SSE answer (`X-Accel-Buffering: no` included).
fn head() -> Response {
    Response::sse(Vec::new(), false)
}

/// Progress (or comments) every [`TICK`]; with `end`, the answer after its delay, then the
/// stream closes; without, until the client goes away or [`STREAM_LIMIT`].
fn stream(token: Option<Value>, end: Option<(Duration, Value)>) -> Channel<Bytes, Infallible> {
    let (mut tx, body) = Channel::new(4);
    tokio::spawn(async move {
        let start = tokio::time::Instant::now();
        let until = end.as_ref().map_or(STREAM_LIMIT, |(d, _)| *d);
        let mut step = 0u64;
        while start.elapsed() + TICK <= until {
            step += 1;
            let bytes = match &token {
                Some(t) => format!(
                    "event: message\ndata: {}\n\n",
                    json!({"jsonrpc": "2.0", "method": "notifications/progress",
                           "params": {"progressToken": t, "progress": step,
                                      "message": "still working"}})
                ),
                None => ":\n\n".to_string(),
            };
            if tx.send_data(Bytes::from(bytes)).await.is_err() {
                return;
            }
            tokio::time::sleep(TICK).await;
        }
        if let Some((d, answer)) = end {
            tokio::time::sleep_until(start + d).await;
            let _ = tx
                .send_data(Bytes::from(format!("event: message\ndata: {answer}\n\n")))
                .await;
        }
    });
    body
}
