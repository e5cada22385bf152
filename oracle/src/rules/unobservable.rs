//! The rules of the 2026-07-28 table that no HTTP client can observe from outside the server:
//! each with the one-sentence reason. They stay `judged: false` in the table; this list says
//! why, so a reader of `mcpdiff rules` (and the lead reconciling the helpers' lists) sees that
//! they were weighed and not forgotten. A rule belongs here only when no answer, event or
//! later request could tell a server that keeps it from one that breaks it; a rule that is
//! merely not observed on some target (it publishes nothing to exercise it) is not listed.

use super::RuleId;

/// (rule id, why no HTTP exchange can decide it).
pub static NOT_OBSERVABLE: &[(RuleId, &str)] = &[
    // H1: streams and cancellation
    (
        RuleId("SHTTP-CANCEL-CLOSE"),
        "closing the response stream removes the only channel on which a stateless server's treatment of that request could show, and the revision gives its messages no other stream",
    ),
    (
        RuleId("SHTTP-CANCEL-STOP"),
        "whether and when a server stops internal work is not visible over HTTP: the cancelled request's stream is already closed and work leaves no protocol trace",
    ),
    (
        RuleId("SHTTP-CANCEL-NO-FURTHER"),
        "after the client closes a request's stream that stream can carry nothing, and any message for the request on a listen stream is already forbidden there by PROG-TOKEN-ONLY, LOG-NOT-ON-LISTEN and CANCEL-SERVER-ONLY-LISTEN, so this sentence adds no observable case",
    ),
    (
        RuleId("CANCEL-SERVER-LISTEN-TEARDOWN"),
        "over Streamable HTTP the server's end of a subscription is signalled by its completion result (subscriptions.mdx § Cancellation, judged as SUB-GRACEFUL) and the schema has the server send `notifications/cancelled` «On stdio», so no HTTP close of a listen stream can break this MUST on every reading (DEVIATIONS.md D-101)",
    ),
    (
        RuleId("CANCEL-INVALID-IGNORE"),
        "«This revision of the core protocol defines no client-to-server notifications over Streamable HTTP» and `notifications/cancelled` «is used only on the stdio transport», so a POSTed cancellation may be refused with an error status (SHTTP-NOTIF-REJECT) as well as ignored with 202: no HTTP answer breaks the SHOULD",
    ),
    (
        RuleId("CANCEL-RECEIVED-STOP"),
        "over Streamable HTTP «No `notifications/cancelled` message is required or expected» and «Servers MAY ignore cancellation notifications if: … The request cannot be cancelled», so every observable answer to a POSTed cancellation is admitted and the SHOULD's effects (stopping, freeing) are internal",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{all_rules, JUDGED_IDS};

    #[test]
    fn listed_rules_exist_and_are_not_judged() {
        for (id, why) in NOT_OBSERVABLE {
            let rule = all_rules().find(|r| r.id == *id);
            assert!(rule.is_some_and(|r| !r.judged), "{id:?}");
            assert!(!JUDGED_IDS.contains(id), "{id:?}");
            assert!(!why.is_empty());
        }
    }
}
