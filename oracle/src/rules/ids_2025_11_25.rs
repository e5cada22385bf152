//! Named constants for the 2025-11-25 rule ids the legacy sequence judge (`crate::legacy`)
//! checks. Kept apart from [`super::JUDGED_IDS`] (the modern judge's, each with a probe):
//! these are judged by the legacy sequences a run sends to targets that answer `initialize`;
//! each one has a mutant of the legacy reference caught on it.

/// The legacy (2025-11-25) ids.
pub mod legacy {
    use crate::rules::RuleId;

    macro_rules! legacy_ids {
        ($($name:ident = $id:literal,)*) => {
            $(pub const $name: RuleId = RuleId($id);)*
            /// Every id the legacy sequence judge can emit.
            pub const LEGACY_CHECKED_IDS: &[RuleId] = &[$($name),*];
        };
    }

    legacy_ids! {
        INIT_RESULT = "L-LIFE-INIT-RESULT",
        VERSION_SAME = "L-LIFE-VERSION-SAME",
        VERSION_OTHER = "L-LIFE-VERSION-OTHER",
        SESSION_ID_CHARS = "L-SHTTP-SESSION-ID-CHARS",
        SESSION_404 = "L-SHTTP-SESSION-404",
        SESSION_MISSING_400 = "L-SHTTP-SESSION-MISSING-400",
        NOTIF_202 = "L-SHTTP-NOTIF-202",
        REQ_CT = "L-SHTTP-REQ-CT",
        PV_UNSUPPORTED_400 = "L-SHTTP-PV-UNSUPPORTED-400",
        GET_SSE_OR_405 = "L-SHTTP-GET-SSE-OR-405",
        GET_NO_RESPONSE = "L-SHTTP-GET-NO-RESPONSE",
        ORIGIN_403 = "L-SHTTP-ORIGIN-403",
        // L1: the rest of the server-observable rules (issue 24)
        ORIGIN_VALIDATE = "L-SHTTP-ORIGIN-VALIDATE",
        NOTIF_REJECT = "L-SHTTP-NOTIF-REJECT",
        VERSION_LATEST = "L-LIFE-VERSION-LATEST",
        NO_REQUESTS_BEFORE_INITIALIZED = "L-LIFE-NO-REQUESTS-BEFORE-INITIALIZED",
        OPERATION = "L-LIFE-OPERATION",
        SSE_PRIME = "L-SHTTP-SSE-PRIME",
        SSE_TERMINATE = "L-SHTTP-SSE-TERMINATE",
        SSE_RETRY = "L-SHTTP-SSE-RETRY",
        SSE_RESPONSE = "L-SHTTP-SSE-RESPONSE",
        EVENTID_UNIQUE = "L-SHTTP-EVENTID-UNIQUE",
        RESUME_SAME_STREAM = "L-SHTTP-RESUME-SAME-STREAM",
        BASE_UTF8 = "L-BASE-UTF8",
        // L5: the endpoint's POST (issue 24, D-L50)
        EP_POST_GET = "L-SHTTP-EP-POST-GET",
    }
}
