//! SARIF 2.1.0 (`--sarif PATH`) for GitHub code scanning and other SARIF viewers: one SARIF
//! `run` per target (server targets, then client targets), one rule descriptor per spec rule
//! that failed on it (`sarif_rules`), one result per finding. A server target's run holds the
//! findings of both revisions: its 2026-07-28 findings, then its 2025-11-25 ones (one result
//! per broken `L-*` rule, under that rule's descriptor, `properties.specRevision`
//! `2025-11-25`); `run.properties.revisions` gives each revision's status and score.
//!
//! - `run.automationDetails.id` is `mcpdiff/<target>/` (`mcpdiff/client-<target>/` for a
//!   client target), so code scanning keeps one analysis category per target (`<target>` is
//!   the target's name with every character outside `[A-Za-z0-9._-]` written `-`).
//! - A result's `level` follows the rule's RFC 2119 level (`sarif_rules::sarif_level`). Its
//!   message says what the rule allows and what the target did. A baselined finding carries
//!   an external, accepted `suppression`.
//! - `partialFingerprints["mcpdiffFinding/v1"]`: FNV-1a 64 over the rule id, the target's
//!   name, the spec revision the oracle judges against and the failure's signature (a
//!   server finding's `kind`; a client finding's tool and header). No URL (an in-process
//!   server gets a new port every run), time or count enters it, so the same outcome gets
//!   the same fingerprint in every run.
//! - Code scanning refuses a result without a physical location, and a protocol finding has
//!   no source line: the caller names a repository-relative stand-in per finding (`locate`;
//!   the CLI's `--sarif-location`, a saved corpus entry, or [`default_location`]). The
//!   target's URL, the reproducer and the case (for a client: the tool, header, what was
//!   sent and what is allowed) stay in the result's `properties`.
//!
//! Pure: `RunReport` in, JSON text out. Secrets never reach it (reports hold none, and the
//! CLI writes the text through `secrets::write`).

