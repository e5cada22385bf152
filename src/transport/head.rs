//! Response head parsing: status line, header fields, and what they say about the body.
//!
//! Pure functions over bytes (no I/O), so the strict parts (what counts as garbage, how the
//! body is framed) are unit-tested directly. Parsing follows RFC 9112 with the usual client
//! leniency: bare LF line endings and obsolete line folding are accepted; anything that is not
//! `HTTP/1.x SSS ...` followed by `name: value` lines is garbage.

use mcpdiff_oracle::case::trim_ows;

/// A parsed response head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Head {
    /// Minor version of `HTTP/1.x`.
    pub minor: u8,
    pub status: u16,
    /// Fields in order: lowercased name, OWS-trimmed raw value.
    pub fields: Vec<(String, Vec<u8>)>,
}

/// Outcome of trying to parse a head from the bytes received so far.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum HeadParse {
    /// Need more bytes (so far consistent with an HTTP/1.x head).
    Incomplete,
    /// A head, and how many bytes of the buffer it used.
    Complete(Head, usize),
    /// Not an HTTP/1.x response.
    Garbage,
}

/// How the body after a head is delimited (RFC 9112 §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// No body (HEAD, 1xx, 204, 304).
    NoBody,
    /// `Content-Length` bytes.
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
    /// Read until the server closes the connection.
    UntilClose,
}

const PREFIX: &[u8] = b"HTTP/1.";

/// Parse a head from the start of `buf`. `scan_from` is how many bytes an earlier call already
/// searched for the blank line (0 the first time), so trickled heads cost linear time.
pub(crate) fn parse_head(buf: &[u8], scan_from: usize) -> HeadParse {
    // Decide "garbage" from the first bytes, so a server that answers junk and keeps the
    // connection open is classified at once instead of after the time limit.
    let n = buf.len().min(PREFIX.len());
    if buf[..n] != PREFIX[..n] {
        return HeadParse::Garbage;
    }
    let Some(end) = head_end(buf, scan_from.saturating_sub(3)) else {
        return HeadParse::Incomplete;
    };
    let mut lines = split_lines(&buf[..end]);
    let Some(status_line) = lines.next() else {
        return HeadParse::Garbage;
    };
    let Some((minor, status)) = parse_status_line(status_line) else {
        return HeadParse::Garbage;
    };
    let mut fields: Vec<(String, Vec<u8>)> = Vec::new();
    for line in lines {
        if line.is_empty() {
            break;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            // obs-fold: a continuation of the previous value, replaced by one SP (RFC 9112 §5.2).
            match fields.last_mut() {
                Some((_, v)) => {
                    v.push(b' ');
                    v.extend_from_slice(trim_ows(line));
                    continue;
                }
                None => return HeadParse::Garbage,
            }
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return HeadParse::Garbage;
        };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|&b| is_tchar(b)) {
            return HeadParse::Garbage;
        }
        let name = String::from_utf8_lossy(name).to_ascii_lowercase();
        fields.push((name, trim_ows(&line[colon + 1..]).to_vec()));
    }
    HeadParse::Complete(
        Head {
            minor,
            status,
            fields,
        },
        end,
    )
}

/// Index just past the blank line ending the head (`\r\n\r\n`, `\n\n`, or mixed).
fn head_end(buf: &[u8], from: usize) -> Option<usize> {
    let mut i = from.min(buf.len());
    while let Some(off) = buf[i..].iter().position(|&b| b == b'\n') {
        let nl = i + off;
        let next = &buf[nl + 1..];
        if next.starts_with(b"\n") {
            return Some(nl + 2);
        }
        if next.starts_with(b"\r\n") {
            return Some(nl + 3);
        }
        i = nl + 1;
    }
    None
}

/// Lines of a head, each without its `\n` or `\r\n`.
fn split_lines(head: &[u8]) -> impl Iterator<Item = &[u8]> {
    head.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
}

