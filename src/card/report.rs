//! The scan's report and its verdict (pure): one object for `--json`, and for a person one
//! line that says what is wrong and one that says what to ship instead.

use super::catalog::CatalogReport;
use super::truth::TruthReport;
use super::url::Origin;
use super::validate::{name_problem, CardCheck};
use super::verdict::{CardStatus, RemoteReport};
use serde::Serialize;

/// The card locations, in the order the scanner tries them.
pub const CARD_PATHS: [&str; 3] = [
    "/.well-known/mcp/server-card.json",
    "/.well-known/mcp.json",
    "/mcp.json",
];

/// One GET of a card location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fetch {
    pub url: String,
    /// HTTP status (`null`: no HTTP answer).
    pub status: Option<u16>,
    pub outcome: String,
}

/// What the card locations gave: the first 200 decides.
#[derive(Clone, Copy, Debug)]
pub enum Found<'a> {
    /// No location answered 200.
    Nothing,
    /// The first 200 was not JSON.
    NotJson { url: &'a str, outcome: &'a str },
    /// The first 200 was JSON, checked.
    Card { url: &'a str, check: &'a CardCheck },
}

/// The card's identity as read (`--json`: `card`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardSummary {
    pub name: Option<String>,
    pub version: Option<String>,
    pub description: Option<String>,
    pub problems: Vec<String>,
}

impl CardSummary {
    pub fn of(check: &CardCheck) -> CardSummary {
        CardSummary {
            name: check.name.clone(),
            version: check.version.clone(),
            description: check.description.clone(),
            problems: check.problems.clone(),
        }
    }
}

/// Everything `mcpdiff card` found (the `--json` object).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardReport {
    pub origin: String,
    pub verdict: CardStatus,
    /// One line: what was found, or what is wrong.
    pub detail: String,
    /// One line: what to ship instead (`null` on pass).
    pub fix: Option<String>,
    /// The URL whose 200 answer was taken as the card (`null`: none).
    pub card_url: Option<String>,
    /// Every card location requested, in order.
    pub tried: Vec<Fetch>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<CardSummary>,
    pub remotes: Vec<RemoteReport>,
    /// The newer discovery path (`/.well-known/ai-catalog.json`), judged on its own.
    pub catalog: Option<CatalogReport>,
    /// The card's `supportedProtocolVersions` against what each reachable endpoint says.
    pub truth: Vec<TruthReport>,
}

/// The verdict with its two lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardDecision {
    pub verdict: CardStatus,
    pub detail: String,
    pub fix: Option<String>,
}

/// A minimal card for `origin`, as one line of JSON (the "ship this" of a failed scan).
pub fn example_card(origin: &Origin) -> String {
    let card = super::card_json(
        "io.github.you/server",
        "1.0.0",
        "What your server does",
        &format!("{origin}/mcp"),
    );
    // serializing a Value cannot fail (all keys are strings)
    serde_json::to_string(&card).unwrap_or_default()
}

/// A name that passes, close to a failing one: slashes but the last become dots, other
/// characters become `-` (`io.github/acme/x` -> `io.github.acme/x`).
pub fn suggest_name(bad: &str) -> String {
    let clean = |s: &str, extra: &[char]| -> String {
        let t: String = s
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' || extra.contains(&c) {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        t.trim_matches(['-', '.']).to_string()
    };
    let (ns, server) = match bad.rsplit_once('/') {
        Some((ns, server)) => (clean(&ns.replace('/', "."), &[]), clean(server, &['_'])),
        None => (String::new(), clean(bad, &['_'])),
    };
    let ns = if ns.is_empty() {
        "io.github.you".to_string()
    } else {
        ns
    };
    let server = if server.is_empty() {
        "server".to_string()
    } else {
        server
    };
    format!("{ns}/{server}")
}

fn identity_fix(check: &CardCheck) -> String {
    let mut fixes = Vec::new();
    if let Some(name) = &check.name {
        if name_problem(name).is_some() {
            fixes.push(format!("`\"name\": \"{}\"`", suggest_name(name)));
        }
    } else {
        fixes.push("`\"name\": \"io.github.you/server\"`".to_string());
    }
    if check.version.is_none() {
        fixes.push("a non-empty `version` (e.g. \"1.0.0\")".to_string());
    }
    if check.description.is_none() {
        fixes.push("a non-empty `description`".to_string());
    }
    format!("ship the card with {}", fixes.join(", "))
}

