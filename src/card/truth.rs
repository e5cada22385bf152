//! Does the card tell the truth about its endpoint? (pure)
//!
//! Beyond the scanner: for a streamable-http remote mcpdiff can reach, the card's
//! `supportedProtocolVersions` is compared, as a set, with the endpoint's own word: the
//! `supportedVersions` of `server/discover` and the `supported` list of the
//! `UnsupportedProtocolVersionError` (-32022) it gives an unknown version. The server-card
//! extension says the card SHOULD NOT contradict those runtime values, and a client prefers
//! the runtime ones, so the fix always proposes the runtime list.

use mcpdiff_oracle::case::MODERN_VERSION;
use mcpdiff_oracle::Observation;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

/// `UnsupportedProtocolVersionError`.
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// The comparison for one endpoint (`--json`: `truth[]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TruthReport {
    pub url: String,
    pub card_versions: Vec<String>,
    /// `server/discover` → `supportedVersions` (`null`: no result).
    pub discover_versions: Option<Vec<String>>,
    /// -32022 `data.supported` for an unknown version (`null`: no such error).
    pub error_versions: Option<Vec<String>>,
    pub consistent: bool,
    pub line: String,
}

fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    let list = v?.as_array()?;
    Some(
        list.iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect(),
    )
}

/// `supportedVersions` of a `server/discover` result, or a summary of what came instead.
pub fn discover_versions(obs: &Observation) -> Result<Vec<String>, String> {
    let rpc = obs.http().and_then(|a| a.rpc_response());
    strings(
        rpc.and_then(|r| r.get("result"))
            .and_then(|r| r.get("supportedVersions")),
    )
    .ok_or_else(|| obs.summary())
}

/// `data.supported` of a -32022 error, or a summary of what came instead.
pub fn error_versions(obs: &Observation) -> Result<Vec<String>, String> {
    let err = obs
        .http()
        .and_then(|a| a.rpc_response())
        .and_then(|r| r.get("error"))
        .filter(|e| e.get("code").and_then(Value::as_i64) == Some(UNSUPPORTED_VERSION));
    strings(
        err.and_then(|e| e.get("data"))
            .and_then(|d| d.get("supported")),
    )
    .ok_or_else(|| obs.summary())
}

fn set(v: &[String]) -> BTreeSet<&str> {
    v.iter().map(String::as_str).collect()
}

fn show(v: &[String]) -> String {
    format!("[{}]", v.join(", "))
}

/// Compare the card's list for `url` with the endpoint's answers.
pub fn compare(
    url: &str,
    card: &[String],
    discover: Result<Vec<String>, String>,
    error: Result<Vec<String>, String>,
) -> TruthReport {
    let mut wrong = Vec::new();
    let mut notes = Vec::new();
    match &discover {
        Ok(d) if set(d) != set(card) => {
            wrong.push(format!("server/discover says {}", show(d)));
        }
        Ok(_) => {}
        // The card promises the modern revision, whose endpoints MUST answer server/discover.
        Err(got) if card.iter().any(|v| v == MODERN_VERSION) => wrong.push(format!(
            "server/discover ({MODERN_VERSION}) got no result ({got})"
        )),
        Err(got) => notes.push(format!("server/discover got no result ({got})")),
    }
    match &error {
        Ok(e) if set(e) != set(card) => {
            wrong.push(format!("UnsupportedProtocolVersionError lists {}", show(e)));
        }
        Ok(_) => {}
        Err(got) => notes.push(format!("no -32022 for an unknown version ({got})")),
    }
    let runtime = discover
        .as_ref()
        .ok()
        .or(error.as_ref().ok())
        .filter(|v| !v.is_empty());
    let line = if wrong.is_empty() {
        let extra = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join("; "))
        };
        format!(
            "{url}: the card's supportedProtocolVersions {} match the endpoint{extra}",
            show(card)
        )
    } else {
        let fix = match runtime {
            Some(r) => format!(" — ship \"supportedProtocolVersions\": {:?}", r),
            None => String::new(),
        };
        format!(
            "{url}: MISMATCH: the card lists {} but {}{fix}",
            show(card),
            wrong.join(" and ")
        )
    };
    TruthReport {
        url: url.to_string(),
        card_versions: card.to_vec(),
        discover_versions: discover.ok(),
        error_versions: error.ok(),
        consistent: wrong.is_empty(),
        line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::{Body, HttpAnswer};
    use serde_json::json;

    fn answer(v: Value) -> Observation {
        Observation::Http(HttpAnswer::new(
            200,
            Some("application/json"),
            Body::Json { value: v },
        ))
    }

    fn v(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_discover_and_error_lists() {
        let d =
            answer(json!({"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"]}}));
        assert_eq!(discover_versions(&d), Ok(v(&["2026-07-28"])));
        let e = answer(
            json!({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"x",
            "data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}),
        );
        assert_eq!(error_versions(&e), Ok(v(&["2026-07-28"])));
        assert!(error_versions(&d).is_err());
        assert!(discover_versions(&e).is_err());
    }

    #[test]
    fn agreeing_lists_are_consistent_in_any_order() {
        let card = v(&["2026-07-28", "2025-11-25"]);
        let t = compare(
            "u",
            &card,
            Ok(v(&["2025-11-25", "2026-07-28"])),
            Ok(card.clone()),
        );
        assert!(t.consistent, "{}", t.line);
    }

    #[test]
    fn a_different_list_is_a_mismatch_with_the_runtime_fix() {
        let t = compare(
            "u",
            &v(&["2025-06-18"]),
            Ok(v(&["2026-07-28"])),
            Err("400".into()),
        );
        assert!(!t.consistent);
        assert!(
            t.line.contains("server/discover says [2026-07-28]"),
            "{}",
            t.line
        );
        assert!(t
            .line
            .contains("ship \"supportedProtocolVersions\": [\"2026-07-28\"]"));
        let t = compare(
            "u",
            &v(&["2026-07-28"]),
            Ok(v(&["2026-07-28"])),
            Ok(v(&["x"])),
        );
        assert!(!t.consistent);
    }

    #[test]
    fn a_modern_card_needs_server_discover() {
        let t = compare(
            "u",
            &v(&["2026-07-28"]),
            Err("404".into()),
            Err("404".into()),
        );
        assert!(!t.consistent);
        let t = compare(
            "u",
            &v(&["2025-06-18"]),
            Err("404".into()),
            Err("404".into()),
        );
        assert!(t.consistent, "{}", t.line);
    }
}
