//! The authorization layer of 2026-07-28 (`basic/authorization/`) as pure code: what a
//! protected target's challenge says ([`challenge`]), the probe family sent to protected
//! targets ([`probes`]), and how their answers and the protected-resource metadata document
//! are judged against the `AUTH-*` rules ([`judge`]).
//!
//! Secrets never reach this crate. A probe that needs the run's credential carries a
//! placeholder (`{{MCPDIFF_TOKEN}}` ...) that the transport fills at send time, and that
//! reproducers turn into an environment variable.

pub mod challenge;
pub mod judge;
pub mod probes;

pub use challenge::{is_auth_challenge, parse_challenges, Challenge};
pub use judge::{judge_metadata, judge_probe, resource_names, AuthJudgement, MetadataFacts};
pub use probes::{auth_probes, unsigned_token, AuthProbe, ProbeKind};

/// The environment variable (and placeholder name) of the configured `Authorization` value.
pub const AUTHORIZATION_ENV: &str = "MCPDIFF_AUTHORIZATION";
/// The placeholder name of the bearer token alone (the configured `Authorization` without
/// its scheme); reproducers spell it `${MCPDIFF_AUTHORIZATION#* }`.
pub const TOKEN_ENV: &str = "MCPDIFF_TOKEN";
/// The environment variable of `--foreign-token`.
pub const FOREIGN_ENV: &str = "MCPDIFF_FOREIGN_TOKEN";

/// `{{NAME}}`: how a case refers to a secret it must not contain.
pub fn placeholder(env: &str) -> String {
    format!("{{{{{env}}}}}")
}

/// The RFC 9728 well-known path suffix.
pub const WELL_KNOWN_PRM: &str = "/.well-known/oauth-protected-resource";

/// The two well-known metadata locations for an endpoint path, in the order clients try
/// them (`authorization-server-discovery.mdx`: path insertion first, then the root).
pub fn well_known_paths(endpoint_path: &str) -> Vec<String> {
    let path = endpoint_path.split('?').next().unwrap_or("");
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        vec![WELL_KNOWN_PRM.to_string()]
    } else {
        vec![
            format!("{WELL_KNOWN_PRM}{path}"),
            WELL_KNOWN_PRM.to_string(),
        ]
    }
}
