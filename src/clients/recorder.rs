//! The recording server: a loopback HTTP/1.1 server that serves a tool set to one client
//! driver and keeps every request it receives (raw header values and body), for the client
//! judge. Bounded: bodies over [`MAX_BODY`] are refused with 413, and at most
//! [`MAX_REQUESTS`] requests are kept (a client in a loop cannot grow memory).

use super::answer::answer;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use mcpdiff_oracle::client_judge::RecordedRequest;
use mcpdiff_oracle::toolset::ToolSet;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Largest request body read.
pub const MAX_BODY: usize = 1024 * 1024;
/// Most requests kept per driver run.
pub const MAX_REQUESTS: usize = 20_000;
/// The endpoint path.
pub const ENDPOINT: &str = "/mcp";

struct RecorderState {
    set: ToolSet,
    log: Mutex<Recording>,
    /// The retry probe: refuse the first `tools/call` with 400 / -32020 and serve this set
    /// from then on (the changed `inputSchema` the client should pick up).
    then_serve: Option<ToolSet>,
}

/// What a recording server saw.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    pub requests: Vec<RecordedRequest>,
    /// Indices into `requests` that were answered 400 / -32020 on purpose.
    pub refused: Vec<usize>,
}

/// A running recording server.
pub struct Recorder {
    pub url: String,
    shared: Arc<RecorderState>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Recorder {
    /// Bind a free loopback port and serve `set`; with `then_serve`, refuse the first
    /// `tools/call` with 400 / -32020 and serve `then_serve` after it.
    pub async fn start(set: ToolSet, then_serve: Option<ToolSet>) -> std::io::Result<Recorder> {
        let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(RecorderState {
            set,
            log: Mutex::new(Recording::default()),
            then_serve,
        });
        let (stop, mut stopped) = oneshot::channel::<()>();
        let s = shared.clone();
        let task = tokio::spawn(async move {
            let mut conns = tokio::task::JoinSet::new();
            loop {
                tokio::select! {
                    _ = &mut stopped => break,
                    acc = listener.accept() => {
                        let Ok((stream, _)) = acc else { continue };
                        let s = s.clone();
                        conns.spawn(async move {
                            let svc = service_fn(move |req| handle(req, s.clone()));
                            let _ = hyper::server::conn::http1::Builder::new()
                                .serve_connection(TokioIo::new(stream), svc)
                                .await;
                        });
                    }
                }
            }
            conns.abort_all();
        });
        Ok(Recorder {
            url: format!("http://{addr}{ENDPOINT}"),
            shared,
            stop: Some(stop),
            task,
        })
    }

    /// Stop serving and hand back everything recorded, in arrival order.
    pub async fn finish(mut self) -> Recording {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
        let mut log = self.shared.log.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut *log)
    }
}

async fn handle(
    req: Request<Incoming>,
    s: Arc<RecorderState>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = req.method().as_str().to_string();
    let headers: Vec<(String, Vec<u8>)> = req
        .headers()
        .iter()
        .map(|(n, v)| (n.as_str().to_string(), v.as_bytes().to_vec()))
        .collect();
    let path_ok = req.uri().path() == ENDPOINT;
    let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(b) => b.to_bytes().to_vec(),
        Err(_) => return Ok(plain(413, "")),
    };
    let (refuse, after_refusal) = {
        let mut log = s.log.lock().unwrap_or_else(|e| e.into_inner());
        let is_call = method == "POST"
            && serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|b| b.get("method").cloned())
                == Some(serde_json::Value::from("tools/call"));
        let refuse = s.then_serve.is_some() && is_call && log.refused.is_empty();
        if log.requests.len() < MAX_REQUESTS {
            if refuse {
                let at = log.requests.len();
                log.refused.push(at);
            }
            log.requests.push(RecordedRequest {
                method: method.clone(),
                headers,
                body: body.clone(),
            });
        }
        (refuse, !log.refused.is_empty())
    };
    if !path_ok {
        return Ok(plain(404, ""));
    }
    if method != "POST" {
        let mut r = plain(405, "");
        r.headers_mut()
            .insert("allow", hyper::header::HeaderValue::from_static("POST"));
        return Ok(r);
    }
    let a = if refuse {
        super::answer::header_mismatch(&body)
    } else {
        match (&s.then_serve, after_refusal) {
            (Some(changed), true) => answer(changed, &body),
            _ => answer(&s.set, &body),
        }
    };
    Ok(match a.body {
        None => plain(a.status, ""),
        Some(v) => {
            let mut r = plain(a.status, &v.to_string());
            r.headers_mut().insert(
                "content-type",
                hyper::header::HeaderValue::from_static("application/json"),
            );
            r
        }
    })
}

fn plain(status: u16, body: &str) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body.to_string())));
    *r.status_mut() = hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::OK);
    r
}
