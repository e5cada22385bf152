//! The SARIF rule descriptors of `sarif.rs` (`tool.driver.rules`) and the mapping of RFC 2119
//! levels to SARIF levels: what a rule of the spec says, where, how to fix a server or client
//! that breaks it, and how sure a finding of it is.

use super::review::why_it_matters;
use mcpdiff_oracle::rules::all_rules;
use mcpdiff_oracle::Rule;
use serde_json::{json, Value};

/// What a descriptor is made of: the rule as a finding of either kind names it.
pub struct RuleFacts<'a> {
    pub id: &'a str,
    /// `MUST`, ..., `OBSERVATION`.
    pub level: &'a str,
    pub spec: &'a str,
    pub sentence: &'a str,
    pub security: bool,
    /// What breaks it: `server` or `client`.
    pub party: &'a str,
    /// The spec revision whose table holds the rule (`2026-07-28`, `2025-11-25`).
    pub revision: &'a str,
}

/// The SARIF `level` of an RFC 2119 level: MUST / MUST NOT -> `error`, SHOULD / SHOULD NOT
/// -> `warning`, MAY -> `note`, and OBSERVATION (a sentence with no RFC 2119 keyword, never
/// a failure) -> `note`.
pub fn sarif_level(level: &str) -> &'static str {
    match level {
        "MUST" | "MUST NOT" => "error",
        "SHOULD" | "SHOULD NOT" => "warning",
        // MAY, OBSERVATION, and anything a newer report might add
        _ => "note",
    }
}

fn table_rule(id: &str) -> Option<&'static Rule> {
    // every revision's table: a 2025-11-25 id resolves too
    all_rules().find(|r| r.id.0 == id)
}

/// How sure a finding of this rule is: the oracle judged a real answer against the sentence
/// (`very-high`), against a rule derived from other keyworded rules (`high`), or recorded a
/// sentence with no keyword (`medium`).
fn precision(f: &RuleFacts) -> &'static str {
    match (f.level, table_rule(f.id)) {
        ("OBSERVATION", _) => "medium",
        (_, Some(r)) if r.derived => "high",
        _ => "very-high",
    }
}

/// The `reportingDescriptor` of one rule.
pub fn descriptor(f: &RuleFacts) -> Value {
    let summary = table_rule(f.id).map_or(f.sentence, |r| r.summary);
    // "Answers ... with 403" reads on as "change the server so that it answers ... with 403"
    let mut fix: String = summary
        .chars()
        .take(1)
        .flat_map(char::to_lowercase)
        .collect();
    fix.extend(summary.chars().skip(1));
    let (family, why) = why_it_matters(f.id);
    let mut tags = vec![
        "mcp".to_string(),
        f.level.to_lowercase(),
        f.party.to_string(),
    ];
    if f.security {
        tags.insert(0, "security".into());
    }
    let (level, spec, sentence, id, party) = (f.level, f.spec, f.sentence, f.id, f.party);
    let revision = f.revision;
    let text = format!(
        "{level} ({family}). Spec: MCP {revision}, {spec}:\n\"{sentence}\"\n\
         How to fix: change the {party} so that it {fix}\n\
         Why it matters: {why}\n\
         Each result's properties hold the evidence (for a server: a `reproducer` command that \
         sends the minimized request again, or for a connection probe every request of its \
         sequence, listed in `connections`); `mcpdiff rules --id {id}` prints the rule."
    );
    let markdown = format!(
        "**{level}** ({family}). Spec: MCP {revision}, `{spec}`:\n\n> {sentence}\n\n\
         **How to fix:** change the {party} so that it {fix}\n\n\
         **Why it matters:** {why}\n\n\
         Each result's properties hold the evidence (for a server: a `reproducer` command that \
         sends the minimized request again, or for a connection probe every request of its \
         sequence, listed in `connections`); `mcpdiff rules --id {id}` prints the rule."
    );
    json!({
        "id": id,
        "shortDescription": { "text": summary },
        "fullDescription": { "text": sentence },
        "help": { "text": text, "markdown": markdown },
        "defaultConfiguration": { "level": sarif_level(level) },
        "properties": {
            "level": level,
            "tags": tags,
            "precision": precision(f),
            "spec": spec,
            "specRevision": revision,
        }
    })
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
    fn a_descriptor_quotes_the_sentence_and_says_how_to_fix() {
        let d = descriptor(&RuleFacts {
            id: "SHTTP-ORIGIN-403",
            level: "MUST",
            spec: "basic/transports/streamable-http.mdx#Security",
            sentence: "servers MUST respond with HTTP 403 Forbidden.",
            security: true,
            party: "server",
            revision: "2026-07-28",
        });
        assert_eq!(
            d["fullDescription"]["text"],
            "servers MUST respond with HTTP 403 Forbidden."
        );
        assert_eq!(d["properties"]["tags"][0], "security");
        assert!(d["help"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("How to fix: change the server so that it ")));
    }
}
