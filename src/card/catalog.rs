//! The newer discovery path of the server-card extension (pure): an AI Catalog at
//! `/.well-known/ai-catalog.json` whose `entries[]` of type `application/mcp-server-card+json`
//! point at cards, by convention at `<streamable-http-url>/server-card`.
//!
//! It is reported on its own line and never changes the scanner's verdict: the public
//! scanner reads the three legacy locations, and a catalog is optional.

use super::url::{parse_url, Origin, Url, UrlError};
use super::validate::check_card;
use super::verdict::GetProbe;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

pub const CATALOG_PATH: &str = "/.well-known/ai-catalog.json";
/// The media type of a Server Card (catalog entry `type`, and the `Accept` of a card GET).
pub const CARD_MEDIA_TYPE: &str = "application/mcp-server-card+json";
/// The suffix the extension reserves for a card next to its endpoint.
pub const CARD_SUFFIX: &str = "/server-card";

/// One card entry of the catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRef {
    pub identifier: Option<String>,
    pub url: String,
    pub parsed: Result<Url, UrlError>,
}

/// The card entries of a catalog document (entries of other types are ignored, as the
/// extension tells clients to), or why the document is not a catalog.
pub fn card_entries(doc: &Value) -> Result<Vec<EntryRef>, String> {
    let entries = doc
        .get("entries")
        .and_then(Value::as_array)
        .ok_or("it has no `entries` array")?;
    Ok(entries
        .iter()
        .filter(|e| e.get("type").and_then(Value::as_str) == Some(CARD_MEDIA_TYPE))
        .filter_map(|e| {
            let url = e.get("url").and_then(Value::as_str)?.to_string();
            Some(EntryRef {
                identifier: e
                    .get("identifier")
                    .and_then(Value::as_str)
                    .map(String::from),
                parsed: parse_url(&url),
                url,
            })
        })
        .collect())
}

/// One catalog entry in the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryReport {
    pub identifier: Option<String>,
    pub url: String,
    pub requested: bool,
    pub status: Option<u16>,
    /// The card it points at is usable (`null`: not fetched or not JSON).
    pub card_usable: Option<bool>,
    pub note: String,
}

/// The catalog part of the report (`--json`: `catalog`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CatalogReport {
    pub url: String,
    pub status: Option<u16>,
    pub entries: Vec<EntryReport>,
    /// The one line the human output prints.
    pub line: String,
}

/// Why a catalog entry is not requested. Displays as the phrase its report row shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotRequested {
    BadUrl(UrlError),
    /// On another origin than the scanned one.
    OtherOrigin(Origin),
    Credentials,
}

impl fmt::Display for NotRequested {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRequested::BadUrl(e) => e.fmt(f),
            NotRequested::OtherOrigin(scanned) => write!(f, "on another origin than {scanned}"),
            NotRequested::Credentials => f.write_str("the URL carries credentials"),
        }
    }
}

impl std::error::Error for NotRequested {}

/// Whether an entry is requested (its path): on the scanned origin, without credentials.
pub fn requestable(entry: &EntryRef, scanned: &Origin) -> Result<String, NotRequested> {
    match &entry.parsed {
        Err(e) => Err(NotRequested::BadUrl(e.clone())),
        Ok(u) if &u.origin != scanned => Err(NotRequested::OtherOrigin(scanned.clone())),
        Ok(u) if u.has_userinfo => Err(NotRequested::Credentials),
        Ok(u) => Ok(u.path.clone()),
    }
}

