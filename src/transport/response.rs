//! Reading one response off a connection into an `Observation`, within the `Limits`.
//!
//! This is where the failure taxonomy is decided: which byte sequences are `Garbage`, when a
//! silence is a `Timeout`, when an ended SSE stream was closed by the server (`closed: true`)
//! or abandoned by mcpdiff at a limit (`closed: false`), and whether the connection is left
//! in a state another case may use.

use super::body::{classify, BodyError, Decoder};
use super::conn::{ConnReader, ReadError};
use super::head::{parse_head, Framing, Head, HeadParse};
use super::limits::Limits;
use super::sse::{answers_request, message, SseParser};
use mcpdiff_oracle::shape::input_keys::duplicate_input_request_keys;
use mcpdiff_oracle::{Body, HttpAnswer, Observation, TransportFailure, WireFields};
use tokio::io::AsyncRead;
use tokio::time::Instant;

/// What reading one response produced.
#[derive(Debug)]
pub(crate) struct ReadOutcome {
    pub observation: Observation,
    /// The response was read to its framed end, the server keeps the connection alive, and
    /// no stray bytes follow: the connection may serve another case.
    pub reusable: bool,
}

fn failure(failure: TransportFailure) -> ReadOutcome {
    ReadOutcome {
        observation: Observation::Transport { failure },
        reusable: false,
    }
}

/// Told once, at most, that the request is answered while its response is still being read:
/// an SSE stream carried the JSON-RPC response (or listen acknowledgement) and is now watched
/// for its idle window (`Limits::sse_idle_after_response`). A runner uses it to stop counting
/// the case as waiting for an answer; the observation is the same whether anyone listens.
pub type OnAnswer<'a> = &'a (dyn Fn() + Sync);

/// Read a response to a request with `method` from `r`, giving up at `deadline`. With
/// `quiet`, an SSE body also ends once no byte came for `Limits::sse_quiet`
/// (`Client::send_listening`).
pub(crate) async fn read_response<R: AsyncRead + Unpin>(
    r: &mut ConnReader<R>,
    method: &str,
    limits: &Limits,
    deadline: Instant,
    on_answer: OnAnswer<'_>,
    quiet: bool,
) -> ReadOutcome {
    let head = match read_head(r, limits.max_header_bytes, deadline).await {
        Ok(head) => head,
        Err(f) => return failure(f),
    };
    let Some(framing) = head.framing(method) else {
        // Contradictory Content-Length fields: the body cannot be delimited (RFC 9112 §6.3).
        return failure(TransportFailure::Garbage);
    };
    let mut answer = HttpAnswer::new(head.status, None, Body::Empty);
    answer.content_type = head.media_type();
    answer.session_id = head.text("mcp-session-id");
    answer.x_accel_buffering = head.text("x-accel-buffering");
    answer.allow = head.joined("allow");
    answer.www_authenticate = head.joined("www-authenticate");

    let mut decoder = Decoder::new(framing, limits.max_header_bytes);
    let sse =
        framing != Framing::NoBody && answer.content_type.as_deref() == Some("text/event-stream");
    let body = if sse {
        let quiet = quiet.then_some(limits.sse_quiet);
        read_sse(r, &mut decoder, limits, deadline, on_answer, quiet).await
    } else {
        read_plain(r, &mut decoder, limits, deadline).await
    };
    let (body, fields, broken) = match body {
        Ok(body) => body,
        Err(f) => return failure(f),
    };
    answer.body = body;
    let mut fields = fields;
    fields.invalid_utf8 = broken;
    answer.wire = Box::new(fields);
    let reusable = decoder.finished_framed() && head.keeps_alive() && r.buf.is_empty();
    ReadOutcome {
        observation: Observation::Http(answer),
        reusable,
    }
}

/// Read heads until a final (non-1xx) one.
async fn read_head<R: AsyncRead + Unpin>(
    r: &mut ConnReader<R>,
    max_header_bytes: usize,
    deadline: Instant,
) -> Result<Head, TransportFailure> {
    // Interim heads count toward the header limit too, so "100 Continue" forever ends.
    let mut head_bytes = 0usize;
    let mut scanned = 0usize;
    loop {
        match parse_head(&r.buf, scanned) {
            HeadParse::Garbage => return Err(TransportFailure::Garbage),
            HeadParse::Complete(head, used) => {
                head_bytes += used;
                if head_bytes > max_header_bytes {
                    return Err(TransportFailure::OversizeHeaders);
                }
                r.consume(used);
                scanned = 0;
                if !head.is_interim() {
                    return Ok(head);
                }
                continue;
            }
            HeadParse::Incomplete => {
                if head_bytes + r.buf.len() > max_header_bytes {
                    return Err(TransportFailure::OversizeHeaders);
                }
                scanned = r.buf.len();
            }
        }
        match r.fill(deadline).await {
            Ok(_) => {}
            Err(ReadError::Timeout) => return Err(TransportFailure::Timeout),
            Err(ReadError::Eof | ReadError::Io) => return Err(TransportFailure::Reset),
        }
    }
}

