//! SARIF 2.1.0 (`--sarif PATH`) for GitHub code scanning and other SARIF viewers: one SARIF
//! `run` per target, one rule descriptor per spec rule that failed on it, one result per
//! finding.
//!
//! - `run.automationDetails.id` is `mcpdiff/<target>/`, so code scanning keeps one analysis
//!   category per target (`<target>` is the target's name with every character outside
//!   `[A-Za-z0-9._-]` written `-`).
//! - A rule descriptor carries the rule's one-line summary (`shortDescription`), the spec
//!   sentence verbatim (`fullDescription`), the citation and how to fix it (`help`, text and
//!   Markdown), and `properties`: the RFC 2119 `level`, `tags` (`security` where the report
//!   marks the rule so, plus `mcp` and the level) and `precision`.
//! - A result's `level`: MUST / MUST NOT -> `error`, SHOULD / SHOULD NOT -> `warning`, MAY ->
//!   `note`, OBSERVATION (a sentence with no RFC 2119 keyword) -> `note`. Its message says
//!   what the rule allows and what the target did. A baselined finding carries an external,
//!   accepted `suppression`.
//! - `partialFingerprints["mcpdiffFinding/v1"]`: FNV-1a 64 over the rule id, the target's
//!   name, the spec revision the oracle judges against and the failure's kind (`kind`). No
//!   URL (an in-process server gets a new port every run), time or count enters it, so the
//!   same outcome gets the same fingerprint in every run.
//! - Code scanning refuses a result without a physical location, and a protocol finding has
//!   no source line: the caller names a repository-relative stand-in per finding (`locate`;
//!   the CLI's `--sarif-location`, a saved corpus entry, or [`default_location`]). The
//!   target's URL, the reproducer and the case stay in the result's `properties`.
//!
//! Pure: `RunReport` in, JSON text out. Secrets never reach it (reports hold none, and the
//! CLI writes the text through `secrets::write`).

use super::json::{FindingReport, RunReport, TargetReport};
use super::review::{case_text, why_it_matters};
use super::undetermined::is_untested;
use mcpdiff_oracle::case::MODERN_VERSION;
use mcpdiff_oracle::{Rule, RULES};
use serde_json::{json, Map, Value};

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

/// The stand-in location of a finding that names no file: `mcpdiff/<target>.mcp`.
pub fn default_location(t: &TargetReport) -> String {
    format!("mcpdiff/{}.mcp", segment(&t.name))
}

/// The SARIF `level` of an RFC 2119 level (`FindingReport::level`).
pub fn sarif_level(level: &str) -> &'static str {
    match level {
        "MUST" | "MUST NOT" => "error",
        "SHOULD" | "SHOULD NOT" => "warning",
        // MAY, OBSERVATION, and anything a newer report might add
        _ => "note",
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

/// The stable identity of a finding: rule, target name, spec revision, failure kind.
pub fn fingerprint(t: &TargetReport, f: &FindingReport) -> String {
    fnv_fields(&[f.rule.as_str(), &t.name, MODERN_VERSION, &f.kind])
}

fn table_rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id.0 == id)
}

/// How sure a finding of this rule is: the oracle judged a real answer against the sentence
/// (`very-high`), against a rule derived from other keyworded rules (`high`), or recorded a
/// sentence with no keyword (`medium`).
fn precision(f: &FindingReport) -> &'static str {
    match (f.level.as_str(), table_rule(f.rule.as_str())) {
        ("OBSERVATION", _) => "medium",
        (_, Some(r)) if r.derived => "high",
        _ => "very-high",
    }
}

