//! The authorization layer's I/O: what to tell a user whose target answers discovery with a
//! challenge, fetching the protected-resource metadata (RFC 9728), and sending the
//! authorization probe family to protected targets. Every decision is pure
//! (`mcpdiff_oracle::auth`); this module only sends requests (the run's transport, bounded by
//! its per-case limits, at most three metadata GETs: the well-known URIs on the target's
//! origin, and the challenge's `resource_metadata` wherever it points) and the runner
//! records the judgements in the target's tally like any other finding
//! (`runner::auth_probes`).

use crate::transport::{Client, Endpoint};
use mcpdiff_oracle::auth::{
    auth_probes, judge_metadata, judge_probe, parse_challenges, well_known_paths, Challenge,
    MetadataFacts,
};
use mcpdiff_oracle::{Body, Case, Finding, HttpAnswer, Observation};
use serde_json::Value;

/// The `Bearer` challenge of an answer (else its first challenge).
pub fn challenge_of(a: &HttpAnswer) -> Option<Challenge> {
    let all = parse_challenges(a.www_authenticate.as_deref()?);
    all.iter()
        .find(|c| c.scheme.eq_ignore_ascii_case("bearer"))
        .or(all.first())
        .cloned()
}

fn get(path: &str) -> Case {
    let mut c = Case::post(path, &[("Accept", "application/json")], Vec::new());
    c.method = "GET".to_string();
    c.labels = vec!["auth: metadata".to_string()];
    c
}

/// The path of `url` when it is on `endpoint`'s origin.
fn same_origin_path(url: &str, endpoint: &Endpoint) -> Option<String> {
    let e = Endpoint::parse(url).ok()?;
    // an origin is scheme, host and port: http and https on one port are not the same
    (e.scheme == endpoint.scheme
        && e.host.eq_ignore_ascii_case(&endpoint.host)
        && e.port == endpoint.port)
        .then_some(e.path)
}

/// Where a metadata location is fetched from: the endpoint (origin) and the path to GET.
/// The challenge's `resource_metadata` may name another origin: RFC 9728 §5.1 lets the
/// protected resource name its metadata URL, and "one of the following" (D-72) makes it the
/// location a client uses, so it is fetched wherever it is (same transport, same per-case time
/// and size limits, no configured field sent). `None`: not an http(s) URL.
fn fetch_target(url: &str, endpoint: &Endpoint) -> Option<(Endpoint, String)> {
    if let Some(path) = same_origin_path(url, endpoint) {
        return Some((endpoint.clone(), path));
    }
    let other = Endpoint::parse(url).ok()?;
    let path = other.path.clone();
    Some((other, path))
}

/// Fetch the metadata: the challenge's `resource_metadata` first, then the well-known URIs,
/// stopping at the first JSON document. Without credentials, as a client that has none yet.
pub async fn metadata_facts(
    client: &Client,
    endpoint: &Endpoint,
    challenge_url: Option<String>,
) -> (MetadataFacts, Vec<Case>) {
    let mut facts = MetadataFacts {
        challenge_url: challenge_url.clone(),
        fetched: Vec::new(),
        target_url: endpoint.to_string(),
    };
    let mut cases = Vec::new();
    let mut locations: Vec<(String, Option<(Endpoint, String)>)> = Vec::new();
    if let Some(u) = challenge_url {
        let target = fetch_target(&u, endpoint);
        locations.push((u, target));
    }
    for p in well_known_paths(&endpoint.path) {
        let url = endpoint.url_for(&p);
        if !locations.iter().any(|(u, _)| *u == url) {
            locations.push((url, Some((endpoint.clone(), p))));
        }
    }
    for (url, target) in locations {
        let obs = match &target {
            Some((at, p)) => {
                let mut case = get(p);
                if at != endpoint {
                    // (the reproducer of a finding on it must say where it was fetched)
                    case.labels.push(format!("auth: metadata at {url}"));
                }
                let obs = client.send_exact(&case, at).await;
                cases.push(case);
                Some(obs)
            }
            None => {
                cases.push(get("/"));
                None
            }
        };
        let found = obs.as_ref().and_then(Observation::http).is_some_and(|a| {
            a.status == 200
                && matches!(
                    a.body,
                    Body::Json {
                        value: Value::Object(_)
                    }
                )
        });
        facts.fetched.push((url, obs));
        if found {
            break;
        }
    }
    (facts, cases)
}

/// The lines shown for a metadata document.
fn describe_metadata(facts: &MetadataFacts) -> Vec<String> {
    let mut out = Vec::new();
    for (url, obs) in &facts.fetched {
        let Some(obs) = obs else {
            out.push(format!("  {url}: not fetched (not an http(s) URL)"));
            continue;
        };
        match obs.http().map(|a| (&a.body, a.status)) {
            Some((
                Body::Json {
                    value: Value::Object(m),
                },
                200,
            )) => {
                out.push(format!("  protected-resource metadata ({url}):"));
                for key in [
                    "resource",
                    "authorization_servers",
                    "scopes_supported",
                    "bearer_methods_supported",
                    "resource_documentation",
                ] {
                    if let Some(v) = m.get(key) {
                        out.push(format!("    {key}: {v}"));
                    }
                }
                let others: Vec<&str> = m
                    .keys()
                    .map(String::as_str)
                    .filter(|k| {
                        ![
                            "resource",
                            "authorization_servers",
                            "scopes_supported",
                            "bearer_methods_supported",
                            "resource_documentation",
                        ]
                        .contains(k)
                    })
                    .collect();
                if !others.is_empty() {
                    out.push(format!("    also: {}", others.join(", ")));
                }
            }
            _ => out.push(format!("  {url}: {}", obs.summary())),
        }
    }
    out
}

