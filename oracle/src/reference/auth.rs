//! The reference server as a protected resource (`mcpdiff serve --auth TOKEN`): a pure guard
//! in front of `respond`, and the protected-resource metadata document (RFC 9728) it serves.
//! The auth mutants (`AUTH_MUTANTS`) each break one `AUTH-*` rule here, by an [`AuthChange`].
//!
//! The guard accepts exactly one `Authorization: Bearer TOKEN` field (scheme case-insensitive,
//! RFC 9110 §11.1) and refuses everything else with `401` and
//! `WWW-Authenticate: Bearer resource_metadata="...", scope="mcp"` (+ `error="invalid_token"`
//! when a credential was presented): 401 is in every allowed set of `crate::auth::judge`.

use super::response::Response;
use crate::auth::{well_known_paths, WELL_KNOWN_PRM};
use crate::case::{trim_ows, Case};
use serde_json::{json, Value};

/// The scope the reference challenges with and lists in `scopes_supported`.
pub const SCOPE: &str = "mcp";

/// What an auth mutant changes in the guard or the metadata (one `AUTH-*` rule each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthChange {
    /// A request without credentials gets 403, not 401.
    MissingIs403,
    /// A well-formed bearer token it does not accept gets 403, not 401.
    InvalidIs403,
    /// Accepts the token issued for another audience ([`AuthConfig::foreign_token`]).
    AudienceUnchecked,
    /// Accepts the token in the `access_token` query parameter.
    QueryToken,
    /// Accepts the token under any scheme.
    SchemeUnchecked,
    /// Challenges without a `scope` parameter.
    NoScope,
    /// Challenges for `offline_access` and lists it in `scopes_supported`.
    OfflineAccess,
    /// Names no `resource_metadata` and serves no metadata.
    NoMetadata,
    /// The metadata names another resource.
    ResourceForeign,
    /// The metadata lists no authorization server.
    NoAuthorizationServers,
    /// Answers 401 without a `WWW-Authenticate` field (discovery left to the well-known URI).
    NoChallenge,
    /// Accepts an unsigned JWT (`alg: none`) whose `aud` names it, without validating it.
    UnsignedAccepted,
}

/// How the reference is protected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthConfig {
    /// The one token it accepts.
    pub token: String,
    /// A token "its" authorization server issued for another audience: refused by the
    /// reference, accepted by `auth-audience-unchecked`.
    pub foreign_token: Option<String>,
    /// `http://host:port`, the origin the server is reached at.
    pub origin: String,
    /// The MCP endpoint path (`/mcp`).
    pub endpoint: String,
}

impl AuthConfig {
    /// The endpoint URL: the `resource` of the metadata document.
    pub fn resource(&self) -> String {
        format!("{}{}", self.origin, self.endpoint)
    }

    /// Where the metadata is served (path insertion, the first well-known location).
    pub fn metadata_path(&self) -> String {
        well_known_paths(&self.endpoint)
            .into_iter()
            .next()
            .unwrap_or_else(|| WELL_KNOWN_PRM.to_string())
    }
}