/// The verdict of a scan of `origin`, from what the card locations gave and the remote rows.
pub fn decide(
    origin: &Origin,
    tried: &[Fetch],
    found: Found<'_>,
    rows: &[RemoteReport],
) -> CardDecision {
    let fail = |detail: String, fix: String| CardDecision {
        verdict: CardStatus::Fail,
        detail,
        fix: Some(fix),
    };
    let partial = |detail: String, fix: String| CardDecision {
        verdict: CardStatus::Partial,
        detail,
        fix: Some(fix),
    };
    let check = match found {
        Found::Nothing => {
            let seen: Vec<String> = tried
                .iter()
                .map(|f| format!("{} {}", path_of(&f.url), status_word(f)))
                .collect();
            return fail(
                format!("no server card: {}", seen.join(", ")),
                format!(
                    "serve your card with 200 at {origin}{}, e.g. {}",
                    CARD_PATHS[0],
                    example_card(origin)
                ),
            );
        }
        Found::NotJson { url, outcome } => {
            return fail(
                format!("{url} answered 200 but the body is not JSON ({outcome})"),
                format!(
                    "serve the card there as JSON, e.g. {}",
                    example_card(origin)
                ),
            )
        }
        Found::Card { check, .. } => check,
    };
    if !check.identity_ok() {
        return fail(
            format!("the card is missing fields: {}", check.problems.join("; ")),
            identity_fix(check),
        );
    }
    if !check.usable() {
        let why = if check.remotes.is_empty() {
            "it lists no `remotes`".to_string()
        } else {
            check
                .remotes
                .iter()
                .map(|r| format!("remotes[{}]: {}", r.index, r.problems.join("; ")))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let declared = check
            .remotes
            .iter()
            .any(|r| r.problems.iter().any(|p| p.contains("declared")));
        let fix = if declared {
            "drop `\"status\": \"declared\"` once the endpoint is live (a declared remote is \
             not usable)"
                .to_string()
        } else {
            format!(
                "list a remote like {{\"type\":\"streamable-http\",\"url\":\"{origin}/mcp\",\
                 \"supportedProtocolVersions\":[\"2026-07-28\"]}}"
            )
        };
        return partial(format!("the card offers no usable remote: {why}"), fix);
    }
    if let Some(hit) = rows.iter().find(|r| r.counted) {
        return CardDecision {
            verdict: CardStatus::Pass,
            detail: format!("{} {}", hit.url, hit.note),
            fix: None,
        };
    }
    let usable: Vec<&RemoteReport> = rows.iter().filter(|r| r.usable).collect();
    let list = |f: &dyn Fn(&RemoteReport) -> bool| -> Vec<&RemoteReport> {
        usable.iter().copied().filter(|r| f(r)).collect()
    };
    let elsewhere = list(&|r| !r.on_origin);
    let skipped = list(&|r| r.on_origin && !r.requested);
    let silent = list(&|r| r.on_origin && r.requested);
    let mut parts = Vec::new();
    let urls = |rs: &[&RemoteReport]| {
        rs.iter()
            .map(|r| r.url.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !elsewhere.is_empty() {
        parts.push(format!(
            "{} on another origin ({})",
            elsewhere.len(),
            urls(&elsewhere)
        ));
    }
    if !skipped.is_empty() {
        parts.push(format!(
            "{} not requested ({})",
            skipped.len(),
            urls(&skipped)
        ));
    }
    if !silent.is_empty() {
        let each: Vec<String> = silent
            .iter()
            .map(|r| format!("{} {}", r.url, r.note))
            .collect();
        parts.push(format!(
            "{} did not answer ({})",
            silent.len(),
            each.join("; ")
        ));
    }
    let fix = if let Some(r) = silent.iter().find(|r| r.status == Some(401)) {
        format!(
            "answer the 401 at {} with `WWW-Authenticate: Bearer resource_metadata=\"{origin}/.well-known/oauth-protected-resource\"`",
            r.url
        )
    } else if let Some(r) = silent.first() {
        format!(
            "make {} answer a plain GET (2xx, or 405/406 for streamable-http), or put the live endpoint's URL in the card",
            r.url
        )
    } else if !skipped.is_empty() {
        "list the live remote first, or raise --max-remotes".to_string()
    } else {
        format!("list a remote on {origin} (the scan requests the scanned origin only), or scan the remote's own origin")
    };
    partial(
        format!("no remote on {origin} answered: {}", parts.join("; ")),
        fix,
    )
}

fn path_of(url: &str) -> &str {
    url.find("://")
        .and_then(|i| url[i + 3..].find('/').map(|j| &url[i + 3 + j..]))
        .unwrap_or(url)
}

fn status_word(f: &Fetch) -> String {
    match f.status {
        Some(s) => s.to_string(),
        None => f.outcome.clone(),
    }
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
