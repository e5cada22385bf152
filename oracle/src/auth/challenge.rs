//! `WWW-Authenticate` challenges (RFC 9110 §11.6.1 syntax): the scheme and its parameters,
//! and the predicate "this answer is an authorization challenge", shared by discovery (which
//! stops and asks for credentials) and the run (a case answered that way mid-run is not
//! determined, never a finding).

use crate::observation::{HttpAnswer, Observation};

/// One challenge: `Bearer resource_metadata="...", scope="a b"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub scheme: String,
    /// `name=value` parameters, names lowercased, quoted values unescaped.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Whether `a` refuses for want of (valid) credentials: `401` or `403` with a
/// `WWW-Authenticate` field.
pub fn is_auth_challenge(a: &HttpAnswer) -> bool {
    matches!(a.status, 401 | 403) && a.www_authenticate.is_some()
}

/// [`is_auth_challenge`] on an observation (a transport failure is not one).
pub fn observation_is_auth_challenge(o: &Observation) -> bool {
    o.http().is_some_and(is_auth_challenge)
}

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Parse a `WWW-Authenticate` value (repeated fields joined with `, `) into challenges.
/// Lenient: what does not parse is skipped, never an error.
pub fn parse_challenges(value: &str) -> Vec<Challenge> {
    let s: Vec<char> = value.chars().collect();
    let mut i = 0;
    let mut out: Vec<Challenge> = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < s.len() && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == ',') {
            *i += 1;
        }
    };
    let token = |i: &mut usize| {
        let start = *i;
        while *i < s.len() && (is_tchar(s[*i]) || s[*i] == '/' || s[*i] == '=') {
            *i += 1;
        }
        s[start..*i].iter().collect::<String>()
    };
    while i < s.len() {
        skip_ws(&mut i);
        let start = i;
        let word = token(&mut i);
        if word.is_empty() {
            i += 1;
            continue;
        }
        // `name=` after a scheme is a parameter of the current challenge
        let mut j = i;
        while j < s.len() && (s[j] == ' ' || s[j] == '\t') {
            j += 1;
        }
        let is_param = word.contains('=') || (j < s.len() && s[j] == '=');
        if is_param && !out.is_empty() {
            i = start;
            while i < s.len() && is_tchar(s[i]) {
                i += 1;
            }
            let name: String = s[start..i].iter().collect::<String>().to_ascii_lowercase();
            while i < s.len() && (s[i] == ' ' || s[i] == '\t') {
                i += 1;
            }
            if i < s.len() && s[i] == '=' {
                i += 1;
            }
            while i < s.len() && (s[i] == ' ' || s[i] == '\t') {
                i += 1;
            }
            let mut v = String::new();
            if i < s.len() && s[i] == '"' {
                i += 1;
                while i < s.len() && s[i] != '"' {
                    if s[i] == '\\' && i + 1 < s.len() {
                        i += 1;
                    }
                    v.push(s[i]);
                    i += 1;
                }
                i += 1;
            } else {
                while i < s.len() && s[i] != ',' && s[i] != ' ' {
                    v.push(s[i]);
                    i += 1;
                }
            }
            if let Some(c) = out.last_mut() {
                c.params.push((name, v));
            }
        } else {
            // a token68 after the scheme (`Basic abc==`) is kept as no parameter
            if word.contains('=') {
                continue;
            }
            out.push(Challenge {
                scheme: word,
                params: Vec::new(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spec_examples() {
        let c = parse_challenges(
            r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read""#,
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].scheme, "Bearer");
        assert_eq!(
            c[0].param("resource_metadata"),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(c[0].param("scope"), Some("files:read"));
        let c = parse_challenges(
            r#"Bearer error="insufficient_scope", scope="files:write", error_description="a \"b\"""#,
        );
        assert_eq!(c[0].param("error"), Some("insufficient_scope"));
        assert_eq!(c[0].param("error_description"), Some("a \"b\""));
        let c = parse_challenges("Basic realm=x, Bearer");
        assert_eq!(
            c.iter().map(|c| c.scheme.as_str()).collect::<Vec<_>>(),
            ["Basic", "Bearer"]
        );
        assert_eq!(c[0].param("realm"), Some("x"));
        assert!(parse_challenges("").is_empty());
    }
}