fn parse_status_line(line: &[u8]) -> Option<(u8, u16)> {
    let rest = line.strip_prefix(PREFIX)?;
    let (&minor, rest) = rest.split_first()?;
    if !minor.is_ascii_digit() {
        return None;
    }
    let rest = rest.strip_prefix(b" ")?;
    let code = rest.get(..3)?;
    if !code.iter().all(u8::is_ascii_digit) || rest.get(3).is_some_and(|&b| b != b' ') {
        return None;
    }
    let status = code
        .iter()
        .fold(0u16, |acc, &d| acc * 10 + u16::from(d - b'0'));
    if status < 100 {
        return None;
    }
    Some((minor - b'0', status))
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

impl Head {
    /// All values of the lowercased field `name`, in order.
    pub fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.fields
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }

    /// First value of `name` as text (lossy UTF-8).
    pub fn text(&self, name: &str) -> Option<String> {
        self.values(name)
            .next()
            .map(|v| String::from_utf8_lossy(v).into_owned())
    }

    /// All values of a list-valued field joined with `, ` (RFC 9110 §5.3).
    pub fn joined(&self, name: &str) -> Option<String> {
        let parts: Vec<String> = self
            .values(name)
            .map(|v| String::from_utf8_lossy(v).into_owned())
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The media type of `Content-Type`, lowercased, parameters removed.
    pub fn media_type(&self) -> Option<String> {
        let v = self.values("content-type").next()?;
        let essence = v.split(|&b| b == b';').next().unwrap_or(v);
        Some(String::from_utf8_lossy(trim_ows(essence)).to_ascii_lowercase())
    }

    /// Whether a comma-separated field contains `token` (case-insensitive).
    pub fn has_token(&self, name: &str, token: &str) -> bool {
        self.values(name).any(|v| {
            v.split(|&b| b == b',')
                .any(|t| trim_ows(t).eq_ignore_ascii_case(token.as_bytes()))
        })
    }

    /// Whether this is an interim (1xx) answer to skip, rather than the final one. `101` is
    /// final: the connection then speaks another protocol.
    pub fn is_interim(&self) -> bool {
        (100..200).contains(&self.status) && self.status != 101
    }

    /// How the body is delimited, or `None` when the framing fields are contradictory or
    /// invalid (the response is then unreadable: RFC 9112 §6.3 item 5).
    pub fn framing(&self, request_method: &str) -> Option<Framing> {
        if request_method == "HEAD" || matches!(self.status, 100..=199 | 204 | 304) {
            return Some(Framing::NoBody);
        }
        if self.values("transfer-encoding").next().is_some() {
            // The final coding decides; anything else means "until close" (RFC 9112 §6.3).
            let last = self
                .values("transfer-encoding")
                .flat_map(|v| v.split(|&b| b == b','))
                .map(trim_ows)
                .filter(|t| !t.is_empty())
                .last();
            return Some(match last {
                Some(t) if t.eq_ignore_ascii_case(b"chunked") => Framing::Chunked,
                _ => Framing::UntilClose,
            });
        }
        let mut length: Option<u64> = None;
        for v in self.values("content-length") {
            // `Content-Length: 5, 5` is tolerated like repeated equal fields.
            for part in v.split(|&b| b == b',') {
                let part = trim_ows(part);
                if part.is_empty() || !part.iter().all(u8::is_ascii_digit) || part.len() > 18 {
                    return None;
                }
                let n = std::str::from_utf8(part).ok()?.parse::<u64>().ok()?;
                if length.is_some_and(|l| l != n) {
                    return None;
                }
                length = Some(n);
            }
        }
        Some(length.map_or(Framing::UntilClose, Framing::Length))
    }

    /// Whether the server lets the connection stay open after this answer.
    pub fn keeps_alive(&self) -> bool {
        self.minor >= 1 && self.status != 101 && !self.has_token("connection", "close")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(buf: &[u8]) -> (Head, usize) {
        match parse_head(buf, 0) {
            HeadParse::Complete(h, n) => (h, n),
            other => panic!("expected a head, got {other:?}"),
        }
    }

    #[test]
    fn parses_a_head() {
        let raw = b"HTTP/1.1 200 OK\r\nContent-Type: Application/JSON; charset=utf-8\r\nMcp-Session-Id:  abc \r\nAllow: GET\r\nallow: POST\r\nX-Fold: a\r\n  b\r\n\r\n{}";
        let (h, n) = complete(raw);
        assert_eq!(n, raw.len() - 2);
        assert_eq!((h.minor, h.status), (1, 200));
        assert_eq!(h.media_type().as_deref(), Some("application/json"));
        assert_eq!(h.text("mcp-session-id").as_deref(), Some("abc"));
        assert_eq!(h.joined("allow").as_deref(), Some("GET, POST"));
        assert_eq!(h.text("x-fold").as_deref(), Some("a b"));
        assert_eq!(h.framing("POST"), Some(Framing::UntilClose));
        assert!(h.keeps_alive());
    }

    #[test]
    fn bare_lf_and_incomplete() {
        let (h, n) = complete(b"HTTP/1.0 404 Not Found\nContent-Length: 0\n\nrest");
        assert_eq!((h.minor, h.status, n), (0, 404, 42));
        assert!(!h.keeps_alive());
        assert_eq!(
            parse_head(b"HTTP/1.1 200 OK\r\nA: b\r\n", 0),
            HeadParse::Incomplete
        );
        assert_eq!(parse_head(b"HTT", 0), HeadParse::Incomplete);
        assert_eq!(parse_head(b"", 0), HeadParse::Incomplete);
    }

    #[test]
    fn garbage() {
        for raw in [
            &b"hello world\r\n\r\n"[..],
            b"SSH-2.0-OpenSSH",
            b"HTTP/2 200\r\n\r\n",
            b"HTTP/1.1 20 OK\r\n\r\n",
            b"HTTP/1.1 2000 OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n",
            b"HTTP/1.1 200 OK\r\n continuation first\r\n\r\n",
            b"\x16\x03\x01",
        ] {
            assert_eq!(
                parse_head(raw, 0),
                HeadParse::Garbage,
                "{:?}",
                String::from_utf8_lossy(raw)
            );
        }
    }

    #[test]
    fn framing_rules() {
        let head = |fields: &[(&str, &str)], status| Head {
            minor: 1,
            status,
            fields: fields
                .iter()
                .map(|(n, v)| (n.to_string(), v.as_bytes().to_vec()))
                .collect(),
        };
        assert_eq!(
            head(&[("content-length", "5")], 200).framing("POST"),
            Some(Framing::Length(5))
        );
        assert_eq!(
            head(&[("content-length", "5")], 200).framing("HEAD"),
            Some(Framing::NoBody)
        );
        assert_eq!(head(&[], 204).framing("POST"), Some(Framing::NoBody));
        assert_eq!(
            head(&[("content-length", "5"), ("content-length", "5, 5")], 200).framing("GET"),
            Some(Framing::Length(5))
        );
        assert_eq!(
            head(&[("content-length", "5"), ("content-length", "6")], 200).framing("GET"),
            None
        );
        assert_eq!(head(&[("content-length", "-1")], 200).framing("GET"), None);
        assert_eq!(
            head(
                &[
                    ("transfer-encoding", "gzip, Chunked"),
                    ("content-length", "3")
                ],
                200
            )
            .framing("GET"),
            Some(Framing::Chunked)
        );
        assert_eq!(
            head(&[("transfer-encoding", "gzip")], 200).framing("GET"),
            Some(Framing::UntilClose)
        );
        assert!(!head(&[("connection", "keep-alive, Close")], 200).keeps_alive());
        assert!(head(&[], 100).is_interim());
        assert!(!head(&[], 101).is_interim());
    }
}
