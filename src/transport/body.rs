//! Body framing: decoding `Content-Length`, chunked and read-until-close bodies piece by
//! piece, and classifying a complete non-SSE body (empty, JSON, other).
//!
//! The decoder hands out pieces instead of a whole body so the caller can stop at its limits
//! (size, events, time) without ever buffering more than one read beyond them.

use super::conn::{ConnReader, ReadError};
use super::head::Framing;
use super::sse::truncate;
use mcpdiff_oracle::Body;
use tokio::io::AsyncRead;
use tokio::time::Instant;

/// Why the body did not end normally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyError {
    /// The deadline passed.
    Timeout,
    /// The connection ended before the framing said the body was complete.
    Closed,
    /// Chunked framing that cannot be decoded.
    BadFraming,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FramingState {
    Length(u64),
    UntilClose,
    ChunkSize,
    ChunkData(u64),
    ChunkEnd,
    Trailers(usize),
    Done,
}

/// Longest chunk-size line accepted (extensions included); real ones are a few bytes.
const MAX_CHUNK_LINE: usize = 4096;

/// Decodes one body from a `ConnReader`.
#[derive(Debug)]
pub(crate) struct Decoder {
    state: FramingState,
    /// Whether the end is marked in the stream (length or last chunk) rather than by close.
    framed: bool,
    /// Bound on trailer bytes.
    max_trailers: usize,
}

impl Decoder {
    pub fn new(framing: Framing, max_trailers: usize) -> Self {
        let state = match framing {
            Framing::NoBody => FramingState::Done,
            Framing::Length(n) => FramingState::Length(n),
            Framing::Chunked => FramingState::ChunkSize,
            Framing::UntilClose => FramingState::UntilClose,
        };
        Decoder {
            state,
            framed: framing != Framing::UntilClose,
            max_trailers,
        }
    }

    /// Whether the body ended where its framing said, leaving the connection usable.
    pub fn finished_framed(&self) -> bool {
        self.framed && self.state == FramingState::Done
    }

    /// The next piece of body, or `None` once the body is complete.
    pub async fn next<R: AsyncRead + Unpin>(
        &mut self,
        r: &mut ConnReader<R>,
        deadline: Instant,
    ) -> Result<Option<Vec<u8>>, BodyError> {
        loop {
            match self.state {
                FramingState::Done => return Ok(None),
                FramingState::Length(0) => self.state = FramingState::Done,
                FramingState::ChunkData(0) => self.state = FramingState::ChunkEnd,
                FramingState::Length(n) | FramingState::ChunkData(n) => {
                    if r.buf.is_empty() {
                        r.fill(deadline).await.map_err(closed_or_timeout)?;
                    }
                    let take = usize::try_from(n).unwrap_or(usize::MAX).min(r.buf.len());
                    let piece = r.take(take);
                    let left = n - take as u64;
                    self.state = match self.state {
                        FramingState::Length(_) => FramingState::Length(left),
                        _ => FramingState::ChunkData(left),
                    };
                    return Ok(Some(piece));
                }
                FramingState::UntilClose => {
                    if r.buf.is_empty() {
                        match r.fill(deadline).await {
                            Ok(_) => {}
                            Err(ReadError::Timeout) => return Err(BodyError::Timeout),
                            // Close is the end marker here; a reset at close is common for
                            // servers that close with unread request bytes, so it counts too.
                            Err(ReadError::Eof | ReadError::Io) => {
                                self.state = FramingState::Done;
                                return Ok(None);
                            }
                        }
                    }
                    let n = r.buf.len();
                    return Ok(Some(r.take(n)));
                }
                FramingState::ChunkSize => {
                    let line = self.line(r, MAX_CHUNK_LINE, deadline).await?;
                    self.state = match chunk_size(&line) {
                        Some(0) => FramingState::Trailers(0),
                        Some(n) => FramingState::ChunkData(n),
                        None => return Err(BodyError::BadFraming),
                    };
                }
                FramingState::ChunkEnd => {
                    if !self.line(r, 2, deadline).await?.is_empty() {
                        return Err(BodyError::BadFraming);
                    }
                    self.state = FramingState::ChunkSize;
                }
                FramingState::Trailers(seen) => {
                    let line = self.line(r, self.max_trailers, deadline).await?;
                    if line.is_empty() {
                        self.state = FramingState::Done;
                    } else if seen + line.len() > self.max_trailers {
                        return Err(BodyError::BadFraming);
                    } else {
                        self.state = FramingState::Trailers(seen + line.len() + 2);
                    }
                }
            }
        }
    }

