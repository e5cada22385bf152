//! Judging the authorization probes and the protected-resource metadata document against the
//! `AUTH-*` rules. Pure: answers in, judgements out.
//!
//! As in the main judge, a *reject* rule and a *shape* rule are kept apart: whether a probe
//! got any data (`AUTH-NO-DATA`, `AUTH-AUDIENCE`, `AUTH-QUERY`) and, when it was refused,
//! whether the status is the one the spec names (`AUTH-STATUS`, `AUTH-INVALID-401`). A server
//! that skips a check and one that refuses with the wrong status are blamed on different
//! sentences. Readings of the open points: DEVIATIONS.md D-70..D-75.

use super::challenge::parse_challenges;
use super::probes::ProbeKind;
use crate::check::Finding;
use crate::observation::{Body, HttpAnswer, Observation};
use crate::rules::auth::{
    AUDIENCE, CHALLENGE_401, DISCOVERY, INVALID_401, NO_DATA, OFFLINE_ACCESS, OWN_TOKENS, PRM,
    PRM_AS, QUERY, SCOPE, STATUS,
};
use crate::rules::{level_of, RuleId};
use serde_json::Value;

/// One rule exercised by one answer: `finding` is `None` when the answer satisfies it.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthJudgement {
    pub rule: RuleId,
    pub finding: Option<Finding>,
}

fn judgement(rule: RuleId, ok: bool, expected: &str, observed: String) -> AuthJudgement {
    AuthJudgement {
        rule,
        finding: (!ok).then(|| Finding {
            rule: rule.0.to_string(),
            level: level_of(rule).as_str().to_string(),
            expected: expected.to_string(),
            observed,
            co_failing: Vec::new(),
        }),
    }
}

/// A refusal that returns no data: an HTTP error status (4xx/5xx) without a JSON-RPC result,
/// as in the main judge's reject expectations (D-03). A `200` carrying a JSON-RPC error is
/// not one: the MCP layer processed the request (D-73).
fn refused(a: &HttpAnswer) -> bool {
    a.status >= 400 && !a.is_result()
}

fn observed(a: &HttpAnswer) -> String {
    let obs = Observation::Http(a.clone());
    match &a.www_authenticate {
        Some(w) => format!("{} (WWW-Authenticate: {w})", obs.summary()),
        None => obs.summary(),
    }
}

/// The statuses `AUTH-STATUS` admits for a refused probe (D-73).
fn statuses(kind: ProbeKind) -> &'static [u16] {
    match kind {
        ProbeKind::Missing | ProbeKind::WrongScheme | ProbeKind::Query => &[401],
        ProbeKind::Empty | ProbeKind::Malformed | ProbeKind::Duplicated => &[400, 401],
        ProbeKind::Invalid | ProbeKind::Foreign | ProbeKind::Unsigned => &[401],
    }
}

