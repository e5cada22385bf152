//! `Client`: sends one `Case` over raw TCP (or TLS over it, for `https://`) and returns the
//! normalized `Observation`.
//!
//! Raw `TcpStream` on purpose: hyper and reqwest would validate and normalize the header bytes
//! the case exists to send; over TLS the same bytes go inside the session. The client owns the
//! connection lifecycle: connect (and handshake) within the connect timeout, write the exact bytes while already reading the answer, keep a clean
//! keep-alive connection for the next case, and retry once on a fresh connection when a
//! reused one turns out to be dead before it sent a single byte.

use super::conn::{ConnReader, Pool};
use super::credentials::Credentials;
use super::endpoint::Endpoint;
use super::errors::TlsError;
use super::limits::Limits;
use super::response::{read_response, OnAnswer, ReadOutcome};
use super::stream::Stream;
use super::tls::Tls;
use super::wire::{encode_request_with, frames_cleanly};
use mcpdiff_oracle::{Case, Observation, TransportFailure};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{timeout_at, Instant};

/// The transport client. Cheap to clone (shared pool and limits); use it from as many tasks
/// as the runner likes.
#[derive(Clone, Debug, Default)]
pub struct Client {
    inner: Arc<ClientInner>,
}

#[derive(Debug, Default)]
struct ClientInner {
    limits: Limits,
    pool: Pool,
    /// The run's `--header` fields, added at send time (never stored in a case).
    creds: Credentials,
    /// How `https://` endpoints are verified (built once per run).
    tls: Tls,
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

/// How one answer is read: within `limits`, until `deadline`, telling `on_answer`, and with
/// `quiet`, an SSE body also cut by silence (`Limits::sse_quiet`).
#[derive(Clone, Copy)]
struct Reading<'a> {
    limits: &'a Limits,
    deadline: Instant,
    on_answer: OnAnswer<'a>,
    quiet: bool,
}

/// One attempt on one connection.
struct Attempt {
    outcome: ReadOutcome,
    stream: Stream,
    /// Bytes received in this attempt (0 on a reused connection means "dead before use").
    received: usize,
}

impl Client {
    /// A client with these limits and an empty connection pool; `https://` endpoints are
    /// verified against the webpki roots.
    pub fn new(limits: Limits) -> Client {
        Client::with_tls(limits, Tls::default())
    }

    /// A client whose `https://` connections use `tls` (`--cacert`, `--insecure`).
    pub fn with_tls(limits: Limits, tls: Tls) -> Client {
        Client::configured(limits, Credentials::default(), tls)
    }

    /// A client with the run's `--header` fields and TLS settings.
    pub fn configured(limits: Limits, creds: Credentials, tls: Tls) -> Client {
        Client {
            inner: Arc::new(ClientInner {
                limits,
                pool: Pool::default(),
                creds,
                tls,
            }),
        }
    }

    /// A client with these limits (keeping at most `pool_per_endpoint` idle connections
    /// per endpoint: 0 for a fresh connection per request), credentials and TLS settings,
    /// and an empty pool of its own (the connection probe, `runner::reuse_probe`).
    pub fn with_own_pool(&self, pool_per_endpoint: usize) -> Client {
        let mut limits = self.inner.limits.clone();
        limits.pool_per_endpoint = pool_per_endpoint;
        Client::configured(limits, self.inner.creds.clone(), self.inner.tls.clone())
    }

    /// The TLS settings of `https://` connections.
    pub fn tls(&self) -> &Tls {
        &self.inner.tls
    }

