//! The rules no test from outside the server can decide over HTTP, each with the reason.
//!
//! A rule of a table ([`super::RULES`], [`super::LEGACY_RULES`]) is in one of three states
//! for `mcpdiff rules --coverage`: judged (`judged: true`), observable but not judged yet (a
//! gap to close), or listed here: the sentence binds something a black-box HTTP client cannot
//! see — a duty of the client, the server's internal state or intent, a fact about the
//! deployment, or a choice whose every outcome the spec allows. Listing a rule here is a claim
//! about the text, not about effort: a rule that some probe could decide belongs in the gap,
//! never here. The tests below keep the list honest: every entry names a rule of a table, no
//! entry is judged, no rule is listed twice.
//!
//! Each helper topic keeps its entries in its own commented block so parallel edits merge
//! cleanly; the reason is one sentence.

use super::RuleId;

/// `(rule, why it cannot be observed over HTTP from outside the server)`.
pub static NOT_OBSERVABLE: &[(RuleId, &str)] = &[
    // -- base protocol, versioning, multi-round requests, deprecations, auth (h4) --
    // -- end h4 --

    // -- streams and cancellation (h1) --
    // -- end h1 --

    // -- tools, resources, prompts (h2) --
    // -- end h2 --

    // -- pagination, caching, completion, logging (h3) --
    // -- end h3 --

    // -- 2025-11-25 legacy revision (l1..l3) --
    // -- end legacy --
];

/// The reason `id` is listed as not observable, if it is.
pub fn not_observable(id: RuleId) -> Option<&'static str> {
    NOT_OBSERVABLE
        .iter()
        .find(|(r, _)| *r == id)
        .map(|&(_, why)| why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::all_rules;
    use std::collections::HashSet;

    #[test]
    fn every_entry_names_an_unjudged_rule_of_a_table() {
        let mut failures = Vec::new();
        for (id, why) in NOT_OBSERVABLE {
            match all_rules().find(|r| r.id == *id) {
                None => failures.push(format!("{id}: in no rule table")),
                Some(r) if r.judged => failures.push(format!("{id}: judged, yet listed")),
                Some(_) => {}
            }
            if why.trim().is_empty() || why.contains('\n') {
                failures.push(format!("{id}: the reason must be one non-empty sentence"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn no_judged_rule_is_listed_and_none_twice() {
        let mut seen = HashSet::new();
        for (id, _) in NOT_OBSERVABLE {
            assert!(seen.insert(*id), "{id} listed twice");
        }
        for r in all_rules().filter(|r| r.judged) {
            assert!(
                not_observable(r.id).is_none(),
                "{}: judged and listed as not observable",
                r.id
            );
        }
    }
}