/// Judge one probe's answer. A transport failure judges nothing (not determined).
pub fn judge_probe(kind: ProbeKind, obs: &Observation) -> Vec<AuthJudgement> {
    let Some(a) = obs.http() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // reject: no data for a request without a valid credential
    let reject_rule = match kind {
        ProbeKind::Foreign => Some(AUDIENCE),
        ProbeKind::Query => Some(QUERY),
        // "MCP servers MUST only accept tokens that are valid for use with their own
        // resources": an unsigned token claiming this server as audience is no such token
        ProbeKind::Unsigned => Some(OWN_TOKENS),
        // two copies of a valid credential are still a valid credential to the pinned text
        // (D-73): only the status of a refusal is judged
        ProbeKind::Duplicated => None,
        _ => Some(NO_DATA),
    };
    if let Some(rule) = reject_rule {
        out.push(judgement(
            rule,
            refused(a),
            "a refusal (4xx/5xx) that returns no result",
            observed(a),
        ));
    }
    // shape: the status of a refusal
    if refused(a) {
        let rule = match kind {
            ProbeKind::Invalid | ProbeKind::Foreign | ProbeKind::Unsigned => INVALID_401,
            _ => STATUS,
        };
        let allowed = statuses(kind);
        let expected = match allowed {
            [one] => format!("HTTP {one}"),
            _ => format!(
                "HTTP {}",
                allowed
                    .iter()
                    .map(u16::to_string)
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        };
        out.push(judgement(
            rule,
            allowed.contains(&a.status),
            &expected,
            observed(a),
        ));
    }
    // RFC 9110 §15.5.2: "The server generating a 401 response MUST send a WWW-Authenticate
    // header field containing at least one challenge applicable to the target resource" (D-77)
    if a.status == 401 {
        out.push(judgement(
            CHALLENGE_401,
            a.www_authenticate
                .as_deref()
                .is_some_and(|w| !parse_challenges(w).is_empty()),
            "a WWW-Authenticate header field with at least one challenge on the 401",
            observed(a),
        ));
    }
    // the challenge to a request without credentials
    if kind == ProbeKind::Missing && refused(a) {
        if let Some(w) = &a.www_authenticate {
            let challenges = parse_challenges(w);
            let scope = challenges.iter().find_map(|c| c.param("scope"));
            out.push(judgement(
                SCOPE,
                scope.is_some(),
                "a `scope` parameter in WWW-Authenticate",
                observed(a),
            ));
            if let Some(scope) = scope {
                out.push(judgement(
                    OFFLINE_ACCESS,
                    !scope.split(' ').any(|s| s == "offline_access"),
                    "no offline_access in the challenge's scope",
                    observed(a),
                ));
            }
        }
    }
    out
}

/// What discovery of the metadata document saw.
#[derive(Clone, Debug, Default)]
pub struct MetadataFacts {
    /// `resource_metadata` of the challenge to a request without credentials, if any.
    pub challenge_url: Option<String>,
    /// Each location asked (the challenge's URL first, then the well-known URIs), with its
    /// answer; `None` when it was not requested (not an http(s) URL).
    pub fetched: Vec<(String, Option<Observation>)>,
    /// The target's endpoint URL (`http://host:port/path`).
    pub target_url: String,
}

/// The first fetched document that is a JSON object, with its index in `fetched`.
pub fn metadata_document(
    facts: &MetadataFacts,
) -> Option<(usize, &serde_json::Map<String, Value>)> {
    facts.fetched.iter().enumerate().find_map(|(i, (_, o))| {
        let a = o.as_ref()?.http()?;
        match (&a.body, a.status) {
            (
                Body::Json {
                    value: Value::Object(m),
                },
                200,
            ) => Some((i, m)),
            _ => None,
        }
    })
}

/// Judge the metadata discovery: `(judgement, index of the fetched answer it is about)`.
pub fn judge_metadata(facts: &MetadataFacts) -> Vec<(AuthJudgement, Option<usize>)> {
    let Some((i, doc)) = metadata_document(facts) else {
        let observed = facts
            .fetched
            .iter()
            .map(|(u, o)| {
                format!(
                    "{u}: {}",
                    o.as_ref().map_or(
                        "not requested (not an http(s) URL)".into(),
                        Observation::summary
                    )
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        let first = facts.fetched.iter().position(|(_, o)| o.is_some());
        return vec![(
            judgement(
                DISCOVERY,
                false,
                "a metadata document (JSON object, 200) at the challenge's resource_metadata or a well-known URI",
                format!(
                    "resource_metadata {}; {observed}",
                    facts.challenge_url.as_deref().unwrap_or("absent")
                ),
            ),
            first,
        )];
    };
    let mut out = vec![(judgement(DISCOVERY, true, "", String::new()), Some(i))];
    let resource = doc.get("resource").and_then(Value::as_str);
    out.push((
        judgement(
            PRM,
            resource.is_some_and(|r| resource_names(r, &facts.target_url)),
            &format!("`resource` naming {}", facts.target_url),
            format!(
                "resource: {}",
                resource.map_or("absent".into(), |r| format!("{r:?}"))
            ),
        ),
        Some(i),
    ));
    let servers = doc.get("authorization_servers");
    let ok = servers
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_string));
    out.push((
        judgement(
            PRM_AS,
            ok,
            "`authorization_servers`: an array of at least one URL",
            format!(
                "authorization_servers: {}",
                servers.map_or("absent".into(), Value::to_string)
            ),
        ),
        Some(i),
    ));
    if let Some(scopes) = doc.get("scopes_supported").and_then(Value::as_array) {
        out.push((
            judgement(
                OFFLINE_ACCESS,
                !scopes.iter().any(|s| s == "offline_access"),
                "no offline_access in scopes_supported",
                format!("scopes_supported: {}", Value::Array(scopes.clone())),
            ),
            Some(i),
        ));
    }
    out
}

/// `scheme://authority/path` with scheme and host lowercased, no query or fragment, no
/// trailing slash (index.mdx, Canonical Server URI).
fn canonical(url: &str) -> Option<(String, String)> {
    let (scheme, rest) = url.split_once("://")?;
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let origin = format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        authority.to_ascii_lowercase()
    );
    Some((origin, path.trim_end_matches('/').to_string()))
}

/// Whether a metadata `resource` names the MCP server at `target_url`: the endpoint URL or
/// its origin, scheme and host in any case, with or without a trailing slash (D-71).
pub fn resource_names(resource: &str, target_url: &str) -> bool {
    let (Some((ro, rp)), Some((to, tp))) = (canonical(resource), canonical(target_url)) else {
        return false;
    };
    ro == to && (rp == tp || rp.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_matching() {
        let t = "http://127.0.0.1:8931/mcp";
        for ok in [
            "http://127.0.0.1:8931/mcp",
            "HTTP://127.0.0.1:8931/mcp/",
            "http://127.0.0.1:8931",
            "http://127.0.0.1:8931/",
        ] {
            assert!(resource_names(ok, t), "{ok}");
        }
        for bad in [
            "http://127.0.0.1:8932/mcp",
            "http://other.example/mcp",
            "http://127.0.0.1:8931/other",
            "127.0.0.1:8931/mcp",
        ] {
            assert!(!resource_names(bad, t), "{bad}");
        }
    }

    fn answer(status: u16, www: Option<&str>, result: bool) -> Observation {
        let body = if result {
            Body::Json {
                value: serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            }
        } else {
            Body::Empty
        };
        let mut a = HttpAnswer::new(status, Some("application/json"), body);
        a.www_authenticate = www.map(str::to_string);
        Observation::Http(a)
    }

    fn failed(j: &[AuthJudgement]) -> Vec<&str> {
        j.iter()
            .filter(|j| j.finding.is_some())
            .map(|j| j.rule.0)
            .collect()
    }

    #[test]
    fn reject_and_shape_are_separate() {
        let served = answer(200, None, true);
        assert_eq!(
            failed(&judge_probe(ProbeKind::Missing, &served)),
            ["AUTH-NO-DATA"]
        );
        let forbidden = answer(403, Some("Bearer scope=\"a\""), false);
        assert_eq!(
            failed(&judge_probe(ProbeKind::Missing, &forbidden)),
            ["AUTH-STATUS"]
        );
        assert!(failed(&judge_probe(
            ProbeKind::Malformed,
            &answer(400, None, false)
        ))
        .is_empty());
        assert_eq!(
            failed(&judge_probe(ProbeKind::Foreign, &served)),
            ["AUTH-AUDIENCE"]
        );
        assert_eq!(
            failed(&judge_probe(ProbeKind::Query, &served)),
            ["AUTH-QUERY"]
        );
        assert!(judge_probe(ProbeKind::Duplicated, &served).is_empty());
        assert_eq!(
            failed(&judge_probe(ProbeKind::Unsigned, &served)),
            ["AUTH-OWN-TOKENS"]
        );
        let plain = answer(401, Some("Bearer"), false);
        assert_eq!(
            failed(&judge_probe(ProbeKind::Missing, &plain)),
            ["AUTH-SCOPE"]
        );
        let offline = answer(401, Some("Bearer scope=\"mcp offline_access\""), false);
        assert_eq!(
            failed(&judge_probe(ProbeKind::Missing, &offline)),
            ["AUTH-OFFLINE-ACCESS"]
        );
        assert_eq!(
            failed(&judge_probe(ProbeKind::Empty, &answer(500, None, false))),
            ["AUTH-STATUS"]
        );
        let rpc_error = Observation::Http(HttpAnswer::new(
            200,
            Some("application/json"),
            Body::Json {
                value: serde_json::json!({"jsonrpc": "2.0", "id": 1,
                    "error": {"code": -32600, "message": "unauthorized"}}),
            },
        ));
        assert_eq!(
            failed(&judge_probe(ProbeKind::Invalid, &rpc_error)),
            ["AUTH-NO-DATA"]
        );
        assert_eq!(
            failed(&judge_probe(ProbeKind::Invalid, &answer(401, None, false))),
            ["AUTH-401-CHALLENGE"]
        );
        assert_eq!(
            failed(&judge_probe(
                ProbeKind::Invalid,
                &answer(401, Some(""), false)
            )),
            ["AUTH-401-CHALLENGE"]
        );
        let timeout = Observation::Transport {
            failure: crate::observation::TransportFailure::Timeout,
        };
        assert!(judge_probe(ProbeKind::Missing, &timeout).is_empty());
    }
}