fn descriptor(f: &FindingReport) -> Value {
    let summary = table_rule(f.rule.as_str()).map_or(f.sentence.as_str(), |r| r.summary);
    // "Answers ... with 403" reads on as "change the server so that it answers ... with 403"
    let mut fix: String = summary
        .chars()
        .take(1)
        .flat_map(char::to_lowercase)
        .collect();
    fix.extend(summary.chars().skip(1));
    let (family, why) = why_it_matters(f.rule.as_str());
    let mut tags = vec!["mcp".to_string(), f.level.as_str().to_lowercase()];
    if f.security {
        tags.insert(0, "security".into());
    }
    let text = format!(
        "{level} ({family}). Spec: MCP {MODERN_VERSION}, {spec}:\n\"{sentence}\"\n\
         How to fix: change the server so that it {fix}\n\
         Why it matters: {why}\n\
         Each result's `reproducer` property sends the minimized request again; \
         `mcpdiff rules --id {id}` prints the rule.",
        level = f.level,
        spec = f.spec,
        sentence = f.sentence,
        id = f.rule
    );
    let markdown = format!(
        "**{level}** ({family}). Spec: MCP {MODERN_VERSION}, `{spec}`:\n\n> {sentence}\n\n\
         **How to fix:** change the server so that it {fix}\n\n\
         **Why it matters:** {why}\n\n\
         Each result's `reproducer` property sends the minimized request again; \
         `mcpdiff rules --id {id}` prints the rule.",
        level = f.level,
        spec = f.spec,
        sentence = f.sentence,
        id = f.rule
    );
    json!({
        "id": f.rule,
        "shortDescription": { "text": summary },
        "fullDescription": { "text": f.sentence },
        "help": { "text": text, "markdown": markdown },
        "defaultConfiguration": { "level": sarif_level(f.level.as_str()) },
        "properties": {
            "level": f.level,
            "tags": tags,
            "precision": precision(f),
            "spec": f.spec,
        }
    })
}

fn result(t: &TargetReport, f: &FindingReport, rule_index: usize, location: &str) -> Value {
    let mut r = json!({
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "kind": "fail",
        "level": sarif_level(f.level.as_str()),
        "message": {
            "text": format!(
                "{} {} on {}: expected {}; observed {}.",
                f.level, f.rule, t.name, f.expected, f.observed
            )
        },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": location },
                "region": { "startLine": 1 }
            }
        }],
        "partialFingerprints": { FINGERPRINT_KEY: fingerprint(t, f) },
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
    if f.baselined {
        r["suppressions"] = json!([{
            "kind": "external",
            "status": "accepted",
            "justification": "known finding in the mcpdiff baseline (--baseline)"
        }]);
    }
    r
}

fn run_of(t: &TargetReport, locate: &dyn Fn(&TargetReport, &FindingReport) -> String) -> Value {
    let mut rules: Vec<Value> = Vec::new();
    let mut index: Map<String, Value> = Map::new();
    let mut results = Vec::new();
    for f in &t.findings {
        let i = match index.get(f.rule.as_str()).and_then(Value::as_u64) {
            Some(i) => i as usize,
            None => {
                rules.push(descriptor(f));
                index.insert(f.rule.to_string(), json!(rules.len() - 1));
                rules.len() - 1
            }
        };
        results.push(result(t, f, i, &locate(t, f)));
    }
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
        "tool": {
            "driver": {
                "name": "mcpdiff",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }
        },
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
        }
    })
}

/// The SARIF log of `r`. `locate` names each finding's repository-relative stand-in file.
pub fn render(r: &RunReport, locate: &dyn Fn(&TargetReport, &FindingReport) -> String) -> String {
    let runs: Vec<Value> = r.targets.iter().map(|t| run_of(t, locate)).collect();
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
    fn levels_map_as_documented() {
        assert_eq!(sarif_level("MUST"), "error");
        assert_eq!(sarif_level("MUST NOT"), "error");
        assert_eq!(sarif_level("SHOULD"), "warning");
        assert_eq!(sarif_level("SHOULD NOT"), "warning");
        assert_eq!(sarif_level("MAY"), "note");
        assert_eq!(sarif_level("OBSERVATION"), "note");
    }

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
