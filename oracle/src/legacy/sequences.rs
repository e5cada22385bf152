//! The legacy sequences every dual-era or legacy target gets: together they give each rule in
//! `LEGACY_CHECKED_IDS` a step that can fail it.

use super::step::{LegacyStep, SessionUse, VersionHeader, BOGUS_VERSION};

/// A named sequence of steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    pub name: &'static str,
    pub steps: Vec<LegacyStep>,
}

fn request(method: &str, session: SessionUse, version: VersionHeader) -> LegacyStep {
    LegacyStep::Request {
        method: method.to_string(),
        session,
        version,
    }
}

fn initialize(version: &str) -> LegacyStep {
    LegacyStep::Initialize {
        version: version.to_string(),
    }
}

/// The sequences, opening with `latest` (the newest legacy version the target is known to
/// support) and, in one sequence, `older` (another one it supports, if known).
pub fn sequences(latest: &str, older: Option<&str>) -> Vec<Sequence> {
    use SessionUse::{Current, Missing, Unknown};
    use VersionHeader::{Absent, Negotiated, Unsupported};
    let mut out = vec![
        Sequence {
            name: "lifecycle",
            steps: vec![
                initialize(latest),
                LegacyStep::Initialized,
                request("ping", Current, Negotiated),
                LegacyStep::Response,
                request("tools/list", Current, Absent),
                LegacyStep::Get { session: Current },
                LegacyStep::Delete { session: Current },
                request("ping", Current, Negotiated),
                LegacyStep::Get { session: Current },
            ],
        },
        Sequence {
            name: "session-ids",
            steps: vec![
                initialize(latest),
                LegacyStep::Initialized,
                request("ping", Missing, Negotiated),
                request("ping", Unknown, Negotiated),
                LegacyStep::Get { session: Unknown },
                request("ping", Current, Unsupported),
                LegacyStep::ForeignOrigin,
                LegacyStep::ForeignOriginGet,
                LegacyStep::Delete { session: Current },
            ],
        },
        // two streamed requests, then a resumption of the first stream: event ids unique
        // across streams, nothing of the second stream replayed (D-L17, D-L18)
        Sequence {
            name: "resumability",
            steps: vec![
                initialize(latest),
                LegacyStep::Initialized,
                request("tools/list", Current, Negotiated),
                request("tools/list", Current, Negotiated),
                LegacyStep::Resume,
                LegacyStep::Delete { session: Current },
            ],
        },
        Sequence {
            name: "unsupported-version",
            steps: vec![
                initialize(BOGUS_VERSION),
                LegacyStep::Delete { session: Current },
            ],
        },
    ];
    if let Some(older) = older {
        out.push(Sequence {
            name: "older-version",
            steps: vec![
                initialize(older),
                LegacyStep::Initialized,
                request("ping", Current, Negotiated),
                LegacyStep::Delete { session: Current },
            ],
        });
    }
    out
}
