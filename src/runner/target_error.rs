//! Why a target could not be prepared for a run (`TargetError`): its URL, its TLS handshake,
//! an authorization challenge at discovery, or no connection at all. Each displays as the one
//! line the run prints; the variant says which kind of "not tested" it is.

use crate::transport::{EndpointError, TlsError};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetError {
    BadUrl {
        url: String,
        error: EndpointError,
    },
    Tls(TlsError),
    /// Discovery met a 401/403 challenge: the lines `auth::unauthorized_message` wrote (what
    /// the server asked for, its metadata, the flag to add).
    Unauthorized(String),
    /// No connection to `url`.
    Refused {
        url: String,
    },
}

impl TargetError {
    /// The discovery-time authorization stop (not a connection problem).
    pub fn is_unauthorized(&self) -> bool {
        matches!(self, TargetError::Unauthorized(_))
    }
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::BadUrl { url, error } => write!(f, "bad target URL '{url}': {error}"),
            TargetError::Tls(e) => e.fmt(f),
            TargetError::Unauthorized(message) => f.write_str(message),
            TargetError::Refused { url } => write!(
                f,
                "cannot connect to {url}: connection refused or failed; is the server running, \
                 and is the host:port right?"
            ),
        }
    }
}

impl std::error::Error for TargetError {}
