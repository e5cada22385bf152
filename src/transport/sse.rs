//! Incremental `text/event-stream` parsing (the WHATWG event-stream interpretation rules).
//!
//! Bytes arrive in arbitrary pieces (a CRLF may be split across two reads), so the parser is a
//! small state machine fed chunk by chunk; the client decides when to stop feeding it. Only
//! `data` and (for the 2025-11-25 resumability rules) each event's `id` and whether any
//! `retry` field came matter to the oracle: `event` is read and dropped, `:` comments are ignored, an event is dispatched at a blank line when it has data, and an
//! unterminated event at the end of the stream is discarded, as a browser would.

use mcpdiff_oracle::SseMessage;

/// Feeds bytes, yields the `data` of each complete event.
#[derive(Debug, Default)]
pub(crate) struct SseParser {
    /// The current line, without its terminator.
    line: Vec<u8>,
    /// `data` of the current event: each data line followed by LF.
    data: Vec<u8>,
    /// Whether any `data` field was seen for the current event.
    has_data: bool,
    /// The previous byte was CR, so an LF right after it belongs to the same line end.
    after_cr: bool,
    /// Whether the first line has been processed (a UTF-8 BOM may prefix it).
    started: bool,
    /// The `id` field of the current event, if it had one.
    id: Option<String>,
    /// The `id` of every event pushed onto `events`, in order (the caller drains it with the
    /// events).
    pub ids: Vec<Option<String>>,
    /// A `retry` field was seen.
    pub retry: bool,
}

impl SseParser {
    /// Feed `bytes`; push the data of every event they complete onto `events`.
    pub fn feed(&mut self, bytes: &[u8], events: &mut Vec<Vec<u8>>) {
        for &b in bytes {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\r' | b'\n' => {
                    self.after_cr = b == b'\r';
                    self.end_line(events);
                }
                _ => {
                    self.after_cr = false;
                    self.line.push(b);
                }
            }
        }
    }

    fn end_line(&mut self, events: &mut Vec<Vec<u8>>) {
        let mut line = std::mem::take(&mut self.line);
        if !self.started {
            self.started = true;
            if line.starts_with(b"\xEF\xBB\xBF") {
                line.drain(..3);
            }
        }
        if line.is_empty() {
            if self.has_data {
                let mut data = std::mem::take(&mut self.data);
                data.pop(); // the LF after the last data line
                events.push(data);
                self.ids.push(self.id.take());
            }
            self.id = None;
            self.has_data = false;
            self.data.clear();
        } else if line[0] != b':' {
            let (field, value) = match line.iter().position(|&b| b == b':') {
                Some(i) => {
                    let v = &line[i + 1..];
                    (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
                }
                None => (&line[..], &b""[..]),
            };
            match field {
                b"data" => {
                    self.data.extend_from_slice(value);
                    self.data.push(b'\n');
                    self.has_data = true;
                }
                // an id with NULL is ignored (WHATWG event-stream interpretation)
                b"id" if !value.contains(&0) => {
                    self.id = Some(String::from_utf8_lossy(value).into_owned());
                }
                b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                    self.retry = true;
                }
                _ => {}
            }
        }
        // Reuse the allocation for the next line.
        line.clear();
        self.line = line;
    }
}

/// The oracle's view of one event's data: JSON if it parses, else its text cut to `keep`
/// characters.
pub(crate) fn message(data: &[u8], keep: usize) -> SseMessage {
    match serde_json::from_slice(data) {
        Ok(value) => SseMessage::Json(value),
        Err(_) => SseMessage::NotJson(truncate(&String::from_utf8_lossy(data), keep)),
    }
}

/// `s` cut to at most `keep` characters (on a character boundary).
pub(crate) fn truncate(s: &str, keep: usize) -> String {
    s.chars().take(keep).collect()
}