fn is_b64token(t: &[u8]) -> bool {
    let body = t.iter().rposition(|&b| b != b'=').map_or(0, |p| p + 1);
    body > 0
        && t[..body]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// The scheme and token of one `Authorization` value.
fn split(value: &[u8]) -> (&[u8], &[u8]) {
    let v = trim_ows(value);
    match v.iter().position(|&b| b == b' ') {
        Some(i) => (&v[..i], trim_ows(&v[i..])),
        None => (v, &[]),
    }
}

/// The token of an `access_token` query parameter, if any.
fn query_token(path: &str) -> Option<&str> {
    let (_, q) = path.split_once('?')?;
    q.split('&').find_map(|kv| kv.strip_prefix("access_token="))
}

/// The `aud` claim of an unsigned JWT (`alg: none`, empty signature), read without any
/// validation: what `auth-unsigned-accepted` trusts.
fn unsigned_claims_audience(token: &[u8]) -> Option<String> {
    use base64::Engine;
    let text = std::str::from_utf8(token).ok()?;
    let mut parts = text.split('.');
    let (header, claims, signature) = (parts.next()?, parts.next()?, parts.next()?);
    let decode = |p: &str| -> Option<Value> {
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(p)
            .ok()?;
        serde_json::from_slice(&bytes).ok()
    };
    let alg_none = decode(header)?.get("alg")? == "none";
    let aud = decode(claims)?.get("aud")?.as_str()?.to_string();
    (alg_none && signature.is_empty() && parts.next().is_none()).then_some(aud)
}

/// `None`: the request may go on to `respond`; `Some`: the refusal (or, for a mutant that
/// takes a wrong credential, nothing: it lets the request through). `change` is the auth
/// mutant's (`None`: the protected reference).
pub fn guard(cfg: &AuthConfig, case: &Case, change: Option<AuthChange>) -> Option<Response> {
    use AuthChange::*;
    let fields: Vec<&[u8]> = case.header_values("authorization").collect();
    let token = cfg.token.as_bytes();
    let accepted = match (fields.as_slice(), change) {
        ([one], _) if split(one).0.eq_ignore_ascii_case(b"bearer") && split(one).1 == token => true,
        ([one], Some(AudienceUnchecked)) => {
            split(one).0.eq_ignore_ascii_case(b"bearer")
                && cfg
                    .foreign_token
                    .as_ref()
                    .is_some_and(|f| split(one).1 == f.as_bytes())
        }
        ([one], Some(SchemeUnchecked)) => split(one).1 == token,
        ([], Some(QueryToken)) => query_token(&case.path) == Some(cfg.token.as_str()),
        ([one], Some(UnsignedAccepted)) => {
            split(one).0.eq_ignore_ascii_case(b"bearer")
                && unsigned_claims_audience(split(one).1) == Some(cfg.resource())
        }
        // every other change accepts only what the reference accepts
        _ => false,
    };
    if accepted {
        return None;
    }
    let presented = !fields.is_empty();
    let status = match (change, fields.as_slice()) {
        (Some(MissingIs403), []) => 403,
        (Some(InvalidIs403), [one])
            if split(one).0.eq_ignore_ascii_case(b"bearer") && is_b64token(split(one).1) =>
        {
            403
        }
        _ => 401,
    };
    let mut params = Vec::new();
    if presented {
        params.push("error=\"invalid_token\"".to_string());
    }
    if change != Some(NoMetadata) {
        params.push(format!(
            "resource_metadata=\"{}{}\"",
            cfg.origin,
            cfg.metadata_path()
        ));
    }
    match change {
        Some(NoScope) => {}
        Some(OfflineAccess) => params.push(format!("scope=\"{SCOPE} offline_access\"")),
        _ => params.push(format!("scope=\"{SCOPE}\"")),
    }
    let mut r = Response::empty(status);
    if change == Some(NoChallenge) {
        return Some(r);
    }
    r.headers.push((
        "WWW-Authenticate".into(),
        format!("Bearer {}", params.join(", ")),
    ));
    Some(r)
}

/// The answer to a GET of `path` when it is the metadata location (`None` otherwise);
/// `change` as for [`guard`].
pub fn metadata(cfg: &AuthConfig, path: &str, change: Option<AuthChange>) -> Option<Response> {
    use AuthChange::*;
    if path != cfg.metadata_path() {
        return None;
    }
    if change == Some(NoMetadata) {
        return Some(Response::empty(404));
    }
    let resource = match change {
        Some(ResourceForeign) => "http://resource.invalid/mcp".to_string(),
        _ => cfg.resource(),
    };
    let servers: Value = match change {
        Some(NoAuthorizationServers) => json!([]),
        _ => json!([format!("{}/authorization-server", cfg.origin)]),
    };
    let scopes = match change {
        Some(OfflineAccess) => json!([SCOPE, "offline_access"]),
        _ => json!([SCOPE]),
    };
    Some(Response::json(
        200,
        json!({
            "resource": resource,
            "authorization_servers": servers,
            "scopes_supported": scopes,
            "bearer_methods_supported": ["header"],
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::{auth_probes, judge_metadata, judge_probe, MetadataFacts};
    use crate::reference::{to_observation, AUTH_MUTANTS};
    use crate::rules::auth::AUTH_JUDGED_IDS;
    use std::collections::BTreeSet;

    fn cfg() -> AuthConfig {
        AuthConfig {
            token: "tok-1".into(),
            foreign_token: Some("foreign-2".into()),
            origin: "http://127.0.0.1:9".into(),
            endpoint: "/mcp".into(),
        }
    }

    /// What the runner does, in process: the probes with placeholders filled, the guard's
    /// answer (a pass-through counts as a result), then the metadata the challenge names.
    fn broken(mutant: Option<AuthChange>) -> BTreeSet<&'static str> {
        let c = cfg();
        let mut out = BTreeSet::new();
        let mut challenge_url = None;
        for p in auth_probes("/mcp", &c.resource(), true) {
            let mut case = p.case.clone();
            let fill = |s: &[u8]| {
                String::from_utf8_lossy(s)
                    .replace("{{MCPDIFF_AUTHORIZATION}}", "Bearer tok-1")
                    .replace("{{MCPDIFF_TOKEN}}", "tok-1")
                    .replace("{{MCPDIFF_FOREIGN_TOKEN}}", "foreign-2")
            };
            case.path = fill(case.path.as_bytes());
            for (_, v) in case.headers.iter_mut() {
                *v = fill(v).into_bytes();
            }
            let r = guard(&c, &case, mutant).unwrap_or_else(|| {
                Response::json(200, json!({"jsonrpc": "2.0", "id": 1, "result": {}}))
            });
            let obs = to_observation(&r);
            if p.kind == crate::auth::ProbeKind::Missing {
                challenge_url = obs
                    .http()
                    .and_then(|a| a.www_authenticate.as_deref())
                    .map(crate::auth::parse_challenges)
                    .and_then(|cs| {
                        cs.iter()
                            .find_map(|c| c.param("resource_metadata").map(str::to_string))
                    });
            }
            for j in judge_probe(p.kind, &obs) {
                if j.finding.is_some() {
                    out.insert(j.rule.0);
                }
            }
        }
        let mut facts = MetadataFacts {
            challenge_url: challenge_url.clone(),
            fetched: Vec::new(),
            target_url: c.resource(),
        };
        let mut urls: Vec<String> = challenge_url.into_iter().collect();
        urls.extend(
            well_known_paths("/mcp")
                .iter()
                .map(|p| format!("{}{p}", c.origin)),
        );
        for u in urls {
            let path = u.strip_prefix(&c.origin).unwrap_or("");
            let r = metadata(&c, path, mutant).unwrap_or_else(|| Response::empty(404));
            facts.fetched.push((u, Some(to_observation(&r))));
        }
        for (j, _) in judge_metadata(&facts) {
            if j.finding.is_some() {
                out.insert(j.rule.0);
            }
        }
        out
    }

    #[test]
    fn the_protected_reference_breaks_nothing() {
        assert!(broken(None).is_empty(), "{:?}", broken(None));
    }

    #[test]
    fn every_auth_mutant_breaks_exactly_its_rule() {
        let mut covered = BTreeSet::new();
        for m in AUTH_MUTANTS {
            let b = broken(m.auth_change());
            assert_eq!(b, BTreeSet::from([m.rule.0]), "mutant {}", m.name);
            covered.insert(m.rule);
        }
        for id in AUTH_JUDGED_IDS {
            assert!(covered.contains(id), "no auth mutant for {id}");
        }
    }
}
