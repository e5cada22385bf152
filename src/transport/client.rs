//! `Client`: sends one `Case` over raw TCP and returns the normalized `Observation`.
//!
//! Raw `TcpStream` on purpose: hyper and reqwest would validate and normalize the header bytes
//! the case exists to send. The client owns the connection lifecycle: connect within the
//! connect timeout, write the exact bytes while already reading the answer, keep a clean
//! keep-alive connection for the next case, and retry once on a fresh connection when a
//! reused one turns out to be dead before it sent a single byte.

use super::conn::{Pool, Reader};
use super::credentials::Credentials;
use super::endpoint::Endpoint;
use super::limits::Limits;
use super::response::{read_response, Outcome};
use super::wire::{encode_request_with, frames_cleanly};
use mcpdiff_oracle::{Case, Observation, TransportFailure};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::time::{timeout_at, Instant};

/// The transport client. Cheap to clone (shared pool and limits); use it from as many tasks
/// as the runner likes.
#[derive(Clone, Debug, Default)]
pub struct Client {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    limits: Limits,
    pool: Pool,
    /// The run's `--header` fields, added at send time (never stored in a case).
    creds: Credentials,
}

/// One case's exchange, with the details a runner may want besides the observation.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    pub observation: Observation,
    /// Wall time from the start of `send` to the observation.
    pub elapsed: Duration,
    /// Whether the answer came over a pooled keep-alive connection.
    pub reused_connection: bool,
}

/// One attempt on one connection.
struct Attempt {
    outcome: Outcome,
    stream: TcpStream,
    /// Bytes received in this attempt (0 on a reused connection means "dead before use").
    received: usize,
}

impl Client {
    /// A client with these limits and an empty connection pool.
    pub fn new(limits: Limits) -> Client {
        Client {
            inner: Arc::new(Inner {
                limits,
                pool: Pool::default(),
                creds: Credentials::default(),
            }),
        }
    }

    /// A client that sends `creds` with every case (see `Credentials`).
    pub fn with_credentials(limits: Limits, creds: Credentials) -> Client {
        Client {
            inner: Arc::new(Inner {
                limits,
                pool: Pool::default(),
                creds,
            }),
        }
    }

    /// The configured `--header` fields.
    pub fn credentials(&self) -> &Credentials {
        &self.inner.creds
    }

    /// Send `case` exactly as it is: placeholders filled, but no configured field added
    /// (the authorization probes choose their own credentials, or none).
    pub async fn send_exact(&self, case: &Case, endpoint: &Endpoint) -> Observation {
        self.exchange_with(case, endpoint, false).await.observation
    }

    /// The limits every case runs under.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// Send `case` to `endpoint` and observe the answer. Never panics, and returns within
    /// `limits.total` (plus scheduling slack) whatever the target does.
    pub async fn send(&self, case: &Case, endpoint: &Endpoint) -> Observation {
        self.exchange(case, endpoint).await.observation
    }

    /// `send`, with timing and connection details.
    pub async fn exchange(&self, case: &Case, endpoint: &Endpoint) -> Exchange {
        self.exchange_with(case, endpoint, true).await
    }

    async fn exchange_with(&self, case: &Case, endpoint: &Endpoint, append: bool) -> Exchange {
        let start = Instant::now();
        let limits = &self.inner.limits;
        let deadline = start + limits.total;
        let request = encode_request_with(case, endpoint, &self.inner.creds, append);
        let pool = &self.inner.pool;
        let done = |outcome: Outcome, stream: TcpStream, reused: bool| {
            if outcome.reusable && frames_cleanly(case) && limits.pool_per_endpoint > 0 {
                pool.checkin(
                    &endpoint.host,
                    endpoint.port,
                    stream,
                    limits.pool_per_endpoint,
                );
            }
            Exchange {
                observation: outcome.observation,
                elapsed: start.elapsed(),
                reused_connection: reused,
            }
        };

        if limits.pool_per_endpoint > 0 {
            if let Some(stream) = pool.checkout(&endpoint.host, endpoint.port) {
                let a = attempt(stream, &request, &case.method, limits, deadline).await;
                let dead_on_arrival = a.received == 0
                    && a.outcome.observation
                        == (Observation::Transport {
                            failure: TransportFailure::Reset,
                        });
                if !dead_on_arrival {
                    return done(a.outcome, a.stream, true);
                }
                // The server closed the idle connection before our request reached it: that
                // says nothing about the case, so try once more on a fresh connection.
            }
        }
        let stream = match connect(endpoint, limits, deadline).await {
            Ok(stream) => stream,
            Err(failure) => {
                return Exchange {
                    observation: Observation::Transport { failure },
                    elapsed: start.elapsed(),
                    reused_connection: false,
                }
            }
        };
        let a = attempt(stream, &request, &case.method, limits, deadline).await;
        done(a.outcome, a.stream, false)
    }
}

/// Connect within the connect timeout. Any failure to connect, a slow one included, is
/// `Refused` (the enum's "refused or failed"), unless the whole case ran out of time first.
async fn connect(
    endpoint: &Endpoint,
    limits: &Limits,
    deadline: Instant,
) -> Result<TcpStream, TransportFailure> {
    let connect_deadline = deadline.min(Instant::now() + limits.connect_timeout);
    let connecting = TcpStream::connect((endpoint.host.as_str(), endpoint.port));
    match timeout_at(connect_deadline, connecting).await {
        Ok(Ok(stream)) => {
            // One write per request; Nagle would only delay a trailing segment.
            let _ = stream.set_nodelay(true);
            Ok(stream)
        }
        Ok(Err(_)) => Err(TransportFailure::Refused),
        Err(_) if Instant::now() >= deadline => Err(TransportFailure::Timeout),
        Err(_) => Err(TransportFailure::Refused),
    }
}

/// Write `request` and read the answer concurrently on `stream`.
async fn attempt(
    mut stream: TcpStream,
    request: &[u8],
    method: &str,
    limits: &Limits,
    deadline: Instant,
) -> Attempt {
    // Both halves borrow `stream`; the block ends the borrows so the stream can be pooled.
    let (mut outcome, wrote, received) = {
        let (read_half, mut write_half) = stream.split();
        let mut reader = Reader::new(read_half);
        let write = async move { write_half.write_all(request).await };
        tokio::pin!(write);
        let mut wrote: Option<bool> = None;
        let outcome = {
            let read = read_response(&mut reader, method, limits, deadline);
            tokio::pin!(read);
            loop {
                tokio::select! {
                    // Write first, so a request written in one go is known complete.
                    biased;
                    // A failed write is not itself a verdict: the server may have answered
                    // and closed early (413, 400), which the read still sees.
                    res = &mut write, if wrote.is_none() => wrote = Some(res.is_ok()),
                    outcome = &mut read => break outcome,
                }
            }
        };
        (outcome, wrote, reader.received)
    };
    // A request not fully written leaves the connection mid-request.
    outcome.reusable &= wrote == Some(true);
    Attempt {
        outcome,
        stream,
        received,
    }
}
