//! Origins and URLs as the card scan needs them (pure).
//!
//! The scan requests a remote only when it is on the scanned origin, so the comparison must
//! be the web's: scheme, host (ASCII case-insensitive) and port, with the scheme's default
//! port filled in. No host normalization beyond that: `localhost` and `127.0.0.1` are two
//! origins, exactly as a browser or the public scanner sees them.

use std::fmt;

/// `scheme://host:port`, lowercased, default port made explicit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    /// `http` or `https`.
    pub scheme: String,
    /// Lowercased host; IPv6 literals keep their brackets (`[::1]`).
    pub host: String,
    pub port: u16,
}

impl Origin {
    /// The `Host` spelling: `host` or `host:port` when the port is not the default.
    pub fn authority(&self) -> String {
        if Some(self.port) == default_port(&self.scheme) {
            self.host.clone()
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.authority())
    }
}

/// An absolute `http(s)` URL split into its origin and its path-and-query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    pub origin: Origin,
    /// Path and query (`/` when the URL has none); the fragment is dropped (never sent).
    pub path: String,
    /// The URL carries `user:password@` (the scan never sends credentials).
    pub has_userinfo: bool,
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

/// Why a card's URL (as written, after filling its template) cannot be used. Displays as the
/// short phrase reports show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlError {
    NotAbsolute(String),
    NotHttp(String),
    UnterminatedIpv6(String),
    NoHost(String),
    BadPort(String),
    /// A template (`{name}`) with no closing brace.
    UnclosedBrace(String),
    /// A template variable with no `default` to fill it.
    NoDefault {
        url: String,
        variable: String,
    },
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::NotAbsolute(u) => write!(f, "`{u}` is not an absolute URL"),
            UrlError::NotHttp(u) => write!(f, "`{u}` is not an http(s) URL"),
            UrlError::UnterminatedIpv6(u) => write!(f, "`{u}` has an unterminated IPv6 literal"),
            UrlError::NoHost(u) => write!(f, "`{u}` has no usable host"),
            UrlError::BadPort(u) => write!(f, "`{u}` has an invalid port"),
            UrlError::UnclosedBrace(u) => write!(f, "`{u}` has an unclosed `{{`"),
            UrlError::NoDefault { url, variable } => write!(
                f,
                "`{url}` is a template and `{{{variable}}}` has no default to fill it"
            ),
        }
    }
}

impl std::error::Error for UrlError {}

/// Parse an absolute `http://` or `https://` URL. The error is a short phrase for reports.
pub fn parse_url(s: &str) -> Result<Url, UrlError> {
    let s = s.trim();
    let (scheme, rest) = s
        .split_once("://")
        .ok_or_else(|| UrlError::NotAbsolute(s.to_string()))?;
    let scheme = scheme.to_ascii_lowercase();
    let Some(default) = default_port(&scheme) else {
        return Err(UrlError::NotHttp(s.to_string()));
    };
    let rest = rest.split('#').next().unwrap_or_default();
    let split = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(split);
    let (has_userinfo, hostport) = match authority.rsplit_once('@') {
        Some((_, hp)) => (true, hp),
        None => (false, authority),
    };
    let (host, port) = if hostport.starts_with('[') {
        let end = hostport
            .find(']')
            .ok_or_else(|| UrlError::UnterminatedIpv6(s.to_string()))?;
        (&hostport[..=end], hostport[end + 1..].strip_prefix(':'))
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    if host.is_empty() || host.contains(|c: char| c.is_whitespace() || c == '{') {
        return Err(UrlError::NoHost(s.to_string()));
    }
    let port = match port {
        None | Some("") => default,
        Some(p) => p
            .parse::<u16>()
            .map_err(|_| UrlError::BadPort(s.to_string()))?,
    };
    let path = match path {
        "" => "/".to_string(),
        p if p.starts_with('?') => format!("/{p}"),
        p => p.to_string(),
    };
    Ok(Url {
        origin: Origin {
            scheme,
            host: host.to_ascii_lowercase(),
            port,
        },
        path,
        has_userinfo,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_ports_and_case_make_one_origin() {
        let a = parse_url("HTTP://Example.COM/mcp").expect("valid");
        let b = parse_url("http://example.com:80").expect("valid");
        assert_eq!(a.origin, b.origin);
        assert_eq!(a.path, "/mcp");
        assert_eq!(b.path, "/");
        assert_eq!(a.origin.to_string(), "http://example.com");
    }

    #[test]
    fn scheme_port_and_host_each_separate_origins() {
        let base = parse_url("http://127.0.0.1:8931/").expect("valid").origin;
        for other in [
            "https://127.0.0.1:8931/mcp",
            "http://127.0.0.1:8932/mcp",
            "http://localhost:8931/mcp",
        ] {
            assert_ne!(parse_url(other).expect("valid").origin, base, "{other}");
        }
    }

    #[test]
    fn ipv6_userinfo_query_and_fragment() {
        let u = parse_url("http://u:p@[::1]:9000?x=1#frag").expect("valid");
        assert!(u.has_userinfo);
        assert_eq!(u.origin.host, "[::1]");
        assert_eq!(u.origin.port, 9000);
        assert_eq!(u.path, "/?x=1");
    }

    #[test]
    fn rejects_non_http_and_templates() {
        assert!(parse_url("ftp://example.com/").is_err());
        assert!(parse_url("/mcp").is_err());
        assert!(parse_url("https://{tenant}.example.com/mcp").is_err());
        assert!(parse_url("http://example.com:99999/").is_err());
    }
}
