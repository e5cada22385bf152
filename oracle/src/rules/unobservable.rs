//! The rules no server answer can break, each with the one-sentence reason: a MAY (every
//! answer is allowed), a duty of the client, or a property mcpdiff cannot see from where it
//! stands. They stay `judged: false` in their tables, and listing them here says why, so
//! `mcpdiff rules` can tell "not judged yet" from "cannot be judged".

use super::RuleId;

/// The rules that cannot be observed, with why.
pub static NOT_OBSERVABLE: &[(RuleId, &str)] = &[
    // L1: 2025-11-25
    (
        RuleId("L-SHTTP-EVENTID-STREAM"),
        "what an event id encodes is opaque to the client; only its effect, a resumption replaying the right stream, shows, and that is L-SHTTP-RESUME-SAME-STREAM",
    ),
    (
        RuleId("L-SHTTP-RESUME-REPLAY"),
        "a MAY: replaying what the broken stream missed and not replaying it are both allowed",
    ),
    (
        RuleId("L-SHTTP-SSE-RELATED"),
        "whether a server message relates to the originating request is meaning, not shape: no field of a request or notification names the client request it serves",
    ),
    (
        RuleId("L-SHTTP-GET-UNRELATED"),
        "relation to a client request is meaning, not shape, and mcpdiff never has a request running while it reads a GET stream",
    ),
    (
        RuleId("L-SHTTP-ONE-STREAM"),
        "mcpdiff holds one connection at a time, so no two streams are ever connected at once for a message to be broadcast across",
    ),
    (
        RuleId("L-SHTTP-SESSION-ASSIGN"),
        "a MAY: assigning a session id at initialization and assigning none are both allowed",
    ),
    (
        RuleId("L-SHTTP-DELETE-405"),
        "a MAY: 405 and any other answer to DELETE are allowed (DEVIATIONS.md D-L5 reads what each means for the session)",
    ),
    (
        RuleId("L-SHTTP-PV-ASSUME"),
        "after initialize the negotiated version is the server's «other way to identify the version», and what a server assumes shows in no answer the page fixes (D-L7)",
    ),
    (
        RuleId("L-LIFE-INIT-FIRST"),
        "a duty of whoever opens the interaction, the client: a Streamable HTTP server only answers requests",
    ),
    (
        RuleId("L-SHTTP-BIND-LOCALHOST"),
        "which interfaces a server listens on cannot be seen from the one loopback address mcpdiff connects to",
    ),
    (
        RuleId("L-SHTTP-SESSION-ID-SECURE"),
        "global uniqueness and cryptographic security are properties of the id generator that the few ids one run sees cannot decide",
    ),
    (
        RuleId("L-SHTTP-AUTHN"),
        "what authentication is «proper» for a deployment the page does not fix, and a test target's deployment is chosen by whoever runs it",
    ),
    (
        RuleId("L-SHTTP-SSE-CLOSE"),
        "a MAY: closing the connection after an event with an id and keeping it are both allowed",
    ),
    (
        RuleId("L-SHTTP-SSE-SESSION-EXPIRY"),
        "a MAY: ending a stream when its session expires and keeping it are both allowed",
    ),
    (
        RuleId("L-SHTTP-ORIGIN-BODY"),
        "a MAY: the 403's body may carry an id-less JSON-RPC error or anything else",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{rule, LEGACY_RULES};

    #[test]
    fn every_unobservable_rule_exists_once_and_is_not_judged() {
        for (i, (id, why)) in NOT_OBSERVABLE.iter().enumerate() {
            let r = rule(*id).unwrap_or_else(|| panic!("{id}: no such rule"));
            assert!(!r.judged, "{id} is judged, so it is observable");
            assert!(!why.is_empty(), "{id}: no reason");
            assert!(
                !NOT_OBSERVABLE[..i].iter().any(|(o, _)| o == id),
                "{id} listed twice"
            );
        }
        // L1: every 2025-11-25 rule is judged, listed here, or one of the few left open
        let open = [
            "L-SHTTP-EP-POST-GET",
            "L-SHTTP-GET-RETRY",
            "L-SHTTP-DISCONNECT-NOT-CANCEL",
        ];
        for r in LEGACY_RULES {
            let listed = NOT_OBSERVABLE.iter().any(|(o, _)| *o == r.id);
            assert!(
                r.judged || listed || open.contains(&r.id.0),
                "{}: neither judged nor listed as unobservable",
                r.id
            );
        }
    }
}
