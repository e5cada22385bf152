//! The redaction pass: the last line of defence that keeps `--header` values out of every
//! output. The first line is structural (a secret never enters a case, an observation or a
//! report: `transport::Credentials`); this pass catches what a server echoes back (an error
//! message quoting the token) and anything a future writer might add.
//!
//! The CLI registers the run's credentials once ([`register`]); every writer of terminal
//! text, report files, corpus entries and baselines sends its text through [`redact`] (or
//! writes with [`write`]), which replaces each secret by the environment variable a
//! reproducer reads it from (`$MCPDIFF_AUTHORIZATION`).

use crate::transport::Credentials;
use std::path::Path;
use std::sync::{PoisonError, RwLock};

/// (secret bytes, replacement), longest first so a value wins over the token inside it.
static SECRETS: RwLock<Vec<(Vec<u8>, String)>> = RwLock::new(Vec::new());

/// Secrets shorter than this are not redacted from echoes (they would match everywhere); the
/// CLI warns about them. They still never enter a case or a report (structural guarantee).
pub const MIN_LEN: usize = 4;

/// Add the values of `creds` to the redaction list (for the rest of the process).
pub fn register(creds: &Credentials) {
    let mut s = SECRETS.write().unwrap_or_else(PoisonError::into_inner);
    for (v, name) in creds.redactions() {
        if v.len() < MIN_LEN {
            continue;
        }
        // as written, and as the JSON and HTML writers would escape an echo of it
        let text = String::from_utf8_lossy(&v).into_owned();
        let json = serde_json::to_string(&text).unwrap_or_default();
        let json = json.trim_matches('"').to_string();
        let html = text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&#39;");
        for form in [text, json, html] {
            if !s.iter().any(|(x, _)| *x == form.as_bytes()) {
                s.push((form.into_bytes(), name.clone()));
            }
        }
    }
    s.sort_by_key(|b| std::cmp::Reverse(b.0.len()));
}

/// `text` with every registered secret replaced by its variable name.
pub fn redact(text: &str) -> String {
    let s = SECRETS.read().unwrap_or_else(PoisonError::into_inner);
    let mut out = text.to_string();
    for (secret, name) in s.iter() {
        // secrets are parsed from UTF-8 arguments, so they are valid UTF-8 here
        if let Ok(secret) = std::str::from_utf8(secret) {
            if out.contains(secret) {
                out = out.replace(secret, name);
            }
        }
    }
    out
}

/// `std::fs::write` of the redacted text.
pub fn write(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, redact(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_escaped_echoes() {
        let c = Credentials::parse(&["X-Key: a\"b<c>d".into()], None).unwrap();
        register(&c);
        assert_eq!(redact(r#"{"e":"a\"b<c>d"}"#), r#"{"e":"$MCPDIFF_X_KEY"}"#);
        assert_eq!(redact("a&quot;b&lt;c&gt;d"), "$MCPDIFF_X_KEY");
    }

    #[test]
    fn redacts_values_and_the_token_alone() {
        let c = Credentials::parse(&["Authorization: Bearer zq-secret-77".into()], None).unwrap();
        register(&c);
        assert_eq!(
            redact("got 'Bearer zq-secret-77' then zq-secret-77."),
            "got '$MCPDIFF_AUTHORIZATION' then $MCPDIFF_TOKEN."
        );
    }
}