/// The report row of one entry: `fetched` is the GET's probe and JSON body, if requested.
/// `endpoints` are the scanned card's usable remote URLs, to check the `/server-card` shape.
pub fn entry_row(
    entry: &EntryRef,
    skipped: Option<String>,
    fetched: Option<(&GetProbe, Option<&Value>)>,
    endpoints: &[String],
) -> EntryReport {
    let mut row = EntryReport {
        identifier: entry.identifier.clone(),
        url: entry.url.clone(),
        requested: fetched.is_some(),
        status: fetched.and_then(|(p, _)| p.status),
        card_usable: None,
        note: String::new(),
    };
    let mut notes = Vec::new();
    match (skipped, fetched) {
        (Some(why), _) => notes.push(format!("not requested: {why}")),
        (None, Some((p, _))) if p.status != Some(200) => {
            notes.push(format!("answered {}", p.summary))
        }
        (None, Some((_, Some(doc)))) => {
            let c = check_card(doc);
            row.card_usable = Some(c.usable());
            notes.push(if c.usable() {
                format!("usable card {}", c.name.unwrap_or_default())
            } else {
                let mut why = c.problems.clone();
                why.extend(c.remotes.iter().flat_map(|r| r.problems.clone()));
                if c.remotes.is_empty() {
                    why.push("no remotes".to_string());
                }
                format!("card not usable: {}", why.join("; "))
            });
        }
        (None, Some((p, None))) => notes.push(format!("200 but not JSON ({})", p.summary)),
        (None, None) => notes.push("not requested".to_string()),
    }
    let expected: Vec<String> = endpoints
        .iter()
        .map(|e| format!("{}{CARD_SUFFIX}", e.trim_end_matches('/')))
        .collect();
    let normalized = entry
        .parsed
        .as_ref()
        .map(|u| format!("{}{}", u.origin, u.path))
        .unwrap_or_else(|_| entry.url.clone());
    if !expected.is_empty() && !expected.contains(&normalized) {
        notes.push(format!(
            "not at <endpoint>{CARD_SUFFIX} (expected {})",
            expected.join(" or ")
        ));
    }
    row.note = notes.join("; ");
    row
}

/// The catalog's one line.
pub fn line(report: &CatalogReport, origin: &Origin, not_catalog: Option<&str>) -> String {
    let hint = format!(
        "optional; to publish it, list {{\"type\":\"{CARD_MEDIA_TYPE}\",\"url\":\"{origin}/mcp{CARD_SUFFIX}\"}} in `entries` and serve the card there"
    );
    match (report.status, not_catalog) {
        (Some(200), Some(why)) => format!("{} is not a catalog: {why} ({hint})", report.url),
        (Some(200), None) if report.entries.is_empty() => {
            format!("{} lists no {CARD_MEDIA_TYPE} entry ({hint})", report.url)
        }
        (Some(200), None) => {
            let each: Vec<String> = report
                .entries
                .iter()
                .map(|e| format!("{} → {}", e.url, e.note))
                .collect();
            format!("{}: {}", report.url, each.join("; "))
        }
        (Some(s), _) => format!("{} answered {s}: not published ({hint})", report.url),
        (None, _) => format!("{}: no answer ({hint})", report.url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn origin() -> Origin {
        parse_url("http://127.0.0.1:7").expect("valid").origin
    }

    #[test]
    fn only_card_entries_are_read() {
        let doc = json!({"specVersion":"draft","entries":[
            {"identifier":"urn:air:x:a2a","type":"application/a2a-agent-card+json","url":"http://127.0.0.1:7/a2a"},
            {"identifier":"urn:air:x:mcp","type":CARD_MEDIA_TYPE,"url":"http://127.0.0.1:7/mcp/server-card"}]});
        let e = card_entries(&doc).expect("catalog");
        assert_eq!(e.len(), 1);
        assert_eq!(
            requestable(&e[0], &origin()),
            Ok("/mcp/server-card".to_string())
        );
        assert!(card_entries(&json!({"servers":[]})).is_err());
    }

    #[test]
    fn entries_elsewhere_are_not_requested_and_shape_is_checked() {
        let doc =
            json!({"entries":[{"type":CARD_MEDIA_TYPE,"url":"http://example.com/card.json"}]});
        let e = card_entries(&doc).expect("catalog");
        let why = requestable(&e[0], &origin()).expect_err("other origin");
        let row = entry_row(
            &e[0],
            Some(why.to_string()),
            None,
            &["http://127.0.0.1:7/mcp".to_string()],
        );
        assert!(!row.requested);
        assert!(row.note.contains("another origin"), "{}", row.note);
        assert!(row
            .note
            .contains("expected http://127.0.0.1:7/mcp/server-card"));
    }
}
