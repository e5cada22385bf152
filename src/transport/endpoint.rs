//! `Endpoint`: where a target answers, parsed from an `http://` or `https://host:port/path` URL.
//!
//! This file owns URL parsing, the scheme (plain TCP or TLS), and the two spellings of the address the rest of the transport
//! needs: the `Host` header value (`authority`, brackets kept for IPv6) and the socket address
//! to dial (`host` without brackets, `port`). Which hosts are acceptable (loopback only, or
//! anything) is the runner's decision, not this parser's.

use std::fmt;
use std::str::FromStr;

/// How the transport reaches an endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// `http://`: the case bytes over plain TCP.
    Http,
    /// `https://`: the same bytes inside TLS (`transport::tls`).
    Https,
}

impl Scheme {
    /// `http` or `https`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    /// The port a URL without one means.
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

/// A parsed `http://` or `https://` URL of a target's MCP endpoint.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// Plain TCP or TLS.
    pub scheme: Scheme,
    /// Host to dial: a name, an IPv4 literal, or an IPv6 literal *without* brackets (`::1`).
    pub host: String,
    /// TCP port (80, or 443 for https, when the URL has none).
    pub port: u16,
    /// Path and query of the URL (`/mcp`, `/` when the URL has none). Cases carry their own
    /// path; this is the one a runner should put in them.
    pub path: String,
}

/// Why a URL is not a usable endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndpointError(pub String);

impl fmt::Display for EndpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EndpointError {}

fn err<T>(msg: impl Into<String>) -> Result<T, EndpointError> {
    Err(EndpointError(msg.into()))
}

impl Endpoint {
    /// Parse `http://host[:port][/path[?query]]` or the same with `https://`.
    pub fn parse(url: &str) -> Result<Endpoint, EndpointError> {
        let url = url.trim();
        let (scheme, rest) = match url.split_once("://") {
            Some(parts) => parts,
            None => {
                return err(format!(
                    "`{url}` is not a URL: expected http://host:port/path"
                ))
            }
        };
        let scheme = if scheme.eq_ignore_ascii_case("https") {
            Scheme::Https
        } else if scheme.eq_ignore_ascii_case("http") {
            Scheme::Http
        } else {
            return err(format!(
                "unsupported scheme `{scheme}`: only http:// and https:// targets are supported"
            ));
        };
        // A fragment is never sent on the wire; refusing it avoids a silent surprise.
        if rest.contains('#') {
            return err(format!(
                "`{url}` has a fragment (#...), which HTTP never sends"
            ));
        }
        let split = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(split);
        let path = match path {
            "" => "/".to_string(),
            p if p.starts_with('?') => format!("/{p}"),
            p => p.to_string(),
        };
        if path.bytes().any(|b| !(0x21..=0x7e).contains(&b)) {
            return err(format!(
                "path `{path}` must be printable ASCII without spaces (percent-encode it)"
            ));
        }
        if authority.contains('@') {
            return err("credentials in the URL (user@host) are not supported");
        }
        let (host, port) = split_host_port(authority, scheme.default_port())?;
        Ok(Endpoint {
            scheme,
            host,
            port,
            path,
        })
    }

    /// Whether the host is an IPv6 literal (it needs brackets in URLs and `Host`).
    pub fn is_ipv6(&self) -> bool {
        self.host.contains(':')
    }

    /// Whether the case bytes go inside TLS.
    pub fn is_tls(&self) -> bool {
        self.scheme == Scheme::Https
    }