/// Whether a message answers the request that opened the stream, so the client only waits
/// briefly for the stream to end: a JSON-RPC response, or the acknowledgement that opens a
/// `subscriptions/listen` stream (such a stream never carries a response; after the
/// acknowledgement it only waits for changes, and waiting `sse_max_time` on it cost every
/// run that sends the listen probe a fixed 3 s).
pub(crate) fn answers_request(m: &SseMessage) -> bool {
    is_rpc_response(m)
        || matches!(m, SseMessage::Json(v)
            if v.get("method").and_then(serde_json::Value::as_str)
                == Some("notifications/subscriptions/acknowledged"))
}

/// Whether a message is a JSON-RPC response (has `id` and `result` or `error`).
pub(crate) fn is_rpc_response(m: &SseMessage) -> bool {
    match m {
        SseMessage::Json(v) => {
            v.get("id").is_some() && (v.get("result").is_some() || v.get("error").is_some())
        }
        SseMessage::NotJson(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_in_pieces(raw: &[u8], piece: usize) -> Vec<Vec<u8>> {
        let mut p = SseParser::default();
        let mut out = Vec::new();
        for chunk in raw.chunks(piece) {
            p.feed(chunk, &mut out);
        }
        out
    }

    #[test]
    fn events_with_all_line_endings_and_any_split() {
        let raw = b"\xEF\xBB\xBF: comment\r\nevent: message\r\nid: 1\r\ndata: {\"a\":\r\ndata:1}\r\n\r\ndata: two\n\ndata: three\r\rdata: x\ndata\n\nretry: 5\n\ndata: unterminated";
        for piece in [1, 2, 3, 7, raw.len()] {
            let events = parse_in_pieces(raw, piece);
            assert_eq!(
                events,
                vec![
                    b"{\"a\":\n1}".to_vec(),
                    b"two".to_vec(),
                    b"three".to_vec(),
                    b"x\n".to_vec()
                ],
                "piece size {piece}"
            );
        }
    }

    #[test]
    fn empty_data_dispatches_but_no_data_does_not() {
        assert_eq!(
            parse_in_pieces(b"data:\n\nid: 7\n\n", 4),
            vec![Vec::<u8>::new()]
        );
    }

    #[test]
    fn messages() {
        assert_eq!(
            message(b"{\"id\":1,\"result\":{}}", 5),
            SseMessage::Json(json!({"id":1,"result":{}}))
        );
        assert_eq!(
            message("héllo wörld".as_bytes(), 4),
            SseMessage::NotJson("héll".into())
        );
        assert!(is_rpc_response(&message(
            br#"{"jsonrpc":"2.0","id":1,"error":{}}"#,
            9
        )));
        assert!(!is_rpc_response(&message(
            br#"{"jsonrpc":"2.0","method":"x"}"#,
            9
        )));
        assert!(!is_rpc_response(&message(br#"{"result":1}"#, 9)));
        let ack = br#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged"}"#;
        assert!(answers_request(&message(ack, 9)));
        assert!(!is_rpc_response(&message(ack, 9)));
        let progress = br#"{"jsonrpc":"2.0","method":"notifications/progress"}"#;
        assert!(!answers_request(&message(progress, 9)));
    }

    #[test]
    fn each_event_keeps_its_own_id_and_retry_is_seen() {
        let raw = b"id: p-0\ndata:\n\ndata: {}\n\nid: p-1\nretry: 500\ndata: 1\n\nid: x\n\n";
        for piece in [1, 3, raw.len()] {
            let mut p = SseParser::default();
            let mut out = Vec::new();
            for chunk in raw.chunks(piece) {
                p.feed(chunk, &mut out);
            }
            assert_eq!(out, vec![b"".to_vec(), b"{}".to_vec(), b"1".to_vec()]);
            // the id of an event without data is not dispatched with any message
            let ids: Vec<Option<&str>> = p.ids.iter().map(|i| i.as_deref()).collect();
            assert_eq!(ids, vec![Some("p-0"), None, Some("p-1")], "piece {piece}");
            assert!(p.retry);
        }
    }
}
