//! Wire encoding of a `Case`: the exact request bytes, and whether they frame cleanly.
//!
//! The encoding is the point of the whole transport: generators plant odd header casing,
//! duplicates, control bytes and non-UTF-8 values, and a client that normalizes them (as
//! hyper or reqwest do) would test its own parser instead of the target's. So:
//!
//! * request line `METHOD SP path SP HTTP/1.1 CRLF`, method and path verbatim;
//! * the case's header fields in order, `name ":" SP value CRLF`, names and values byte for
//!   byte (no trimming, no case folding, no merging, no validation);
//! * added only when the case has no field of that name (ASCII case-insensitive):
//!   - `Host: <endpoint authority>` (HTTP/1.1 requires one; a case that *plants* a bad or
//!     missing host does so by carrying its own `Host` field), appended after the case fields;
//!   - `Content-Length: <body length>`, appended last, unless the case carries a
//!     `Transfer-Encoding` field: a case that plants a transfer coding means its body to be
//!     framed by it, and adding a length would turn that into a CL+TE conflict it did not ask
//!     for;
//! * CRLF, then the body bytes.
//!
//! Nothing else is ever added (no `User-Agent`, `Accept`, `Connection`).

use super::endpoint::Endpoint;
use mcpdiff_oracle::Case;

fn has_field(case: &Case, name: &str) -> bool {
    case.headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
}

/// The exact bytes mcpdiff sends for `case` to `endpoint` (see the module docs for the two
/// fields that may be added).
pub fn encode_request(case: &Case, endpoint: &Endpoint) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        64 + case.path.len()
            + case.body.len()
            + case
                .headers
                .iter()
                .map(|(n, v)| n.len() + v.len() + 4)
                .sum::<usize>(),
    );
    out.extend_from_slice(case.method.as_bytes());
    out.push(b' ');
    out.extend_from_slice(case.path.as_bytes());
    out.extend_from_slice(b" HTTP/1.1\r\n");
    for (name, value) in &case.headers {
        out.extend_from_slice(name);
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    if !has_field(case, "host") {
        out.extend_from_slice(b"Host: ");
        out.extend_from_slice(endpoint.authority().as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if !has_field(case, "content-length") && !has_field(case, "transfer-encoding") {
        out.extend_from_slice(format!("Content-Length: {}\r\n", case.body.len()).as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(&case.body);
    out
}

/// Whether the server is sure to read exactly our bytes as one request, so the connection is
/// in a known state afterwards and may go back to the pool.
///
/// A case that plants framing defects (a wrong or repeated `Content-Length`, a transfer coding,
/// a CR or LF inside a field that splits it, `Connection: close`, an `Expect` or `Upgrade`) can
/// leave the server waiting for more body or reading our next request as the rest of this
/// one; such a connection is used once and closed, so one case cannot poison the next.
pub fn frames_cleanly(case: &Case) -> bool {
    let token = |s: &[u8]| !s.is_empty() && s.iter().all(|b| b.is_ascii_graphic());
    if !token(case.method.as_bytes()) || case.method == "CONNECT" || !token(case.path.as_bytes()) {
        return false;
    }
    let mut content_lengths = 0;
    for (name, value) in &case.headers {
        if !token(name) || name.contains(&b':') {
            return false;
        }
        if value.iter().any(|&b| b == b'\r' || b == b'\n' || b == 0) {
            return false;
        }
        let is = |n: &str| name.eq_ignore_ascii_case(n.as_bytes());
        if is("transfer-encoding") || is("expect") || is("upgrade") {
            return false;
        }
        if is("connection") && !value.eq_ignore_ascii_case(b"keep-alive") {
            return false;
        }
        if is("content-length") {
            content_lengths += 1;
            if value != case.body.len().to_string().as_bytes() {
                return false;
            }
        }
    }
    content_lengths <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep() -> Endpoint {
        Endpoint::parse("http://127.0.0.1:8080/mcp").unwrap()
    }

    #[test]
    fn encodes_exact_bytes_and_adds_host_and_length() {
        let mut c = Case::post("/mcp", &[("content-TYPE", "application/json")], "{}");
        c.headers.push((b"X-Dup".to_vec(), b" a\t".to_vec()));
        c.headers.push((b"x-dup".to_vec(), vec![0x80, 0x01, b'z']));
        let got = encode_request(&c, &ep());
        let mut want =
            b"POST /mcp HTTP/1.1\r\ncontent-TYPE: application/json\r\nX-Dup:  a\t\r\nx-dup: "
                .to_vec();
        want.extend_from_slice(&[0x80, 0x01, b'z']);
        want.extend_from_slice(b"\r\nHost: 127.0.0.1:8080\r\nContent-Length: 2\r\n\r\n{}");
        assert_eq!(got, want);
    }

    #[test]
    fn keeps_case_host_and_length_and_respects_transfer_encoding() {
        let c = Case::post(
            "/mcp",
            &[("HOST", "evil.example"), ("content-length", "7")],
            "{}",
        );
        let got = String::from_utf8(encode_request(&c, &ep())).unwrap();
        assert_eq!(
            got,
            "POST /mcp HTTP/1.1\r\nHOST: evil.example\r\ncontent-length: 7\r\n\r\n{}"
        );
        let c = Case::post("/mcp", &[("Transfer-Encoding", "chunked")], "0\r\n\r\n");
        let got = String::from_utf8(encode_request(&c, &ep())).unwrap();
        assert!(!got.to_ascii_lowercase().contains("content-length"));
    }

    #[test]
    fn framing_check() {
        assert!(frames_cleanly(&Case::post("/mcp", &[("A", "b")], "xy")));
        assert!(frames_cleanly(&Case::post(
            "/mcp",
            &[("Content-Length", "2")],
            "xy"
        )));
        assert!(!frames_cleanly(&Case::post(
            "/mcp",
            &[("Content-Length", "3")],
            "xy"
        )));
        assert!(!frames_cleanly(&Case::post(
            "/mcp",
            &[("Content-Length", "2"), ("content-length", "2")],
            "xy"
        )));
        assert!(!frames_cleanly(&Case::post(
            "/mcp",
            &[("A", "b\r\nC: d")],
            ""
        )));
        assert!(!frames_cleanly(&Case::post(
            "/mcp",
            &[("Connection", "close")],
            ""
        )));
        assert!(!frames_cleanly(&Case::post("/mcp", &[("A B", "c")], "")));
    }
}
