//! One HTTP/1.1 connection of `mcpdiff serve`: hyper request -> `Case`, `Response` -> hyper
//! response, and the SSE keep-alive of open streams.
//!
//! Limitation: hyper lowercases header names, so the server cannot see the case a client
//! used. Names are rebuilt in their canonical spelling (`Mcp-Name`, `MCP-Protocol-Version`),
//! which is exactly what a case-insensitive server needs; a mutant that depends on name case
//! (`header-names-case-sensitive`) therefore behaves like the reference over HTTP and can
//! only be exercised in-process.

use super::Variant;
use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Channel, Empty, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderName, HeaderValue, CONTENT_LENGTH};
use hyper::service::service_fn;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use mcpdiff_oracle::reference::auth::{self, AuthConfig};
use mcpdiff_oracle::reference::{Response, ResponseBody};
use mcpdiff_oracle::{Case, Surface};
use serde_json::Value;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Largest request body read; beyond it the answer is 413.
pub const MAX_BODY: usize = 4 * 1024 * 1024;
/// Interval of the `:` keep-alive comment on an open SSE stream.
const KEEPALIVE: Duration = Duration::from_secs(15);
/// An open SSE stream is closed after this long even if the client stays.
const STREAM_LIMIT: Duration = Duration::from_secs(600);

type Out = UnsyncBoxBody<Bytes, Infallible>;

/// What every connection shares.
pub(crate) struct ServeState {
    pub variant: Variant,
    pub surface: Surface,
    /// `http` or `https`: the scheme the server card names.
    pub scheme: &'static str,
    /// `serve --auth`: the guard in front of the endpoint and the metadata it serves.
    pub auth: Option<AuthConfig>,
    /// Slow or hostile timing (`slow.rs`; none by default).
    pub extras: super::slow::Extras,
    /// The legacy side of a dual-era server (`serve --dual-era`).
    pub legacy: Option<super::legacy::LegacyShell>,
    /// `serve --legacy-only`: `legacy` answers every request, modern ones included.
    pub legacy_only: bool,
}

/// Serve one connection (plain, or already TLS-accepted) until the client closes it (errors
/// end the connection only). `local` is the address the client reached.
pub(crate) async fn serve_connection<S>(
    stream: S,
    local: Option<std::net::SocketAddr>,
    state: Arc<ServeState>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    // The server card names this server's endpoint at the address the client reached.
    // The context the connection mutant remembers, one per connection.
    let known = Arc::new(std::sync::Mutex::new(None));
    // Whether the connection carried the family's other request (the list mutants).
    let touched = Arc::new(AtomicBool::new(false));
    let service =
        service_fn(move |req| handle(req, state.clone(), local, known.clone(), touched.clone()));
    let _ = hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(stream), service)
        .await;
}

/// The context a connection carried (`reference::connection`).
type Known = Arc<std::sync::Mutex<Option<serde_json::Map<String, serde_json::Value>>>>;

async fn handle(
    req: Request<Incoming>,
    state: Arc<ServeState>,
    local: Option<std::net::SocketAddr>,
    known: Known,
    touched: Arc<AtomicBool>,
) -> Result<hyper::Response<Out>, Infallible> {
    let auth_change = state.variant.auth_change();
    if let (Some(cfg), &hyper::Method::GET) = (&state.auth, req.method()) {
        // the metadata is public: a client reads it before it has a token
        if let Some(r) = auth::metadata(cfg, req.uri().path(), auth_change) {
            return Ok(write(r));
        }
    }
    if let (Some(addr), true) = (local, is_card_request(&req, state.variant)) {
        return Ok(server_card(state.scheme, addr, &state.surface.endpoint));
    }
    if req.uri().path() != state.surface.endpoint {
        return Ok(plain(404, "not found\n"));
    }
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Ok(plain(413, "request body too large\n"));
    }
    let method = req.method().as_str().to_string();
    let path = req
        .uri()
        .path_and_query()
        .map_or_else(|| req.uri().path().to_string(), |p| p.as_str().to_string());
    let headers = req
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                canonical_name(n.as_str()).into_bytes(),
                v.as_bytes().to_vec(),
            )
        })
        .collect();
    let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(c) => c.to_bytes().to_vec(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return Ok(plain(413, "request body too large\n"))
        }
        Err(_) => return Ok(plain(400, "unreadable request body\n")),
    };
    let mut case = Case {
        method,
        path,
        headers,
        body,
        labels: Vec::new(),
    };
    if state.variant == Variant::TrustsKnownConnection {
        // a poisoned lock only means another request on this connection panicked: the
        // context it holds is still the connection's
        let mut k = known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        mcpdiff_oracle::reference::connection::trust_known_connection(&mut case, &mut k);
    }
    if let Some(refusal) = state
        .auth
        .as_ref()
        .and_then(|cfg| auth::guard(cfg, &case, auth_change))
    {
        return Ok(write(refusal));
    }
    // a dual-era server answers `initialize` and its session by 2025-11-25 (the null
    // server stays null)
    let legacy = match (&state.legacy, state.variant) {
        (Some(l), _) if state.legacy_only => Some(l.respond_any(&case, &state.surface)),
        (
            Some(l),
            Variant::Reference
            | Variant::Mutant(_)
            | Variant::TrustsKnownConnection
            | Variant::ListSideEffect(_),
        ) => l.respond(&case, &state.surface),
        _ => None,
    };
    let mut resp = match legacy {
        Some(r) => r,
        None => state.variant.respond(&case, &state.surface),
    };
    if let Variant::ListSideEffect(kind) = state.variant {
        let mut t = touched.load(Ordering::SeqCst);
        mcpdiff_oracle::reference::list_side_effect::side_effect(kind, &case, &mut resp, &mut t);
        touched.store(t, Ordering::SeqCst);
    }
    if let Some((head, stream)) = super::slow::intercept(&state.extras, &case, &resp) {
        let mut r = write(head);
        *r.body_mut() = stream.boxed_unsync();
        return Ok(r);
    }
    Ok(write(resp))
}