use super::build::is_security;
use super::clients::{ClientStatus, ClientTargetReport, FindingGroup};
use super::json::{FindingReport, RunReport, TargetReport};
use super::review::case_text;
use super::revisions;
use super::sarif_legacy;
use super::sarif_rules::{descriptor, sarif_level, RuleFacts};
use super::undetermined::is_untested;
use crate::runner::legacy::LegacyFinding;
use crate::runner::revision::LEGACY_VERSION;
use mcpdiff_oracle::case::MODERN_VERSION;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The schema URI written into the log (the OASIS errata01 schema's own id).
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The key of the one partial fingerprint mcpdiff writes.
pub const FINGERPRINT_KEY: &str = "mcpdiffFinding/v1";

/// A target's name as one path segment: `[A-Za-z0-9._-]` kept, anything else `-`.
pub fn segment(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// What a result is about: a server target's finding or a client target's finding group.
#[derive(Clone, Copy)]
pub enum Subject<'a> {
    Server(&'a TargetReport, &'a FindingReport),
    Client(&'a ClientTargetReport, &'a FindingGroup),
    /// A 2025-11-25 finding of a server target (the legacy sequences, `runner::legacy`).
    Legacy(&'a TargetReport, &'a LegacyFinding),
}

/// The stand-in location of a finding that names no file: `mcpdiff/<target>.mcp` (for a
/// client target `mcpdiff/client-<target>.mcp`).
pub fn default_location(s: Subject) -> String {
    match s {
        Subject::Server(t, _) | Subject::Legacy(t, _) => {
            format!("mcpdiff/{}.mcp", segment(&t.name))
        }
        Subject::Client(c, _) => format!("mcpdiff/client-{}.mcp", segment(&c.name)),
    }
}

/// FNV-1a 64 over length-prefixed fields, as 16 hex digits. Written out because `std`'s
/// hashers promise no stability across releases, and fingerprints must not change between
/// builds.
fn fnv_fields(fields: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in fields {
        for b in (f.len() as u64).to_le_bytes().iter().chain(f.as_bytes()) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The stable identity of a finding: rule, target name, spec revision, failure signature.
pub fn fingerprint(s: Subject) -> String {
    match s {
        Subject::Server(t, f) => fnv_fields(&[f.rule.as_str(), &t.name, MODERN_VERSION, &f.kind]),
        Subject::Client(c, g) => fnv_fields(&[
            g.rule.as_str(),
            &format!("client:{}", c.name),
            MODERN_VERSION,
            g.example.tool.as_deref().unwrap_or(""),
            g.example.header.as_deref().unwrap_or(""),
        ]),
        // the sequence and step are the legacy failure's signature: the same sequences run
        // in every run, in the same order
        Subject::Legacy(t, f) => fnv_fields(&[
            &f.rule,
            &t.name,
            LEGACY_VERSION,
            &format!("{}[{}]", f.sequence, f.step),
        ]),
    }
}

pub(super) fn location(uri: &str) -> Value {
    json!([{
        "physicalLocation": {
            "artifactLocation": { "uri": uri },
            "region": { "startLine": 1 }
        }
    }])
}

/// `tool.driver` with the rules of one run.
fn tool(rules: Vec<Value>) -> Value {
    json!({
        "driver": {
            "name": "mcpdiff",
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        }
    })
}

/// The index of rule `id` in `rules`, its descriptor added on first use.
pub(super) fn rule_index(
    rules: &mut Vec<Value>,
    index: &mut BTreeMap<String, usize>,
    id: &str,
    facts: impl FnOnce() -> Value,
) -> usize {
    *index.entry(id.to_string()).or_insert_with(|| {
        rules.push(facts());
        rules.len() - 1
    })
}

fn result(t: &TargetReport, f: &FindingReport, rule_index: usize, uri: &str) -> Value {
    let mut r = json!({
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "kind": "fail",
        "level": sarif_level(f.level.as_str()),
        "message": {
            "text": format!(
                "{} {} on {}: expected {}; observed {}.",
                f.level.as_str(),
                f.rule.as_str(),
                t.name,
                f.expected,
                f.observed
            )
        },
        "locations": location(uri),
        "partialFingerprints": { FINGERPRINT_KEY: fingerprint(Subject::Server(t, f)) },
        "occurrenceCount": f.count.max(1),
        "properties": {
            "target": t.name,
            "url": t.url,
            "expected": f.expected,
            "observed": f.observed,
            "kind": f.kind,
            "cases": f.count,
            "reproducer": f.reproducer,
            "case": case_text(&f.case),
            "baselined": f.baselined,
        }
    });
    if !f.connections.is_empty() {
        // a connection probe's finding: every request, by connection, as the reproducer sends
        let by_connection: Vec<Vec<String>> = f
            .connections
            .iter()
            .map(|c| c.iter().map(case_text).collect())
            .collect();
        r["properties"]["connections"] = json!(by_connection);
    }
    if f.baselined {
        r["suppressions"] = json!([{
            "kind": "external",
            "status": "accepted",
            "justification": "known finding in the mcpdiff baseline (--baseline)"
        }]);
    }
    r
}

fn run_of(t: &TargetReport, locate: &dyn Fn(Subject) -> String) -> Value {
    let mut rules: Vec<Value> = Vec::new();
    let mut index = BTreeMap::new();
    let mut results = Vec::new();
    for f in &t.findings {
        let i = rule_index(&mut rules, &mut index, f.rule.as_str(), || {
            descriptor(&RuleFacts {
                id: f.rule.as_str(),
                level: f.level.as_str(),
                spec: &f.spec,
                sentence: &f.sentence,
                security: f.security,
                party: "server",
                revision: MODERN_VERSION,
            })
        });
        results.push(result(t, f, i, &locate(Subject::Server(t, f))));
    }
    // one run per target holds the rules of both revisions
    sarif_legacy::results(t, &mut rules, &mut index, &mut results, locate);
    let per_revision: Vec<Value> = revisions::of(t)
        .iter()
        .map(|r| json!({ "revision": r.revision, "status": r.status, "score": r.score }))
        .collect();
    let untested = is_untested(t);
    let mut invocation = json!({ "executionSuccessful": !untested });
    if untested {
        let why: Vec<String> = super::undetermined::lines(t);
        invocation["toolExecutionNotifications"] = json!([{
            "level": "error",
            "message": { "text": format!("{} was not tested: {}", t.name, why.join("; ")) }
        }]);
    }
    json!({
        "tool": tool(rules),
        "automationDetails": { "id": format!("mcpdiff/{}/", segment(&t.name)) },
        "invocations": [invocation],
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {
            "target": t.name,
            "url": t.url,
            "score": t.score,
            "cases": t.cases,
            "specRevision": MODERN_VERSION,
            "revisions": per_revision,
        }
    })
}

fn client_result(c: &ClientTargetReport, g: &FindingGroup, rule_index: usize, uri: &str) -> Value {
    let e = &g.example;
    let allowed = if e.allowed.is_empty() {
        "no such header".to_string()
    } else {
        e.allowed.join(" or ")
    };
    let sent = e.sent.as_deref().unwrap_or("nothing");
    json!({
        "ruleId": g.rule.as_str(),
        "ruleIndex": rule_index,
        "kind": "fail",
        "level": sarif_level(g.level.as_str()),
        "message": {
            "text": format!(
                "{} {} on client {}: {}; expected {allowed}; sent {sent}.",
                g.level.as_str(),
                g.rule.as_str(),
                c.name,
                e.detail
            )
        },
        "locations": location(uri),
        "partialFingerprints": { FINGERPRINT_KEY: fingerprint(Subject::Client(c, g)) },
        "occurrenceCount": g.count.max(1),
        "properties": {
            "target": c.name,
            "package": c.package,
            "version": c.version,
            "tool": e.tool,
            "header": e.header,
            "sent": e.sent,
            "allowed": e.allowed,
            "arguments": e.arguments,
            "repro": g.repro,
        }
    })
}

fn client_run_of(c: &ClientTargetReport, locate: &dyn Fn(Subject) -> String) -> Value {
    let mut rules: Vec<Value> = Vec::new();
    let mut index = BTreeMap::new();
    let mut results = Vec::new();
    for g in &c.findings {
        let i = rule_index(&mut rules, &mut index, g.rule.as_str(), || {
            descriptor(&RuleFacts {
                id: g.rule.as_str(),
                level: g.level.as_str(),
                spec: &g.spec,
                sentence: &g.sentence,
                security: is_security(g.rule),
                party: "client",
                revision: MODERN_VERSION,
            })
        });
        results.push(client_result(c, g, i, &locate(Subject::Client(c, g))));
    }
    let ran = c.verdict != ClientStatus::Error;
    let mut invocation = json!({ "executionSuccessful": ran });
    let problems: Vec<&String> = c.note.iter().chain(&c.driver_errors).collect();
    if !problems.is_empty() {
        let text: Vec<&str> = problems.iter().map(|p| p.as_str()).collect();
        invocation["toolExecutionNotifications"] = json!([{
            "level": if ran { "warning" } else { "error" },
            "message": { "text": format!("client {}: {}", c.name, text.join("; ")) }
        }]);
    }
    json!({
        "tool": tool(rules),
        "automationDetails": { "id": format!("mcpdiff/client-{}/", segment(&c.name)) },
        "invocations": [invocation],
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {
            "target": c.name,
            "package": c.package,
            "version": c.version,
            "era": c.era,
            "specRevision": MODERN_VERSION,
        }
    })
}

/// The SARIF log of `r`. `locate` names each finding's repository-relative stand-in file.
pub fn render(r: &RunReport, locate: &dyn Fn(Subject) -> String) -> String {
    let runs: Vec<Value> = r
        .targets
        .iter()
        .map(|t| run_of(t, locate))
        .chain(r.clients.iter().map(|c| client_run_of(c, locate)))
        .collect();
    let log = json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": runs,
    });
    // a `Value` built here always serializes (string keys, finite numbers)
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_keep_only_path_safe_characters() {
        assert_eq!(
            segment("mutant:origin-unchecked"),
            "mutant-origin-unchecked"
        );
        assert_eq!(
            segment("http://127.0.0.1:3000/mcp"),
            "http---127.0.0.1-3000-mcp"
        );
    }

    #[test]
    fn field_hash_separates_fields() {
        assert_ne!(fnv_fields(&["ab", "c"]), fnv_fields(&["a", "bc"]));
        assert_eq!(fnv_fields(&["x"]), fnv_fields(&["x"]));
    }
}
