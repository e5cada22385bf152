//! Connections: a buffered reader whose every read has a deadline, and the keep-alive pool.
//!
//! The reader is generic over the read half so the client can keep writing the request while
//! it already reads the answer (a server may answer early, e.g. 413, without reading a large
//! body; waiting for the write to finish first would turn that into a timeout).

use super::endpoint::Endpoint;
use super::stream::Stream;
use bytes::BufMut;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::time::{timeout_at, Instant};

/// Why a read returned no bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The peer closed its side (orderly EOF).
    Eof,
    /// The connection failed (reset, broken pipe, ...).
    Io,
}

/// Bytes per read: small enough to stop close to a limit, big enough for speed.
const READ_SIZE: usize = 16 * 1024;

/// A read half with a buffer of received, not yet consumed bytes.
pub(crate) struct ConnReader<R> {
    inner: R,
    /// Received bytes not consumed yet.
    pub buf: Vec<u8>,
    /// Total bytes received on this exchange (the retry rule needs "none at all").
    pub received: usize,
}

impl<R: AsyncRead + Unpin> ConnReader<R> {
    pub fn new(inner: R) -> Self {
        ConnReader {
            inner,
            buf: Vec::new(),
            received: 0,
        }
    }

    /// Read once more into `buf` (at most `READ_SIZE` bytes), waiting at most until
    /// `deadline`. The bytes land in `buf`'s spare capacity: no zeroed scratch chunk and no
    /// copy (profiled: zeroing and copying a 16 KiB chunk per read was ~20% of the
    /// client's instructions per case).
    pub async fn fill(&mut self, deadline: Instant) -> Result<usize, ReadError> {
        self.buf.reserve(READ_SIZE);
        let mut room = (&mut self.buf).limit(READ_SIZE);
        match timeout_at(deadline, self.inner.read_buf(&mut room)).await {
            Err(_) => Err(ReadError::Timeout),
            Ok(Err(_)) => Err(ReadError::Io),
            Ok(Ok(0)) => Err(ReadError::Eof),
            Ok(Ok(n)) => {
                self.received += n;
                Ok(n)
            }
        }
    }

    /// Remove and return the first `n` buffered bytes (`n <= buf.len()`).
    pub fn take(&mut self, n: usize) -> Vec<u8> {
        let n = n.min(self.buf.len());
        let rest = self.buf.split_off(n);
        std::mem::replace(&mut self.buf, rest)
    }

    /// Drop the first `n` buffered bytes.
    pub fn consume(&mut self, n: usize) {
        let n = n.min(self.buf.len());
        self.buf.drain(..n);
    }

    /// Take one line (up to and including LF) once it is buffered, reading as needed. The line
    /// is returned without its LF or CRLF. `max` bounds how long a line may grow: a longer one
    /// is a framing error (`Ok(None)`).
    pub async fn line(
        &mut self,
        max: usize,
        deadline: Instant,
    ) -> Result<Option<Vec<u8>>, ReadError> {
        let mut scanned = 0;
        loop {
            if let Some(i) = self.buf[scanned..].iter().position(|&b| b == b'\n') {
                let mut line = self.take(scanned + i + 1);
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some(line));
            }
            scanned = self.buf.len();
            if scanned > max {
                return Ok(None);
            }
            self.fill(deadline).await?;
        }
    }
}

/// Pool key: TLS or not, host, port (an `http://` and an `https://` URL may name one port).
type Key = (bool, String, u16);

/// Idle keep-alive connections, per endpoint address and scheme. A std mutex is enough: it
/// is held only to push or pop, never across an await.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    idle: Mutex<HashMap<Key, Vec<Stream>>>,
}

fn key(e: &Endpoint) -> Key {
    (e.is_tls(), e.host.clone(), e.port)
}

impl Pool {
    /// An idle connection to `endpoint` that still looks open, if any.
    pub fn checkout(&self, endpoint: &Endpoint) -> Option<Stream> {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        let conns = idle.get_mut(&key(endpoint))?;
        while let Some(stream) = conns.pop() {
            if stream.looks_open() {
                return Some(stream);
            }
        }
        None
    }

    /// Keep `stream` for the next case to `endpoint`, unless `cap` connections already wait.
    pub fn checkin(&self, endpoint: &Endpoint, stream: Stream, cap: usize) {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        let conns = idle.entry(key(endpoint)).or_default();
        if conns.len() < cap {
            conns.push(stream);
        }
    }
}
