//! Coverage of the authorization rules (`AUTH-*`): they are not judged on generated cases but
//! on the authorization probe family (`mcpdiff_oracle::auth::auth_probes`, sent once to each
//! protected target after the run) and on the protected-resource metadata fetched then. For
//! each rule: how many probes, and how many metadata fetches, judge it when the target is
//! the protected reference server (`reference::auth`). Pure: the reference's answers are
//! computed in process, with the probes' placeholders filled by made-up credentials.

use mcpdiff_oracle::auth::{
    auth_probes, judge_metadata, judge_probe, parse_challenges, well_known_paths, MetadataFacts,
    ProbeKind,
};
use mcpdiff_oracle::reference::auth::{guard, metadata, AuthConfig};
use mcpdiff_oracle::reference::{respond, to_observation};
use mcpdiff_oracle::rules::auth::AUTH_JUDGED_IDS;
use mcpdiff_oracle::rules::RuleId;
use mcpdiff_oracle::Surface;
use serde::Serialize;
use std::collections::BTreeMap;

/// One authorization rule's coverage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuthRuleCoverage {
    pub rule: RuleId,
    /// Probes of the family whose answer judges the rule.
    pub probes: usize,
    /// Metadata fetches whose answer judges it.
    pub metadata_fetches: usize,
}

impl AuthRuleCoverage {
    /// Whether anything the run sends judges the rule.
    pub fn covered(&self) -> bool {
        self.probes + self.metadata_fetches > 0
    }
}

/// The coverage of every `AUTH-*` rule (with `--foreign-token`: the foreign probe included),
/// against the reference protecting `surface` at `/mcp`.
pub fn auth_coverage(surface: &Surface) -> (usize, Vec<AuthRuleCoverage>) {
    let cfg = AuthConfig {
        token: "coverage-token".into(),
        foreign_token: Some("coverage-foreign".into()),
        origin: "http://127.0.0.1:9".into(),
        endpoint: "/mcp".into(),
    };
    let fill = |s: &[u8]| {
        String::from_utf8_lossy(s)
            .replace("{{MCPDIFF_AUTHORIZATION}}", "Bearer coverage-token")
            .replace("{{MCPDIFF_TOKEN}}", "coverage-token")
            .replace("{{MCPDIFF_FOREIGN_TOKEN}}", "coverage-foreign")
    };
    let mut counts: BTreeMap<RuleId, (usize, usize)> =
        AUTH_JUDGED_IDS.iter().map(|r| (*r, (0, 0))).collect();
    let probes = auth_probes(&cfg.endpoint, true);
    let mut challenge_url = None;
    for p in &probes {
        let mut case = p.case.clone();
        case.path = fill(case.path.as_bytes());
        for (_, v) in case.headers.iter_mut() {
            *v = fill(v).into_bytes();
        }
        let answer = guard(&cfg, &case, None).unwrap_or_else(|| respond(&case, surface));
        let obs = to_observation(&answer);
        if p.kind == ProbeKind::Missing {
            challenge_url = obs
                .http()
                .and_then(|a| a.www_authenticate.as_deref())
                .map(parse_challenges)
                .and_then(|cs| {
                    cs.iter()
                        .find_map(|c| c.param("resource_metadata").map(str::to_string))
                });
        }
        for j in judge_probe(p.kind, &obs) {
            counts.entry(j.rule).or_default().0 += 1;
        }
    }
    let mut facts = MetadataFacts {
        challenge_url: challenge_url.clone(),
        fetched: Vec::new(),
        target_url: cfg.resource(),
    };
    let mut urls: Vec<String> = challenge_url.into_iter().collect();
    urls.extend(
        well_known_paths(&cfg.endpoint)
            .iter()
            .map(|p| format!("{}{p}", cfg.origin)),
    );
    for u in urls {
        let path = u.strip_prefix(&cfg.origin).unwrap_or("");
        let answer = metadata(&cfg, path, None)
            .unwrap_or_else(|| mcpdiff_oracle::reference::Response::empty(404));
        facts.fetched.push((u, Some(to_observation(&answer))));
    }
    for (j, _) in judge_metadata(&facts) {
        counts.entry(j.rule).or_default().1 += 1;
    }
    let rules = counts
        .into_iter()
        .map(|(rule, (probes, metadata_fetches))| AuthRuleCoverage {
            rule,
            probes,
            metadata_fetches,
        })
        .collect();
    (probes.len(), rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::fixture;

    /// Every authorization rule is judged by something the run sends to a protected target.
    #[test]
    fn every_auth_rule_is_covered() {
        let (probes, rules) = auth_coverage(&fixture::surface());
        assert!(probes >= 8, "{probes}");
        assert_eq!(rules.len(), AUTH_JUDGED_IDS.len());
        for r in &rules {
            assert!(r.covered(), "{r:?}");
        }
    }
}
