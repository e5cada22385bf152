//! The card validator (pure: JSON in, findings out; no I/O).
//!
//! The rules are the public scanner's, read strictly where its documentation is explicit
//! and documented where it is not:
//!
//! - `name`: a string matching the registry's reverse-DNS pattern
//!   `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$` (so exactly one `/`), 3 to 200 characters;
//! - `version`, `description`: non-empty strings;
//! - `$schema`: accepted when present, never required, never fetched;
//! - `remotes[]`: an entry is usable when it gives `type` `streamable-http` or `sse`, a `url`
//!   (an absolute http(s) URL once `{variables}` are filled from their defaults), a
//!   non-empty `supportedProtocolVersions` array of strings, and no `status: "declared"`.

use super::url::{parse_url, Url, UrlError};
use serde::Serialize;
use serde_json::{Map, Value};

/// A transport a remote may offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TransportKind {
    #[serde(rename = "streamable-http")]
    StreamableHttp,
    #[serde(rename = "sse")]
    Sse,
}

impl TransportKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TransportKind::StreamableHttp => "streamable-http",
            TransportKind::Sse => "sse",
        }
    }
}

/// One `remotes[]` entry as the validator read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteEntry {
    /// Position in `remotes[]`.
    pub index: usize,
    pub kind: Option<TransportKind>,
    /// The URL as written in the card.
    pub url: Option<String>,
    /// The URL with template variables filled in and parsed, when that worked.
    pub resolved: Option<Url>,
    pub versions: Vec<String>,
    /// Why the entry is not usable (empty: usable).
    pub problems: Vec<String>,
}

impl RemoteEntry {
    pub fn usable(&self) -> bool {
        self.problems.is_empty()
    }
}

/// What the validator found in one card document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardCheck {
    pub name: Option<String>,
    pub version: Option<String>,
    pub description: Option<String>,
    /// Missing or invalid top-level fields (empty: the identity is complete).
    pub problems: Vec<String>,
    pub remotes: Vec<RemoteEntry>,
}

impl CardCheck {
    /// `name`, `version` and `description` are all present and valid.
    pub fn identity_ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The usable remotes, in card order.
    pub fn usable_remotes(&self) -> impl Iterator<Item = &RemoteEntry> {
        self.remotes.iter().filter(|r| r.usable())
    }

    /// A usable card: complete identity and at least one usable remote.
    pub fn usable(&self) -> bool {
        self.identity_ok() && self.usable_remotes().next().is_some()
    }
}

/// Why `name` is not a reverse-DNS server name with exactly one slash (`None`: it is).
pub fn name_problem(name: &str) -> Option<String> {
    let slashes = name.matches('/').count();
    let len = name.chars().count();
    if slashes != 1 {
        return Some(format!(
            "`name` \"{name}\" has {slashes} slashes; it needs exactly one \
             (reverse-DNS namespace / server, e.g. io.github.you/server)"
        ));
    }
    let (ns, server) = name.split_once('/').unwrap_or_default();
    let ns_ok = !ns.is_empty()
        && ns
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    let server_ok = !server.is_empty()
        && server
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !ns_ok || !server_ok {
        return Some(format!(
            "`name` \"{name}\" is not reverse-DNS: the namespace may hold letters, digits, \
             `.` and `-`, the server part also `_` (e.g. io.github.you/server)"
        ));
    }
    if !(3..=200).contains(&len) {
        return Some(format!("`name` \"{name}\" must be 3 to 200 characters"));
    }
    None
}

/// A non-empty string field, or the problem with it.
fn text_field(card: &Map<String, Value>, key: &str, problems: &mut Vec<String>) -> Option<String> {
    match card.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(Value::String(_)) => {
            problems.push(format!("`{key}` is empty"));
            None
        }
        Some(_) => {
            problems.push(format!("`{key}` is not a string"));
            None
        }
        None => {
            problems.push(format!("`{key}` is missing"));
            None
        }
    }
}

/// Check one card document.
pub fn check_card(doc: &Value) -> CardCheck {
    let Some(card) = doc.as_object() else {
        return CardCheck {
            problems: vec!["the card is JSON but not an object".to_string()],
            ..CardCheck::default()
        };
    };
    let mut problems = Vec::new();
    let name = text_field(card, "name", &mut problems);
    if let Some(p) = name.as_deref().and_then(name_problem) {
        problems.push(p);
    }
    let version = text_field(card, "version", &mut problems);
    let description = text_field(card, "description", &mut problems);
    let remotes = match card.get("remotes") {
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, r)| check_remote(i, r))
            .collect(),
        // A card without remotes is still a card (package-only servers publish them); it
        // just offers no transport, which the verdict reports.
        _ => Vec::new(),
    };
    CardCheck {
        name,
        version,
        description,
        problems,
        remotes,
    }
}

fn check_remote(index: usize, entry: &Value) -> RemoteEntry {
    let mut r = RemoteEntry {
        index,
        kind: None,
        url: None,
        resolved: None,
        versions: Vec::new(),
        problems: Vec::new(),
    };
    let Some(obj) = entry.as_object() else {
        r.problems.push("not an object".to_string());
        return r;
    };
    match obj.get("type").and_then(Value::as_str) {
        Some("streamable-http") => r.kind = Some(TransportKind::StreamableHttp),
        Some("sse") => r.kind = Some(TransportKind::Sse),
        Some(other) => r.problems.push(format!(
            "transport type \"{other}\" is neither streamable-http nor sse"
        )),
        None => r.problems.push("no transport `type`".to_string()),
    }
    match obj.get("url").and_then(Value::as_str) {
        Some(u) if !u.trim().is_empty() => {
            r.url = Some(u.to_string());
            match fill_template(u, obj.get("variables")).and_then(|s| parse_url(&s)) {
                Ok(parsed) => r.resolved = Some(parsed),
                Err(e) => r.problems.push(e.to_string()),
            }
        }
        _ => r.problems.push("no `url`".to_string()),
    }
    match obj.get("supportedProtocolVersions") {
        Some(Value::Array(vs)) if !vs.is_empty() && vs.iter().all(Value::is_string) => {
            r.versions = vs
                .iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect();
        }
        Some(_) => r
            .problems
            .push("`supportedProtocolVersions` is not a non-empty array of strings".to_string()),
        None => r
            .problems
            .push("no `supportedProtocolVersions`".to_string()),
    }
    if obj.get("status").and_then(Value::as_str) == Some("declared") {
        r.problems
            .push("`status` is \"declared\" (announced, not live)".to_string());
    }
    r
}

/// Fill `{name}` placeholders from `variables.name.default`; an unfilled one is an error.
fn fill_template(url: &str, variables: Option<&Value>) -> Result<String, UrlError> {
    let mut out = String::with_capacity(url.len());
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| UrlError::UnclosedBrace(url.to_string()))?;
        let var = &after[..close];
        let default = variables
            .and_then(|v| v.get(var))
            .and_then(|v| v.get("default"))
            .and_then(Value::as_str)
            .ok_or_else(|| UrlError::NoDefault {
                url: url.to_string(),
                variable: var.to_string(),
            })?;
        out.push_str(default);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
