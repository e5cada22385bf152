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
    // -- base protocol, versioning, multi-round requests, deprecations, auth (h4; D-167) --
    (
        RuleId("SHTTP-INTERMEDIARY-STATUS"),
        "It binds an intermediary, which a client cannot tell from the server behind it; the status a validation failure gets at the endpoint is judged by the server's own -400 rules.",
    ),
    (
        RuleId("SHTTP-PARAM-UNRECOGNIZED"),
        "It binds an intermediary's forwarding of headers to the server behind it, which happens out of a client's sight.",
    ),
    (
        RuleId("BASE-STATELESS-EXPLICIT"),
        "Which state a server keeps across requests and how it references it internally is not visible; only the identifiers it publishes are, and nothing says which state needed one.",
    ),
    (
        RuleId("BASE-NO-UNDECLARED-CAP"),
        "What a server relies on is internal; its visible effects are an input request for an undeclared capability (MRTR-NO-UNDECLARED) and the -32021 refusal (BASE-MISSING-CAP-32021).",
    ),
    (
        RuleId("MRTR-STATE-VERIFY"),
        "Whether a requestState influences authorization, resource access or business logic is internal, so an accepted tampered state may be one the server legitimately ignores.",
    ),
    (
        RuleId("MRTR-STATE-REPLAY"),
        "What a server puts inside an opaque integrity-protected requestState, and how short a short expiry is, cannot be read or decided from outside.",
    ),
    (
        RuleId("DEPR-HTTPSSE"),
        "Whether an implementation is new (and should not adopt the HTTP+SSE transport) or existing (and should migrate) is a fact of its history, not of its answers.",
    ),
    (
        RuleId("DEPR-FEATURES"),
        "Whether an implementation is new (and should not adopt Logging) or existing (and should migrate) is a fact of its history, not of its answers.",
    ),
    (
        RuleId("AUTH-TOKEN-VALIDATION"),
        "OAuth 2.1 Section 5.2 is not in the pinned snapshot, and what a prober sees of validation is judged by AUTH-NO-DATA, AUTH-OWN-TOKENS and AUTH-AUDIENCE (D-78).",
    ),
    (
        RuleId("AUTH-ERROR-RESPONSE"),
        "OAuth 2.1 Section 5.3 is not in the pinned snapshot, so its requirements cannot be quoted; the answers the pinned pages name are AUTH-INVALID-401's and AUTH-401-CHALLENGE's (D-78).",
    ),
    (
        RuleId("AUTH-NO-OTHER-TOKENS"),
        "Transiting a token happens on the server's upstream requests, out of a prober's sight; accepting another audience's token is AUTH-AUDIENCE's observation (D-78).",
    ),
    // -- end h4 --

    // -- streams and cancellation (h1) --
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
    // -- end h1 --

    // -- tools, resources, prompts (h2) --
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
    // -- end h2 --

    // -- pagination, caching, completion, logging (h3) --
    // -- end h3 --

    // -- observable-but-unjudged review (issue 23, mu2; D-182) --
    (
        RuleId("CANCEL-RACE-GRACEFUL"),
        "the race the sentence names is a `notifications/cancelled` arriving after the request completed, and over Streamable HTTP «No `notifications/cancelled` message is required or expected» (a POSTed one may be accepted or refused, D-103, so every answer is admitted), while the HTTP signal, closing the request's stream, removes the only channel its handling could show on; a server that stops answering afterwards shows only as unreachable, which decides nothing (D-80)",
    ),
    // -- end mu2 --

    // -- 2026-07-28 MAYs: permissions whose every outcome the text allows (2026-12-06); the
    // bounded one, LOG-LEVEL-THRESHOLD («at or above the requested level»), is judged
    // (`stream::StreamRule::LogThreshold`, D-198) --
    (
        RuleId("SHTTP-ORIGIN-BODY"),
        "a MAY: the 403's body may carry an id-less JSON-RPC error or anything else; the status is SHTTP-ORIGIN-403's",
    ),
    (
        RuleId("SHTTP-NOTIF-REJECT-BODY"),
        "a MAY: the error status's body may carry an id-less JSON-RPC error or anything else; the status is SHTTP-NOTIF-REJECT's",
    ),
    (
        RuleId("SHTTP-SSE-NOTIF-MAY"),
        "a MAY: notifications before the final response and none are both allowed; what follows the final response is SHTTP-SSE-FINAL-TERMINATES's",
    ),
    (
        RuleId("SHTTP-PV-MISSING-LEGACY"),
        "a MAY: a server that supports clients older than 2025-06-18 may treat a header-less request as 2025-03-26 or not; one that does not support them is held to SHTTP-PV-MISSING-REJECT",
    ),
    (
        RuleId("VER-DUAL-ERA"),
        "a MAY: implementing both eras and implementing one are both allowed; a target that implements both is judged on each revision apart",
    ),
    (
        RuleId("VER-DUAL-ERA-CONCURRENT"),
        "a MAY: serving both eras on one endpoint or process and serving them apart are both allowed",
    ),
    (
        RuleId("SHTTP-PARAM-DESIGNATE"),
        "a MAY: designating tool parameters with `x-mcp-header` and designating none are both allowed; designated ones are judged by the Mcp-Param rules",
    ),
    (
        RuleId("BASE-RESULT-ANY"),
        "a MAY: a `result` of any JSON object structure is allowed; what a method's result must carry is that method's rules'",
    ),
    (
        RuleId("BASE-ERROR-DATA"),
        "a MAY: an error's `data` may be absent or of any type",
    ),
    (
        RuleId("MRTR-SUPPORTED-MAY"),
        "a MAY: an InputRequiredResult on the requests the page lists and none at all are both allowed; one on any other request is MRTR-ONLY-SUPPORTED's",
    ),
    (
        RuleId("MRTR-FIELDS"),
        "a MAY: an InputRequiredResult with and without `inputRequests` are both allowed",
    ),
    (
        RuleId("MRTR-REPEAT"),
        "a MAY: asking again with another InputRequiredResult on a later attempt and completing the request are both allowed",
    ),
    (
        RuleId("PROG-MAY"),
        "a MAY: sending progress notifications and sending none are both allowed; those sent are judged by PROG-TOKEN-ONLY, PROG-INCREASING and PROG-STOP",
    ),
    (
        RuleId("TOOLS-LINKS-MAY"),
        "a MAY: a tool result with resource links and one without are both allowed",
    ),
    (
        RuleId("RES-MULTI-MAY"),
        "a MAY: one and several contents in a resources/read result are both allowed",
    ),
    (
        RuleId("CACHE-MAY"),
        "a MAY: changing the underlying data before the TTL expires and keeping it are both allowed",
    ),
    // -- end 2026-07-28 MAYs --

    // -- 2025-11-25 legacy revision (l1..l3) --
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
    // -- end legacy --

    // -- 2025-11-25 legacy: closing and disconnecting (l5; D-L51, D-L52) --
    (
        RuleId("L-SHTTP-GET-RETRY"),
        "a GET stream carries no response to mark its end and «The server MAY close the SSE stream at any time», so a server-closed GET stream without `retry` may be a terminated stream (allowed) and no answer tells it from a connection closed mid-stream, the one case this SHOULD binds (DEVIATIONS.md D-L51)",
    ),
    (
        RuleId("L-SHTTP-DISCONNECT-NOT-CANCEL"),
        "the interpretation is internal, and its only trace, a response missing after the client dropped the request's stream, is equally a server that did not cancel but did not make the stream resumable or did not replay a response it wrote before it saw the disconnect, both MAYs (DEVIATIONS.md D-L52)",
    ),
    // -- end l5 --
    // -- SHOULD sweep (issue 23, sh; D-195) --
    (
        RuleId("TOOLS-LISTCHANGED"),
        "The duty arises only when the target's tool list changes, which no client request can cause (the set «MUST NOT vary … as a side effect of other requests on the connection»), so a prober cannot provoke it and a run in which the list never changed shows a missing notification and compliance alike.",
    ),
    (
        RuleId("RES-LISTCHANGED"),
        "The duty arises only when the target's resource list changes, which no client request can cause (the set «MUST NOT vary … as a side effect of other requests on the connection»), so a prober cannot provoke it and a run in which the list never changed shows a missing notification and compliance alike.",
    ),
    (
        RuleId("PROMPTS-LISTCHANGED"),
        "The duty arises only when the target's prompt list changes, which no client request can cause (the set «MUST NOT vary … as a side effect of other requests on the connection»), so a prober cannot provoke it and a run in which the list never changed shows a missing notification and compliance alike.",
    ),
    // -- end SHOULD sweep --
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
