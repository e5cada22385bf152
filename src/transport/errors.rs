//! What can be wrong with the transport's configuration, as types: a `--header` /
//! `--foreign-token` argument (`CredentialError`, never quoting a value) and the TLS set-up or
//! handshake of an `https://` target (`TlsError`). Each displays as the one line the user
//! reads; the command decides the exit status.

use std::fmt;
use std::time::Duration;

/// A `--header` or `--foreign-token` argument that cannot be used. No variant holds a value:
/// the message names the field, never its secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CredentialError {
    /// No `:` in the argument (its length in bytes).
    NoColon {
        bytes: usize,
    },
    /// The part before `:` is not an RFC 9110 token.
    BadName(String),
    /// The value of this field holds CR, LF or NUL.
    ControlInValue(String),
    /// A field the transport writes itself (Host, Content-Length...).
    NotConfigurable(String),
    /// This field name is given twice (case-insensitively).
    Twice(String),
    ForeignTokenEmpty,
    ForeignTokenNotPrintable,
}

impl fmt::Display for CredentialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CredentialError::NoColon { bytes } => write!(
                f,
                "--header needs 'Name: value' (no ':' found in an argument of {bytes} bytes)"
            ),
            CredentialError::BadName(name) => write!(
                f,
                "--header: `{name}` is not a header name (letters, digits and !#$%&'*+-.^_`|~)"
            ),
            CredentialError::ControlInValue(name) => {
                write!(f, "--header {name}: the value contains CR, LF or NUL")
            }
            CredentialError::NotConfigurable(name) => write!(
                f,
                "--header {name}: mcpdiff writes this field itself; it cannot be configured"
            ),
            CredentialError::Twice(name) => write!(f, "--header {name} is given twice"),
            CredentialError::ForeignTokenEmpty => f.write_str("--foreign-token is empty"),
            CredentialError::ForeignTokenNotPrintable => {
                f.write_str("--foreign-token must be printable ASCII without spaces")
            }
        }
    }
}

impl std::error::Error for CredentialError {}

/// The TLS client could not be built (`--cacert`), or an `https://` target's handshake
/// failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TlsError {
    /// The `--cacert` file (as shown) cannot be read.
    CacertUnreadable { path: String, error: String },
    /// The file is not a sequence of PEM certificates.
    CacertNotPem { path: String, error: String },
    /// A certificate of the file is refused by the root store.
    CacertUnusable { path: String, error: String },
    /// The file holds no certificate.
    CacertEmpty { path: String },
    /// rustls refused the verifier built from the roots.
    Verifier(String),
    /// The target's host is not a name a certificate can be checked against.
    ServerName(String),
    /// The handshake failed; the cause in words (unknown issuer, name mismatch, plain HTTP
    /// behind https://...), as `tls::describe` words it.
    Handshake(String),
    /// No handshake answer from `at` within `within`.
    NoAnswer { at: String, within: Duration },
}

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TlsError::CacertUnreadable { path, error } => {
                write!(f, "cannot read --cacert {path}: {error}")
            }
            TlsError::CacertNotPem { path, error } => {
                write!(f, "--cacert {path}: not PEM certificates: {error}")
            }
            TlsError::CacertUnusable { path, error } => {
                write!(f, "--cacert {path}: unusable certificate: {error}")
            }
            TlsError::CacertEmpty { path } => write!(
                f,
                "--cacert {path} holds no certificate (expected -----BEGIN CERTIFICATE----- blocks)"
            ),
            TlsError::Verifier(error) => {
                write!(f, "cannot build the certificate verifier: {error}")
            }
            TlsError::ServerName(host) => write!(f, "TLS: `{host}` is not a valid server name"),
            TlsError::Handshake(line) => f.write_str(line),
            TlsError::NoAnswer { at, within } => write!(
                f,
                "TLS: no handshake answer from {at} within {within:?} (server speaks plain HTTP, \
                 or is not answering?)"
            ),
        }
    }
}

impl std::error::Error for TlsError {}
