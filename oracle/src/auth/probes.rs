//! The authorization probe family: one conformant request (`server/discover`) presented with
//! each kind of credential a protected server must refuse, plus the duplicated valid one.
//!
//! These are not mutations of generated cases: they go once to each protected target, after
//! the run, exactly as written (the transport adds no configured field to them). A probe that
//! needs the run's own credential carries a placeholder, never the value.

use super::{placeholder, AUTHORIZATION_ENV, FOREIGN_ENV, TOKEN_ENV};
use crate::case::Case;
use crate::client::conformant_case;
use crate::surface::Surface;
use serde_json::json;

/// Which credential a probe presents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProbeKind {
    /// No `Authorization` field.
    Missing,
    /// `Authorization: Bearer` with no token.
    Empty,
    /// `Authorization: Bearer` followed by text that is not a token (spaces inside).
    Malformed,
    /// The run's token under another scheme: `Authorization: Basic TOKEN`.
    WrongScheme,
    /// The run's valid `Authorization` field twice.
    Duplicated,
    /// A well-formed bearer token the server cannot have issued.
    Invalid,
    /// No `Authorization` field; the run's token in the query string (`?access_token=`).
    Query,
    /// `--foreign-token`: a token issued for another audience.
    Foreign,
    /// An unsigned JWT (`alg: none`) naming the target as its audience: no authorization
    /// server issued it, whatever it claims.
    Unsigned,
}

impl ProbeKind {
    pub fn label(self) -> &'static str {
        match self {
            ProbeKind::Missing => "missing credential",
            ProbeKind::Empty => "empty credential",
            ProbeKind::Malformed => "malformed credential",
            ProbeKind::WrongScheme => "token under the Basic scheme",
            ProbeKind::Duplicated => "valid credential sent twice",
            ProbeKind::Invalid => "unknown bearer token",
            ProbeKind::Query => "token in the URI query string",
            ProbeKind::Foreign => "token issued for another audience",
            ProbeKind::Unsigned => "unsigned token naming this server as audience",
        }
    }
}

/// One probe.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthProbe {
    pub kind: ProbeKind,
    pub case: Case,
}

/// A token no authorization server issued (well-formed per RFC 6750's b64token).
pub const UNKNOWN_TOKEN: &str = "mcpdiff-unknown-token-0000000000";

/// A JWT with `alg: none` and no signature whose claims name `resource` as audience (RFC 7519
/// §6: an "Unsecured JWT"): a token only a server that skips validation accepts.
pub fn unsigned_token(resource: &str) -> String {
    use base64::Engine;
    let b64 = |v: serde_json::Value| {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string().as_bytes())
    };
    let header = b64(json!({"alg": "none", "typ": "JWT"}));
    let claims = b64(json!({
        "iss": "https://mcpdiff.invalid",
        "sub": "mcpdiff",
        "aud": resource,
        "scope": "mcp",
        // 2100-01-01
        "exp": 4_102_444_800u64,
    }));
    format!("{header}.{claims}.")
}

/// The probes for an endpoint (`resource`: its URL, the audience the unsigned token claims):
/// every kind, `Foreign` only when a foreign token is given.
pub fn auth_probes(endpoint_path: &str, resource: &str, with_foreign: bool) -> Vec<AuthProbe> {
    let base = conformant_case(
        &Surface::minimal(endpoint_path),
        json!(1),
        "server/discover",
        json!({}),
    );
    let token = placeholder(TOKEN_ENV);
    let with = |kind: ProbeKind, values: &[String]| {
        let mut case = base.clone();
        for v in values {
            case.headers
                .push((b"Authorization".to_vec(), v.as_bytes().to_vec()));
        }
        case.labels = vec![format!("auth: {}", kind.label())];
        AuthProbe { kind, case }
    };
    let mut out = vec![
        with(ProbeKind::Missing, &[]),
        with(ProbeKind::Empty, &["Bearer".to_string()]),
        with(
            ProbeKind::Malformed,
            &["Bearer not a token, \"quoted\"".to_string()],
        ),
        with(ProbeKind::WrongScheme, &[format!("Basic {token}")]),
        with(
            ProbeKind::Duplicated,
            &[
                placeholder(AUTHORIZATION_ENV),
                placeholder(AUTHORIZATION_ENV),
            ],
        ),
        with(ProbeKind::Invalid, &[format!("Bearer {UNKNOWN_TOKEN}")]),
        with(
            ProbeKind::Unsigned,
            &[format!("Bearer {}", unsigned_token(resource))],
        ),
    ];
    let mut query = with(ProbeKind::Query, &[]);
    let sep = if query.case.path.contains('?') {
        '&'
    } else {
        '?'
    };
    query.case.path = format!("{}{sep}access_token={token}", query.case.path);
    out.push(query);
    if with_foreign {
        out.push(with(
            ProbeKind::Foreign,
            &[format!("Bearer {}", placeholder(FOREIGN_ENV))],
        ));
    }
    out
}