    async fn line<R: AsyncRead + Unpin>(
        &self,
        r: &mut ConnReader<R>,
        max: usize,
        deadline: Instant,
    ) -> Result<Vec<u8>, BodyError> {
        match r.line(max, deadline).await {
            Ok(Some(line)) => Ok(line),
            Ok(None) => Err(BodyError::BadFraming),
            Err(e) => Err(closed_or_timeout(e)),
        }
    }
}

fn closed_or_timeout(e: ReadError) -> BodyError {
    match e {
        ReadError::Timeout => BodyError::Timeout,
        ReadError::Eof | ReadError::Io => BodyError::Closed,
    }
}

/// `1a;ext=1` → 26. At most 15 hex digits, so the size fits in a u64 with room to spare.
fn chunk_size(line: &[u8]) -> Option<u64> {
    let size = line.split(|&b| b == b';').next().unwrap_or(line);
    let size = mcpdiff_oracle::case::trim_ows(size);
    if size.is_empty() || size.len() > 15 || !size.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u64::from_str_radix(std::str::from_utf8(size).ok()?, 16).ok()
}

/// Classify a complete (bounded) non-SSE body: empty, JSON (whatever the content type
/// claimed), or other bytes with a short prefix.
pub(crate) fn classify(bytes: &[u8], keep_chars: usize) -> Body {
    if bytes.is_empty() {
        return Body::Empty;
    }
    match serde_json::from_slice(bytes) {
        Ok(value) => Body::Json { value },
        Err(_) => {
            // Cut bytes first so a huge body is not decoded whole just to keep a prefix;
            // 4 bytes per char covers any UTF-8.
            let cut = &bytes[..bytes.len().min(keep_chars.saturating_mul(4))];
            Body::Other {
                len: bytes.len(),
                prefix: truncate(&String::from_utf8_lossy(cut), keep_chars),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::Duration;

    async fn decode(framing: Framing, raw: &[u8]) -> (Result<Vec<u8>, BodyError>, bool, Vec<u8>) {
        let mut r = ConnReader::new(raw);
        let mut d = Decoder::new(framing, 1024);
        let deadline = Instant::now() + Duration::from_secs(1);
        let mut out = Vec::new();
        let res = loop {
            match d.next(&mut r, deadline).await {
                Ok(Some(p)) => out.extend_from_slice(&p),
                Ok(None) => break Ok(out),
                Err(e) => break Err(e),
            }
        };
        (res, d.finished_framed(), r.buf)
    }

    #[tokio::test]
    async fn decodes_all_framings() {
        let (body, framed, rest) = decode(Framing::Length(3), b"abcdef").await;
        assert_eq!(
            (body.unwrap(), framed, rest),
            (b"abc".to_vec(), true, b"def".to_vec())
        );
        let (body, framed, _) = decode(Framing::UntilClose, b"abcdef").await;
        assert_eq!((body.unwrap(), framed), (b"abcdef".to_vec(), false));
        let raw = b"3;x=y\r\nabc\r\nA\nabcdefghij\n0\r\nTrailer: 1\r\n\r\nNEXT";
        let (body, framed, rest) = decode(Framing::Chunked, raw).await;
        assert_eq!(
            (body.unwrap(), framed, rest),
            (b"abcabcdefghij".to_vec(), true, b"NEXT".to_vec())
        );
        assert_eq!(
            decode(Framing::Length(9), b"abc").await.0,
            Err(BodyError::Closed)
        );
        assert_eq!(
            decode(Framing::Chunked, b"zz\r\n").await.0,
            Err(BodyError::BadFraming)
        );
        assert_eq!(
            decode(Framing::Chunked, b"3\r\nabcX\r\n").await.0,
            Err(BodyError::BadFraming)
        );
        assert_eq!(
            decode(Framing::Chunked, b"3\r\nab").await.0,
            Err(BodyError::Closed)
        );
        assert_eq!(decode(Framing::NoBody, b"xyz").await.0, Ok(Vec::new()));
    }

    #[test]
    fn classifies() {
        assert_eq!(classify(b"", 10), Body::Empty);
        assert_eq!(
            classify(b" {\"a\":1}\n", 10),
            Body::Json {
                value: json!({"a":1})
            }
        );
        assert_eq!(
            classify("<html>héllo</html>".as_bytes(), 7),
            Body::Other {
                len: 19,
                prefix: "<html>h".into()
            }
        );
        assert_eq!(
            classify(&[0xff, 0xfe], 10),
            Body::Other {
                len: 2,
                prefix: "\u{fffd}\u{fffd}".into()
            }
        );
    }
}