    /// `host:port` with the port always written (IPv6 in brackets): messages and
    /// `openssl s_client -connect`.
    pub fn authority_with_port(&self) -> String {
        if self.is_ipv6() {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// The `Host` header value, spelled like curl does: `host:port`, port left out when it is
    /// the scheme's default (80, 443), IPv6 literals in brackets. Keeping curl's spelling means a `curl` reproducer and the
    /// transport present the same `Host` to DNS-rebinding checks.
    pub fn authority(&self) -> String {
        let host = if self.is_ipv6() {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        if self.port == self.scheme.default_port() {
            host
        } else {
            format!("{host}:{}", self.port)
        }
    }

    /// `scheme://authority` + `path`: the URL a case with request target `path` is sent to.
    pub fn url_for(&self, path: &str) -> String {
        format!("{}://{}{}", self.scheme.as_str(), self.authority(), path)
    }
}

fn split_host_port(authority: &str, default_port: u16) -> Result<(String, u16), EndpointError> {
    let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
        let Some((host, after)) = inner.split_once(']') else {
            return err(format!("unterminated IPv6 literal in `{authority}`"));
        };
        if host.parse::<std::net::Ipv6Addr>().is_err() {
            return err(format!("`{host}` is not an IPv6 address"));
        }
        let port = match after {
            "" => None,
            p => match p.strip_prefix(':') {
                Some(p) => Some(p),
                None => return err(format!("unexpected `{after}` after the IPv6 literal")),
            },
        };
        (host, port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return err("the URL has no host");
    }
    // `:` only inside brackets (checked above); unbracketed IPv6 would be ambiguous.
    let bracketed = authority.starts_with('[');
    let name_ok = |b: u8| {
        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_') || (bracketed && b == b':')
    };
    if !host.bytes().all(name_ok) {
        return err(format!("`{host}` is not a host name or IP address"));
    }
    let port = match port {
        None => default_port,
        Some(p) => match p.parse::<u16>() {
            Ok(n) if n != 0 && p.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => return err(format!("`{p}` is not a TCP port (1-65535)")),
        },
    };
    Ok((host.to_string(), port))
}

impl FromStr for Endpoint {
    type Err = EndpointError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Endpoint::parse(s)
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url_for(&self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_common_forms() {
        let e = Endpoint::parse("http://127.0.0.1:3000/mcp").unwrap();
        assert_eq!(
            (e.host.as_str(), e.port, e.path.as_str()),
            ("127.0.0.1", 3000, "/mcp")
        );
        assert_eq!(e.authority(), "127.0.0.1:3000");
        let e = Endpoint::parse("http://localhost").unwrap();
        assert_eq!(
            (e.host.as_str(), e.port, e.path.as_str()),
            ("localhost", 80, "/")
        );
        assert_eq!(e.authority(), "localhost");
        let e = Endpoint::parse("http://[::1]:8080/a/b?x=1").unwrap();
        assert_eq!(
            (e.host.as_str(), e.port, e.path.as_str()),
            ("::1", 8080, "/a/b?x=1")
        );
        assert_eq!(e.authority(), "[::1]:8080");
        assert_eq!(e.to_string(), "http://[::1]:8080/a/b?x=1");
        let e: Endpoint = "HTTP://mcp.example.com:9/".parse().unwrap();
        assert_eq!(e.host, "mcp.example.com");
    }

    #[test]
    fn parses_https() {
        let e = Endpoint::parse("https://127.0.0.1/mcp").unwrap();
        assert_eq!(
            (e.scheme, e.port, e.authority()),
            (Scheme::Https, 443, "127.0.0.1".into())
        );
        assert!(e.is_tls());
        assert_eq!(e.to_string(), "https://127.0.0.1/mcp");
        let e = Endpoint::parse("HTTPS://localhost:8443").unwrap();
        assert_eq!((e.port, e.authority()), (8443, "localhost:8443".into()));
        assert_eq!(e.authority_with_port(), "localhost:8443");
        assert_eq!(e.url_for("/mcp"), "https://localhost:8443/mcp");
        let e = Endpoint::parse("https://[::1]:80/").unwrap();
        assert_eq!(e.authority(), "[::1]:80", "80 is not https' default");
        assert!(!Endpoint::parse("http://h/").unwrap().is_tls());
    }

    #[test]
    fn rejects_bad_urls() {
        for bad in [
            "127.0.0.1:80/mcp",
            "ftp://x/",
            "http://:80/",
            "http://h:0/",
            "http://h:99999/",
            "http://h:8a/",
            "http://[::1/",
            "http://[nope]:1/",
            "http://u:p@h/",
            "http://h/a b",
            "http://h/#frag",
            "http://h%20/",
            "http://::1/",
        ] {
            assert!(Endpoint::parse(bad).is_err(), "{bad} should be rejected");
        }
    }
}