/// The message for a target whose discovery met a challenge: what it asked for, its
/// metadata, and the line to add. `with_credentials`: an `Authorization` was sent and refused.
pub async fn unauthorized_message(
    client: &Client,
    endpoint: &Endpoint,
    url: &str,
    answer: &HttpAnswer,
    with_credentials: bool,
) -> String {
    let ch = challenge_of(answer);
    let mut lines = vec![if with_credentials {
        format!(
            "{url} refused the credentials given (HTTP {}); no MCP rule was judged on its answers",
            answer.status
        )
    } else {
        format!(
            "{url} requires authorization (HTTP {}); no MCP rule was judged on its answers",
            answer.status
        )
    }];
    if let Some(c) = &ch {
        lines.push(format!("  scheme: {}", c.scheme));
        for p in ["resource_metadata", "scope", "error", "error_description"] {
            if let Some(v) = c.param(p) {
                lines.push(format!("  {p}: {v}"));
            }
        }
    }
    let challenge_url = ch
        .as_ref()
        .and_then(|c| c.param("resource_metadata"))
        .map(str::to_string);
    let (facts, _) = metadata_facts(client, endpoint, challenge_url).await;
    lines.extend(describe_metadata(&facts));
    let scheme = ch.as_ref().map_or("Bearer", |c| c.scheme.as_str());
    lines.push(if with_credentials {
        format!("check the token, then run again with: --header 'Authorization: {scheme} <token>'")
    } else {
        format!(
            "get a token from the authorization server, then add: --header 'Authorization: {scheme} <token>'"
        )
    });
    lines.join("\n")
}

/// One judged authorization answer.
pub struct AuthResult {
    pub rule: mcpdiff_oracle::RuleId,
    pub case: Case,
    pub observation: Observation,
    pub finding: Option<Finding>,
    /// Every request the judgement rests on, grouped by the connection that carried them,
    /// in the order sent (`case`, the request whose answer is shown, among them); empty when
    /// `case` alone shows it. The
    /// connection probes (`runner::reuse_probe`, `runner::list_stable_probe`) fill it: their
    /// findings exist only in the sequence, so their reproducers send all of it.
    pub connections: Vec<Vec<Case>>,
}

/// Send the probe family and fetch the metadata; every judgement, in order, and the number
/// of requests sent.
pub async fn probe(client: &Client, endpoint: &Endpoint) -> (Vec<AuthResult>, u64) {
    let mut out = Vec::new();
    let mut sent = 0u64;
    let with_foreign = client.credentials().has_foreign_token();
    let mut challenge_url = None;
    for p in auth_probes(&endpoint.path, &endpoint.to_string(), with_foreign) {
        let obs = client.send_exact(&p.case, endpoint).await;
        sent += 1;
        if p.kind == mcpdiff_oracle::auth::ProbeKind::Missing {
            challenge_url = obs
                .http()
                .and_then(challenge_of)
                .and_then(|c| c.param("resource_metadata").map(str::to_string));
        }
        for j in judge_probe(p.kind, &obs) {
            out.push(AuthResult {
                rule: j.rule,
                case: p.case.clone(),
                observation: obs.clone(),
                finding: j.finding,
                connections: Vec::new(),
            });
        }
    }
    let (facts, cases) = metadata_facts(client, endpoint, challenge_url).await;
    sent += facts.fetched.iter().filter(|(_, o)| o.is_some()).count() as u64;
    for (j, at) in judge_metadata(&facts) {
        let (case, observation) =
            match at.and_then(|i| Some((cases.get(i)?, facts.fetched[i].1.clone()?))) {
                Some((c, o)) => (c.clone(), o),
                None => (
                    get(&endpoint.path),
                    Observation::Transport {
                        failure: mcpdiff_oracle::TransportFailure::Refused,
                    },
                ),
            };
        out.push(AuthResult {
            rule: j.rule,
            case,
            observation,
            finding: j.finding,
            connections: Vec::new(),
        });
    }
    (out, sent)
}

/// Whether a case is one of the authorization probes (it carries its own credentials, so a
/// reproducer adds none).
pub fn is_auth_probe(case: &Case) -> bool {
    case.labels.iter().any(|l| l.starts_with("auth: "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_fetched_only_on_the_target_origin() {
        let e = Endpoint::parse("http://127.0.0.1:8931/mcp").unwrap();
        assert_eq!(
            same_origin_path(
                "http://127.0.0.1:8931/.well-known/oauth-protected-resource/mcp",
                &e
            )
            .as_deref(),
            Some("/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(same_origin_path("http://127.0.0.1:8932/x", &e), None);
        assert_eq!(same_origin_path("http://auth.example/x", &e), None);
        assert_eq!(same_origin_path("not a url", &e), None);
    }

    #[test]
    fn the_bearer_challenge_is_preferred() {
        let mut a = HttpAnswer::new(401, None, Body::Empty);
        a.www_authenticate = Some(r#"Basic realm="x", Bearer scope="mcp""#.into());
        let c = challenge_of(&a).unwrap();
        assert_eq!(
            (c.scheme.as_str(), c.param("scope")),
            ("Bearer", Some("mcp"))
        );
    }
}