/// A non-SSE body: collected up to the size limit, then classified.
async fn read_plain<R: AsyncRead + Unpin>(
    r: &mut ConnReader<R>,
    decoder: &mut Decoder,
    limits: &Limits,
    deadline: Instant,
) -> Result<(Body, WireFields, bool), TransportFailure> {
    let mut bytes = Vec::new();
    loop {
        match decoder.next(r, deadline).await {
            Ok(Some(piece)) => {
                if bytes.len() + piece.len() > limits.max_body_bytes {
                    // `read` is the limit, not the exact count: the count depends on how
                    // reads happened to split, and two targets sending the same huge body
                    // must produce equal observations.
                    return Ok((
                        Body::Oversize {
                            read: limits.max_body_bytes,
                        },
                        WireFields::default(),
                        false,
                    ));
                }
                bytes.extend_from_slice(&piece);
            }
            Ok(None) => break,
            Err(BodyError::Timeout) => return Err(TransportFailure::Timeout),
            // The head was complete; a body cut short is still what the server said, and the
            // classification (usually `Other`) shows it is incomplete.
            Err(BodyError::Closed) => break,
            Err(BodyError::BadFraming) => return Err(TransportFailure::Garbage),
        }
    }
    // a parsed value keeps one member per name: the text shows a repeated one (D-171)
    let fields = WireFields {
        duplicate_input_keys: duplicate_input_request_keys(&bytes),
        ..WireFields::default()
    };
    Ok((
        classify(&bytes, limits.keep_chars),
        fields,
        broken_utf8(&bytes),
    ))
}

/// Whether `bytes` hold a byte sequence that is not UTF-8 (one cut short at the end, as a
/// body cut short leaves it, is not counted: what came is still UTF-8 so far).
fn broken_utf8(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_err_and(|e| e.error_len().is_some())
}

/// An SSE body: events until the server closes the stream or a limit stops mcpdiff.
/// `on_answer` is told when the idle window starts. With `quiet`, a silence that long (no
/// byte at all) also stops it, as a limit does (`closed: false`).
async fn read_sse<R: AsyncRead + Unpin>(
    r: &mut ConnReader<R>,
    decoder: &mut Decoder,
    limits: &Limits,
    deadline: Instant,
    on_answer: OnAnswer<'_>,
    quiet: Option<std::time::Duration>,
) -> Result<(Body, WireFields, bool), TransportFailure> {
    let stream_deadline = deadline.min(Instant::now() + limits.sse_max_time);
    let mut parser = SseParser::default();
    let mut messages = Vec::new();
    let mut ids = Vec::new();
    let mut broken = false;
    let mut duplicate = false;
    let mut events = Vec::new();
    let mut read = 0usize;
    // Set once the request is answered (a JSON-RPC response, a listen acknowledgement): the
    // stream then only gets a short idle window.
    let mut idle_deadline: Option<Instant> = None;
    // With `quiet`: the end of the current silence (moved on by every byte read).
    let mut quiet_deadline = quiet.map(|q| Instant::now() + q);
    loop {
        let wait_until = idle_deadline.map_or(stream_deadline, |d| d.min(stream_deadline));
        let wait_until = quiet_deadline.map_or(wait_until, |d| d.min(wait_until));
        let closed = match decoder.next(r, wait_until).await {
            Ok(Some(piece)) => {
                read += piece.len();
                quiet_deadline = quiet.map(|q| Instant::now() + q);
                parser.feed(&piece, &mut events);
                ids.append(&mut parser.ids);
                for data in events.drain(..) {
                    broken |= broken_utf8(&data);
                    duplicate |= duplicate_input_request_keys(&data);
                    let m = message(&data, limits.keep_chars);
                    if answers_request(&m) {
                        if idle_deadline.is_none() {
                            on_answer();
                        }
                        idle_deadline = Some(Instant::now() + limits.sse_idle_after_response);
                    }
                    messages.push(m);
                }
                if idle_deadline.is_some() {
                    // Any activity after the response restarts the idle window.
                    idle_deadline = Some(Instant::now() + limits.sse_idle_after_response);
                }
                if messages.len() >= limits.sse_max_events || read > limits.max_body_bytes {
                    messages.truncate(limits.sse_max_events);
                    ids.truncate(limits.sse_max_events);
                    false
                } else {
                    continue;
                }
            }
            // The server ended the stream, cleanly or not: it was closed, not abandoned.
            Ok(None) | Err(BodyError::Closed) => true,
            Err(BodyError::Timeout) => false,
            Err(BodyError::BadFraming) => return Err(TransportFailure::Garbage),
        };
        let fields = WireFields {
            event_ids: ids,
            retry: parser.retry,
            invalid_utf8: false,
            duplicate_input_keys: duplicate,
        };
        return Ok((Body::Sse { messages, closed }, fields, broken));
    }
}

#[cfg(test)]
mod tests {
    use super::broken_utf8;

    #[test]
    fn a_latin1_byte_is_broken_utf8_a_sequence_cut_at_the_end_is_not() {
        assert!(broken_utf8(b"{\"note\":\"caf\xe9\"}"));
        assert!(!broken_utf8("{\"note\":\"café\"}".as_bytes()));
        // the first byte of `é` alone at the end: a body cut short, not a wrong encoding
        assert!(!broken_utf8(b"{\"note\":\"caf\xc3"));
    }
}
