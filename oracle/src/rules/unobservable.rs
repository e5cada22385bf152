//! Rules of the table that no answer over HTTP can decide, each with the reason, so a report
//! can say why they are never judged instead of leaving them silently unjudged. A rule here
//! stays `judged: false` in the table; the reason quotes what the sentence would need that a
//! client cannot see. (Entries are grouped by the helper that decided them; the lead
//! reconciles the blocks.)

use super::RuleId;

/// The rules no answer over HTTP can decide, with why.
pub static NOT_OBSERVABLE: &[(RuleId, &str)] = &[
    // H2: tools, resources, prompts
    (
        RuleId("RES-INTERNAL-32603"),
        "«Servers SHOULD return -32603 for internal errors»: whether an error is internal is a \
         fact inside the server; no request a client can send is known to cause one, and an \
         answer does not show whether the condition behind it was internal (DEVIATIONS.md D-126)",
    ),
    (
        RuleId("TOOLS-XMCP-SENSITIVE"),
        "«SHOULD NOT mark sensitive parameters (passwords, API keys, tokens, PII) with \
         x-mcp-header»: whether a parameter carries a secret or PII is a fact about its \
         meaning; the text gives no test a published tool can be held to (a name such as \
         `token` is a guess, not evidence) (DEVIATIONS.md D-127)",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_an_unjudged_rule_of_the_table() {
        for (id, why) in NOT_OBSERVABLE {
            let rule = super::super::RULES.iter().find(|r| r.id == *id);
            assert!(rule.is_some_and(|r| !r.judged), "{id}");
            assert!(!super::super::JUDGED_IDS.contains(id), "{id}");
            assert!(!why.is_empty());
        }
    }
}