    /// For an `https://` endpoint: connect and handshake once, so a run can refuse to start
    /// with the one-line cause (unknown issuer, name mismatch, plain HTTP behind https...)
    /// instead of judging cases that never reached the server. The connection is pooled.
    /// Plain endpoints: `Ok` without connecting.
    pub async fn check_tls(&self, endpoint: &Endpoint) -> Result<(), TlsError> {
        if !endpoint.is_tls() {
            return Ok(());
        }
        let limits = &self.inner.limits;
        let deadline = Instant::now() + limits.connect_timeout * 2;
        let tcp = match connect_tcp(endpoint, limits, deadline).await {
            Ok(tcp) => tcp,
            // Not a TLS matter: discovery reports the refused connection in its own words.
            Err(_) => return Ok(()),
        };
        let handshake = self.inner.tls.handshake(tcp, endpoint);
        match timeout_at(deadline, handshake).await {
            Ok(Ok(tls)) => {
                if limits.pool_per_endpoint > 0 {
                    let stream = Stream::Tls(Box::new(tls));
                    self.inner
                        .pool
                        .checkin(endpoint, stream, limits.pool_per_endpoint);
                }
                Ok(())
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(TlsError::NoAnswer {
                at: endpoint.authority_with_port(),
                within: limits.connect_timeout * 2,
            }),
        }
    }

    /// A client that sends `creds` with every case (see `Credentials`).
    pub fn with_credentials(limits: Limits, creds: Credentials) -> Client {
        Client::configured(limits, creds, Tls::default())
    }

    /// The configured `--header` fields.
    pub fn credentials(&self) -> &Credentials {
        &self.inner.creds
    }

    /// Send `case` exactly as it is: placeholders filled, but no configured field added
    /// (the authorization probes choose their own credentials, or none).
    pub async fn send_exact(&self, case: &Case, endpoint: &Endpoint) -> Observation {
        self.exchange_with(case, endpoint, false, &|| {}, false)
            .await
            .observation
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
        self.exchange_with(case, endpoint, true, &|| {}, false)
            .await
    }

    /// `send` for a request that opens a listening stream (a GET): an SSE answer also ends
    /// once it stayed silent for `Limits::sse_quiet`, as `closed: false`, instead of being
    /// held to `sse_max_time`. Everything else (head, plain bodies, limits) is `send`'s.
    pub async fn send_listening(&self, case: &Case, endpoint: &Endpoint) -> Observation {
        self.exchange_with(case, endpoint, true, &|| {}, true)
            .await
            .observation
    }

    /// `send`, telling `on_answer` when the request is answered before the observation is
    /// complete (an SSE stream then read for its idle window). The observation is `send`'s.
    pub async fn send_noting(
        &self,
        case: &Case,
        endpoint: &Endpoint,
        on_answer: OnAnswer<'_>,
    ) -> Observation {
        self.exchange_with(case, endpoint, true, on_answer, false)
            .await
            .observation
    }

    async fn exchange_with(
        &self,
        case: &Case,
        endpoint: &Endpoint,
        append: bool,
        on_answer: OnAnswer<'_>,
        quiet: bool,
    ) -> Exchange {
        let start = Instant::now();
        let limits = &self.inner.limits;
        let deadline = start + limits.total;
        let request = encode_request_with(case, endpoint, &self.inner.creds, append);
        let reading = Reading {
            limits,
            deadline,
            on_answer,
            quiet,
        };
        let pool = &self.inner.pool;
        let done = |outcome: ReadOutcome, stream: Stream, reused: bool| {
            if outcome.reusable && frames_cleanly(case) && limits.pool_per_endpoint > 0 {
                pool.checkin(endpoint, stream, limits.pool_per_endpoint);
            }
            Exchange {
                observation: outcome.observation,
                elapsed: start.elapsed(),
                reused_connection: reused,
            }
        };

        if limits.pool_per_endpoint > 0 {
            if let Some(stream) = pool.checkout(endpoint) {
                let a = attempt(stream, &request, &case.method, reading).await;
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
        let stream = match connect(endpoint, &self.inner.tls, limits, deadline).await {
            Ok(stream) => stream,
            Err(failure) => {
                return Exchange {
                    observation: Observation::Transport { failure },
                    elapsed: start.elapsed(),
                    reused_connection: false,
                }
            }
        };
        let a = attempt(stream, &request, &case.method, reading).await;
        done(a.outcome, a.stream, false)
    }
}

/// Connect (and, for `https://`, handshake) within the connect timeout each. Any failure to
/// connect, a slow one or a failed handshake included, is `Refused` (the enum's "refused or
/// failed"), unless the whole case ran out of time first. Mid-run that is an ordinary
/// transport failure; before the run `Client::check_tls` gives the handshake's cause.
async fn connect(
    endpoint: &Endpoint,
    tls: &Tls,
    limits: &Limits,
    deadline: Instant,
) -> Result<Stream, TransportFailure> {
    let tcp = connect_tcp(endpoint, limits, deadline).await?;
    if !endpoint.is_tls() {
        return Ok(Stream::Plain(tcp));
    }
    let handshake_deadline = deadline.min(Instant::now() + limits.connect_timeout);
    match timeout_at(handshake_deadline, tls.handshake(tcp, endpoint)).await {
        Ok(Ok(stream)) => Ok(Stream::Tls(Box::new(stream))),
        Ok(Err(_)) => Err(TransportFailure::Refused),
        Err(_) if Instant::now() >= deadline => Err(TransportFailure::Timeout),
        Err(_) => Err(TransportFailure::Refused),
    }
}

/// The TCP connection alone, within the connect timeout.
async fn connect_tcp(
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
async fn attempt(stream: Stream, request: &[u8], method: &str, reading: Reading<'_>) -> Attempt {
    let (mut outcome, wrote, received, stream) = match stream {
        Stream::Plain(mut tcp) => {
            // Borrowed halves: no lock on the plain path; the borrows end with the call.
            let (r, w) = tcp.split();
            let (o, wrote, received) = exchange_on(r, w, request, method, reading).await;
            (o, wrote, received, Stream::Plain(tcp))
        }
        Stream::Tls(tls) => {
            // A TLS session reads and writes shared state: tokio's split (a lock) is needed.
            let (mut r, mut w) = tokio::io::split(*tls);
            let (o, wrote, received) = exchange_on(&mut r, &mut w, request, method, reading).await;
            (o, wrote, received, Stream::Tls(Box::new(r.unsplit(w))))
        }
    };
    // A request not fully written leaves the connection mid-request.
    outcome.reusable &= wrote == Some(true);
    Attempt {
        outcome,
        stream,
        received,
    }
}

/// Write `request` on `write_half` while reading the answer from `read_half`.
async fn exchange_on<R, W>(
    read_half: R,
    mut write_half: W,
    request: &[u8],
    method: &str,
    reading: Reading<'_>,
) -> (ReadOutcome, Option<bool>, usize)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = ConnReader::new(read_half);
    let write = async move {
        write_half.write_all(request).await?;
        // TLS buffers records: flush so the last one leaves now (a no-op for TCP).
        write_half.flush().await
    };
    tokio::pin!(write);
    let mut wrote: Option<bool> = None;
    let outcome = {
        let Reading {
            limits,
            deadline,
            on_answer,
            quiet,
        } = reading;
        let read = read_response(&mut reader, method, limits, deadline, on_answer, quiet);
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
}
