//! Reading one HTTP/1.1 request off a raw loopback socket, for the tests whose servers are
//! hand-written (to misbehave in ways a real HTTP stack will not): the head and its
//! `Content-Length` body, within a deadline.

use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// One request read off `s`: its head (request line and headers, without the blank line) and
/// its body, as long as `Content-Length` says (0 when absent). `None` if the peer closes, an
/// I/O error occurs or `within` passes before the whole request arrived.
pub async fn read_request(s: &mut TcpStream, within: Duration) -> Option<(String, Vec<u8>)> {
    let deadline = tokio::time::Instant::now() + within;
    let mut buf = Vec::new();
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            let len: usize = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().ok())?
                })
                .unwrap_or(0);
            if buf.len() >= end + 4 + len {
                let body = buf[end + 4..end + 4 + len].to_vec();
                return Some((head, body));
            }
        }
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout_at(deadline, s.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => buf.extend_from_slice(&chunk[..n]),
            _ => return None,
        }
    }
}
