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
//! Nothing else is ever added (no `User-Agent`, `Accept`, `Connection`), except by
//! [`encode_request_with`]: the run's configured `--header` fields (`Credentials`), each after
//! the case fields when the case carries no field of that name, and the secrets filled into
//! the placeholders a case carries on purpose (the authorization probes).

use super::credentials::Credentials;
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
    encode_request_with(case, endpoint, &Credentials::default(), false)
}

/// `encode_request`, plus the configured fields the case lacks (when `append`) and the
/// placeholders filled. Only the transport calls this: its output holds the secrets.
pub fn encode_request_with(
    case: &Case,
    endpoint: &Endpoint,
    creds: &Credentials,
    append: bool,
) -> Vec<u8> {
    // no copy of the case: values are filled as they are written (`fill` borrows when the
    // bytes hold no placeholder), the configured fields follow the case's own
    let fill = |b: &'_ [u8]| -> Vec<u8> {
        if creds.is_empty() {
            b.to_vec()
        } else {
            creds.fill(b)
        }
    };
    let mut out = Vec::with_capacity(
        128 + case.path.len()
            + case.body.len()
            + case
                .headers
                .iter()
                .map(|(n, v)| n.len() + v.len() + 4)
                .sum::<usize>(),
    );
    out.extend_from_slice(case.method.as_bytes());
    out.push(b' ');
    out.extend_from_slice(&fill(case.path.as_bytes()));
    out.extend_from_slice(b" HTTP/1.1\r\n");
    let mut field = |name: &[u8], value: &[u8]| {
        out.extend_from_slice(name);
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    };
    for (name, value) in &case.headers {
        field(name, &fill(value));
    }
    if append {
        // never Host, Content-Length, Transfer-Encoding or Connection (`Credentials::parse`)
        for (name, value) in creds.missing_fields(|n| has_field(case, n)) {
            field(name.as_bytes(), value);
        }
    }
    if !has_field(case, "host") {
        field(b"Host", endpoint.authority().as_bytes());
    }
    if !has_field(case, "content-length") && !has_field(case, "transfer-encoding") {
        field(b"Content-Length", case.body.len().to_string().as_bytes());
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
    fn configured_fields_are_added_when_missing_and_placeholders_filled() {
        let creds = Credentials::parse(&["Authorization: Bearer tok".into()], None).unwrap();
        let c = Case::post("/mcp", &[("A", "b")], "");
        let got = String::from_utf8(encode_request_with(&c, &ep(), &creds, true)).unwrap();
        assert!(
            got.contains("A: b\r\nAuthorization: Bearer tok\r\nHost:"),
            "{got}"
        );
        let c = Case::post(
            "/mcp?access_token={{MCPDIFF_TOKEN}}",
            &[("authorization", "Basic {{MCPDIFF_TOKEN}}")],
            "",
        );
        let got = String::from_utf8(encode_request_with(&c, &ep(), &creds, true)).unwrap();
        // the case's own field stands; the configured one is not added beside it
        assert_eq!(got.matches("uthorization:").count(), 1, "{got}");
        assert!(got.starts_with(
            "POST /mcp?access_token=tok HTTP/1.1\r\nauthorization: Basic tok\r\nHost"
        ));
        let got = String::from_utf8(encode_request_with(
            &Case::post("/mcp", &[], ""),
            &ep(),
            &creds,
            false,
        ))
        .unwrap();
        assert!(!got.contains("tok"));
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
