//! Which remotes to request, whether an answer counts, and the verdict (pure).
//!
//! The scan's I/O (`scan.rs`) asks this module what to request and hands back what came
//! back; everything decided here is a function of those values, so every sentence of the
//! rules has a unit test without a socket.

use super::url::Origin;
use super::validate::{CardCheck, RemoteEntry, TransportKind};
use serde::Serialize;

/// The scanner's verdict on a card (`pass`, `partial`, `fail` in `--json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CardStatus {
    Pass,
    Partial,
    Fail,
}

impl CardStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CardStatus::Pass => "pass",
            CardStatus::Partial => "partial",
            CardStatus::Fail => "fail",
        }
    }
}

/// What one plain GET got: an HTTP status (with the challenge, for 401), or no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GetProbe {
    pub status: Option<u16>,
    pub www_authenticate: Option<String>,
    /// One line for reports (`404 text/plain 10 non-JSON bytes`, `timeout`).
    pub summary: String,
}

/// What the scan does with one `remotes[]` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemotePlan {
    /// GET this path on the scanned origin.
    Request(String),
    /// Not requested, and why (not usable, another origin, over the cap, credentials).
    Skip(Skip),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    NotUsable,
    OtherOrigin,
    OverCap,
    Credentials,
}

/// One remote in the report (`--json`: `remotes[]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RemoteReport {
    pub url: String,
    #[serde(rename = "type")]
    pub kind: Option<TransportKind>,
    pub usable: bool,
    pub on_origin: bool,
    pub requested: bool,
    /// The HTTP status of the GET (`null`: not requested, or no HTTP answer).
    pub status: Option<u16>,
    /// The answer counts for the verdict.
    pub counted: bool,
    pub note: String,
}

/// Decide, in card order, which remotes are requested: usable ones on the scanned origin,
/// at most `cap` of them. Entries that are not usable are never requested.
pub fn plan(check: &CardCheck, scanned: &Origin, cap: usize) -> Vec<RemotePlan> {
    let mut budget = cap;
    check
        .remotes
        .iter()
        .map(|r| {
            let Some(url) = r.resolved.as_ref().filter(|_| r.usable()) else {
                return RemotePlan::Skip(Skip::NotUsable);
            };
            if &url.origin != scanned {
                RemotePlan::Skip(Skip::OtherOrigin)
            } else if url.has_userinfo {
                RemotePlan::Skip(Skip::Credentials)
            } else if budget == 0 {
                RemotePlan::Skip(Skip::OverCap)
            } else {
                budget -= 1;
                RemotePlan::Request(url.path.clone())
            }
        })
        .collect()
}

/// The challenge names the `resource_metadata` auth-param (RFC 9728 §5.1). Auth-param names
/// are case-insensitive (RFC 9110 §11.2); the name must be followed by `=`, so a realm or
/// scope value that merely contains the word does not count.
pub fn names_resource_metadata(challenge: &str) -> bool {
    let lower = challenge.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("resource_metadata") {
        let at = from + i;
        let before = lower[..at].chars().next_back();
        let after = lower[at + "resource_metadata".len()..].trim_start();
        let starts_param = matches!(before, None | Some(' ' | '\t' | ','));
        if starts_param && after.starts_with('=') {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Whether a remote of `kind` that got `probe` answered, and the note that says why.
pub fn judge(kind: Option<TransportKind>, probe: &GetProbe) -> (bool, String) {
    let Some(status) = probe.status else {
        return (false, format!("no HTTP answer ({})", probe.summary));
    };
    let streamable = kind == Some(TransportKind::StreamableHttp);
    match status {
        200..=299 => (true, format!("answered {status}")),
        405 | 406 if streamable => (
            true,
            format!("answered {status} (a streamable-http endpoint refusing a plain GET counts)"),
        ),
        405 | 406 => (
            false,
            format!("answered {status}; only streamable-http remotes count 405/406"),
        ),
        401 if probe
            .www_authenticate
            .as_deref()
            .is_some_and(names_resource_metadata) =>
        {
            (
                true,
                "answered 401 with a WWW-Authenticate challenge naming resource_metadata"
                    .to_string(),
            )
        }
        401 => (
            false,
            "answered 401 without a WWW-Authenticate challenge naming resource_metadata \
             (a bare 401 does not count)"
                .to_string(),
        ),
        _ => (false, format!("answered {}", probe.summary)),
    }
}

/// The report row of one remote, given its plan and (when requested) its probe.
pub fn remote_row(
    entry: &RemoteEntry,
    plan: &RemotePlan,
    probe: Option<&GetProbe>,
    scanned: &Origin,
) -> RemoteReport {
    let url = entry
        .resolved
        .as_ref()
        .map(|u| format!("{}{}", u.origin, u.path))
        .or_else(|| entry.url.clone())
        .unwrap_or_default();
    let on_origin = entry
        .resolved
        .as_ref()
        .is_some_and(|u| &u.origin == scanned);
    let (requested, status, counted, note) = match (plan, probe) {
        (RemotePlan::Request(_), Some(p)) => {
            let (counted, note) = judge(entry.kind, p);
            (true, p.status, counted, note)
        }
        (RemotePlan::Request(_), None) => (false, None, false, "not requested".to_string()),
        (RemotePlan::Skip(why), _) => {
            let note = match why {
                Skip::NotUsable => format!("not usable: {}", entry.problems.join("; ")),
                Skip::OtherOrigin => format!(
                    "on another origin than {scanned}; the scan requests the scanned origin only"
                ),
                Skip::OverCap => "not requested: over the --max-remotes cap".to_string(),
                Skip::Credentials => {
                    "not requested: the URL carries credentials (user:password@)".to_string()
                }
            };
            (false, None, false, note)
        }
    };
    RemoteReport {
        url,
        kind: entry.kind,
        usable: entry.usable(),
        on_origin,
        requested,
        status,
        counted,
        note,
    }
}

#[cfg(test)]
#[path = "verdict_tests.rs"]
mod tests;
