//! `Credentials`: the `-H/--header 'Name: value'` fields of a run (and `--foreign-token`),
//! kept as secrets.
//!
//! A secret never enters a `Case`, an `Observation` or a report: the transport adds the
//! configured fields at send time, to a case that does not carry a field of that name
//! (`wire::encode_request_with`), and replaces the placeholders a case may carry on purpose
//! (`{{MCPDIFF_AUTHORIZATION}}`, `{{MCPDIFF_TOKEN}}`, `{{MCPDIFF_FOREIGN_TOKEN}}`: the
//! authorization probes of `mcpdiff_oracle::auth`) by the values. Everything that is written
//! down sees only names and placeholders; reproducers turn them into environment variables
//! (`$MCPDIFF_AUTHORIZATION`). `Secret` has no `Serialize` and a `Debug` that prints nothing,
//! so a future field of a report cannot carry one by accident; [`crate::secrets`] redacts
//! every output once more (a server may echo a token back).

use super::errors::CredentialError;
use mcpdiff_oracle::auth::{placeholder, FOREIGN_ENV, TOKEN_ENV};
use std::fmt;
use std::sync::Arc;

/// A secret value. No `Display`, no `Serialize`; `Debug` prints `<secret>`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Vec<u8>);

impl Secret {
    pub fn new(bytes: impl Into<Vec<u8>>) -> Secret {
        Secret(bytes.into())
    }

    /// The bytes, for the transport and the redaction pass only.
    pub fn expose(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<secret>")
    }
}

/// One configured field.
#[derive(Clone, Debug)]
struct Field {
    name: String,
    /// `MCPDIFF_` + the name, upper case, non-alphanumerics as `_`.
    env: String,
    value: Secret,
}

/// The configured fields of a run; cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct Credentials {
    inner: Arc<CredentialFields>,
}

#[derive(Debug, Default)]
struct CredentialFields {
    fields: Vec<Field>,
    foreign: Option<Secret>,
}