/// The canonical spelling of a (lowercased) header name: `MCP-Protocol-Version`,
/// `Last-Event-ID`, otherwise each dash-separated word capitalized (`Mcp-Param-Region`).
fn canonical_name(lower: &str) -> String {
    match lower {
        "mcp-protocol-version" => return "MCP-Protocol-Version".to_string(),
        "last-event-id" => return "Last-Event-ID".to_string(),
        _ => {}
    }
    lower
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// A GET of the server-card location (every variant but the null server publishes one).
fn is_card_request(req: &Request<Incoming>, variant: Variant) -> bool {
    req.method() == hyper::Method::GET
        && req.uri().path() == crate::card::CARD_PATHS[0]
        && variant != Variant::Null
}

/// `200 application/json` with the card of this server (built by `crate::card`).
fn server_card(scheme: &str, addr: std::net::SocketAddr, endpoint: &str) -> hyper::Response<Out> {
    let card = crate::card::reference_card(&format!("{scheme}://{addr}{endpoint}"));
    // serializing a Value cannot fail (all keys are strings)
    let bytes = serde_json::to_vec(&card).unwrap_or_default();
    let mut r = hyper::Response::new(Full::new(Bytes::from(bytes)).boxed_unsync());
    r.headers_mut()
        .insert("content-type", HeaderValue::from_static("application/json"));
    r
}

fn plain(status: u16, text: &'static str) -> hyper::Response<Out> {
    let mut r = hyper::Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed_unsync());
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    r.headers_mut().insert(
        "content-type",
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

/// Turn a pure `Response` into a hyper response (starting the keep-alive for open streams).
fn write(resp: Response) -> hyper::Response<Out> {
    let body: Out = match resp.body {
        ResponseBody::Empty => Empty::new().boxed_unsync(),
        // serializing a Value cannot fail (all keys are strings)
        ResponseBody::Json(v) => {
            Full::new(Bytes::from(serde_json::to_vec(&v).unwrap_or_default())).boxed_unsync()
        }
        ResponseBody::Raw(bytes) => Full::new(Bytes::from(bytes)).boxed_unsync(),
        ResponseBody::Stream { events, keep_open } => {
            let text: String = events.iter().map(|e| e.to_text()).collect();
            if keep_open {
                open_stream(text).boxed_unsync()
            } else {
                Full::new(Bytes::from(text)).boxed_unsync()
            }
        }
        ResponseBody::Sse { events, keep_open } => {
            let text = sse_text(&events);
            if keep_open {
                open_stream(text).boxed_unsync()
            } else {
                Full::new(Bytes::from(text)).boxed_unsync()
            }
        }
    };
    let mut r = hyper::Response::new(body);
    *r.status_mut() =
        StatusCode::from_u16(resp.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (n, v) in resp.headers {
        // the pure layer only produces valid names and values; skip anything else
        if let (Ok(n), Ok(v)) = (HeaderName::try_from(n), HeaderValue::try_from(v)) {
            r.headers_mut().append(n, v);
        }
    }
    r
}

/// SSE framing: one `data:` line per event (compact JSON has no newlines).
fn sse_text(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: message\ndata: {e}\n\n"))
        .collect()
}

/// A streaming body: `first`, then a `:` comment every `KEEPALIVE` until the client goes
/// away (the send fails) or `STREAM_LIMIT` passes.
fn open_stream(first: String) -> Channel<Bytes, Infallible> {
    let (mut tx, body) = Channel::new(4);
    tokio::spawn(async move {
        if tx.send_data(Bytes::from(first)).await.is_err() {
            return;
        }
        let start = tokio::time::Instant::now();
        while start.elapsed() < STREAM_LIMIT {
            tokio::time::sleep(KEEPALIVE).await;
            if tx.send_data(Bytes::from_static(b":\n\n")).await.is_err() {
                return;
            }
        }
    });
    body
}

#[cfg(test)]
mod tests {
    use super::canonical_name;

    #[test]
    fn names_are_canonicalized() {
        assert_eq!(
            canonical_name("mcp-protocol-version"),
            "MCP-Protocol-Version"
        );
        assert_eq!(canonical_name("mcp-param-region"), "Mcp-Param-Region");
        assert_eq!(canonical_name("mcp-name"), "Mcp-Name");
        assert_eq!(canonical_name("last-event-id"), "Last-Event-ID");
    }
}