/// The environment variable a reproducer reads a configured field from.
pub fn env_name(header: &str) -> String {
    let mut s = String::from("MCPDIFF_");
    s.extend(header.chars().map(|c| {
        if c.is_ascii_alphanumeric() {
            c.to_ascii_uppercase()
        } else {
            '_'
        }
    }));
    s
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Fields the transport owns or that would change how the request is framed.
const NOT_CONFIGURABLE: [&str; 4] = ["host", "content-length", "transfer-encoding", "connection"];

impl Credentials {
    /// Parse `--header` arguments (`Name: value`) and `--foreign-token`. The error is one
    /// line that never quotes the value.
    pub fn parse(
        headers: &[String],
        foreign: Option<&str>,
    ) -> Result<Credentials, CredentialError> {
        let mut fields: Vec<Field> = Vec::new();
        for h in headers {
            let Some((name, value)) = h.split_once(':') else {
                return Err(CredentialError::NoColon { bytes: h.len() });
            };
            let name = name.trim();
            if name.is_empty() || !name.bytes().all(is_tchar) {
                return Err(CredentialError::BadName(name.to_string()));
            }
            let value = value.trim_matches([' ', '\t']);
            if value.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
                return Err(CredentialError::ControlInValue(name.to_string()));
            }
            if NOT_CONFIGURABLE
                .iter()
                .any(|n| name.eq_ignore_ascii_case(n))
            {
                return Err(CredentialError::NotConfigurable(name.to_string()));
            }
            if fields.iter().any(|f| f.name.eq_ignore_ascii_case(name)) {
                return Err(CredentialError::Twice(name.to_string()));
            }
            fields.push(Field {
                name: name.to_string(),
                env: env_name(name),
                value: Secret::new(value.as_bytes()),
            });
        }
        let foreign = match foreign.map(str::trim) {
            Some("") => return Err(CredentialError::ForeignTokenEmpty),
            Some(t) if t.bytes().any(|b| !(0x21..=0x7e).contains(&b)) => {
                return Err(CredentialError::ForeignTokenNotPrintable)
            }
            Some(t) => Some(Secret::new(t.as_bytes())),
            None => None,
        };
        Ok(Credentials {
            inner: Arc::new(CredentialFields { fields, foreign }),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.inner.fields.is_empty() && self.inner.foreign.is_none()
    }

    /// The configured field names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.inner.fields.iter().map(|f| f.name.as_str())
    }

    /// Whether an `Authorization` field is configured.
    pub fn has_authorization(&self) -> bool {
        self.value("authorization").is_some()
    }

    /// The bearer token of the configured `Authorization: Bearer TOKEN`, if that is its form.
    fn bearer_token(&self) -> Option<&[u8]> {
        let v = self.value("authorization")?;
        let (scheme, token) = v.split_at(v.iter().position(|&b| b == b' ')?);
        let token = mcpdiff_oracle::case::trim_ows(token);
        (scheme.eq_ignore_ascii_case(b"bearer") && !token.is_empty()).then_some(token)
    }

    /// Whether the configured `Authorization` is a bearer token (the authorization probes
    /// need one).
    pub fn has_bearer(&self) -> bool {
        self.bearer_token().is_some()
    }

    pub fn has_foreign_token(&self) -> bool {
        self.inner.foreign.is_some()
    }

    fn value(&self, name: &str) -> Option<&[u8]> {
        self.inner
            .fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
            .map(|f| f.value.expose())
    }

    /// Every (placeholder, value) pair this configuration can fill.
    fn substitutions(&self) -> Vec<(String, &[u8])> {
        let mut out: Vec<(String, &[u8])> = self
            .inner
            .fields
            .iter()
            .map(|f| (placeholder(&f.env), f.value.expose()))
            .collect();
        if let Some(t) = self.bearer_token() {
            out.push((placeholder(TOKEN_ENV), t));
        }
        if let Some(f) = &self.inner.foreign {
            out.push((placeholder(FOREIGN_ENV), f.expose()));
        }
        out
    }

    /// `bytes` with every placeholder this configuration knows replaced by its value.
    pub(crate) fn fill(&self, bytes: &[u8]) -> Vec<u8> {
        if !contains(bytes, b"{{MCPDIFF_") {
            return bytes.to_vec();
        }
        let subs = self.substitutions();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        'outer: while i < bytes.len() {
            for (p, v) in &subs {
                if bytes[i..].starts_with(p.as_bytes()) {
                    out.extend_from_slice(v);
                    i += p.len();
                    continue 'outer;
                }
            }
            out.push(bytes[i]);
            i += 1;
        }
        out
    }

    /// The configured fields a case lacks, as (name, placeholder) pairs: what a reproducer
    /// adds (placeholders, never values).
    pub fn missing_placeholders<'a>(
        &'a self,
        has_field: impl Fn(&str) -> bool + 'a,
    ) -> impl Iterator<Item = (&'a str, String)> + 'a {
        self.inner
            .fields
            .iter()
            .filter(move |f| !has_field(&f.name))
            .map(|f| (f.name.as_str(), placeholder(&f.env)))
    }

    /// The configured fields a case lacks, with their values (the transport only).
    pub(crate) fn missing_fields<'a>(
        &'a self,
        has_field: impl Fn(&str) -> bool + 'a,
    ) -> impl Iterator<Item = (&'a str, &'a [u8])> + 'a {
        self.inner
            .fields
            .iter()
            .filter(move |f| !has_field(&f.name))
            .map(|f| (f.name.as_str(), f.value.expose()))
    }

    /// (text to hide, what to show instead) for the redaction pass: each value, the bearer
    /// token on its own and the foreign token.
    pub fn redactions(&self) -> Vec<(Vec<u8>, String)> {
        let mut out: Vec<(Vec<u8>, String)> = self
            .inner
            .fields
            .iter()
            .map(|f| (f.value.expose().to_vec(), format!("${}", f.env)))
            .collect();
        if let Some(t) = self.bearer_token() {
            out.push((t.to_vec(), format!("${TOKEN_ENV}")));
        }
        if let Some(f) = &self.inner.foreign {
            out.push((f.expose().to_vec(), format!("${FOREIGN_ENV}")));
        }
        out
    }

    /// The environment variables a reproducer of this run reads, with what to put in each.
    pub fn env_help(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .inner
            .fields
            .iter()
            .map(|f| format!("{}='<your {} value>'", f.env, f.name))
            .collect();
        if self.inner.foreign.is_some() {
            out.push(format!("{FOREIGN_ENV}='<the --foreign-token value>'"));
        }
        out
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_names() {
        let c = Credentials::parse(
            &["Authorization: Bearer s3cr3t".into(), "X-Api-Key:k1".into()],
            Some("f0reign"),
        )
        .unwrap();
        assert_eq!(
            c.names().collect::<Vec<_>>(),
            ["Authorization", "X-Api-Key"]
        );
        assert!(c.has_bearer() && c.has_foreign_token());
        assert_eq!(env_name("X-Api-Key"), "MCPDIFF_X_API_KEY");
        assert_eq!(
            c.fill(b"/mcp?access_token={{MCPDIFF_TOKEN}}&k={{MCPDIFF_X_API_KEY}}"),
            b"/mcp?access_token=s3cr3t&k=k1"
        );
        assert_eq!(
            c.fill(b"Bearer {{MCPDIFF_FOREIGN_TOKEN}}"),
            b"Bearer f0reign"
        );
        assert!(!format!("{c:?}").contains("s3cr3t"));
    }

    #[test]
    fn bad_syntax_is_one_line_without_the_value() {
        for bad in [
            "Authorization Bearer s3cr3t",
            "Bad Name: s3cr3t",
            ": s3cr3t",
            "Host: s3cr3t",
            "A: s3cr3t\r\nB: x",
        ] {
            let e = Credentials::parse(&[bad.to_string()], None)
                .unwrap_err()
                .to_string();
            assert!(!e.contains("s3cr3t") && !e.contains('\n'), "{e}");
        }
        assert!(Credentials::parse(&["A: 1".into(), "a: 2".into()], None).is_err());
    }
}
