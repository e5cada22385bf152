//! Replaying a client entry, purely: re-judge each stored client recording (kept names and
//! requests, against the stored tools labelled by today's oracle) with today's client judge
//! and say, per client and rule, what changed (drift). No driver runs; client entries are
//! never sent to server targets.

use super::client::ClientEntry;
use super::error::CorpusError;
use crate::clients::evidence::judge_recording;
use serde_json::Value;
use std::collections::BTreeMap;

/// One client record of an entry, re-judged.
pub struct RejudgedRecord {
    /// The record's target name.
    pub target: String,
    /// Today's findings, serialized as stored.
    pub now: Vec<Value>,
    /// How the stored findings differ from today's, one line per rule (empty: no drift).
    pub drift: Vec<String>,
}

/// Re-judge every record of `entry`. Err when a stored request does not decode.
pub fn rejudge_client(entry: &ClientEntry) -> Result<Vec<RejudgedRecord>, CorpusError> {
    let set = entry.tool_set();
    let mut out = Vec::new();
    for (i, r) in entry.clients.iter().enumerate() {
        let requests = r.recording(&format!("clients[{i}]"))?;
        let now: Vec<Value> = judge_recording(&set, r.kept.as_deref(), &requests)
            .iter()
            .filter_map(|f| serde_json::to_value(f).ok())
            .collect();
        let drift = diff(&r.findings, &now)
            .into_iter()
            .map(|d| format!("{}: {d}", r.target))
            .collect();
        out.push(RejudgedRecord {
            target: r.target.clone(),
            now,
            drift,
        });
    }
    Ok(out)
}

/// Rule id -> its findings without the `detail` sentence (wording is not the oracle's
/// reading; the rule, tool, header, sent value and allowed answers are).
fn by_rule(findings: &[Value]) -> BTreeMap<String, Vec<Value>> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for f in findings {
        let rule = f.get("rule").and_then(Value::as_str).unwrap_or("?");
        let mut f = f.clone();
        if let Some(o) = f.as_object_mut() {
            o.remove("detail");
        }
        out.entry(rule.to_string()).or_default().push(f);
    }
    out
}

/// What changed between the stored and today's findings, in words, one line per rule.
pub fn diff(stored: &[Value], now: &[Value]) -> Vec<String> {
    let (old, new) = (by_rule(stored), by_rule(now));
    let mut out = Vec::new();
    for (rule, found) in &old {
        match new.get(rule) {
            None => out.push(format!("{rule}: no longer found")),
            Some(f) if f != found => out.push(format!(
                "{rule}: findings changed from {} to {}",
                compact(found),
                compact(f)
            )),
            Some(_) => {}
        }
    }
    for (rule, found) in &new {
        if !old.contains_key(rule) {
            out.push(format!("{rule}: newly found: {}", compact(found)));
        }
    }
    out
}

fn compact(v: &[Value]) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.chars().count() > 160 {
        format!("{}…", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn detail_wording_is_not_drift_but_a_changed_value_is() {
        let f = json!({"rule": "CLIENT-HDR-NAME", "detail": "a", "allowed": ["x"]});
        let reworded = json!({"rule": "CLIENT-HDR-NAME", "detail": "b", "allowed": ["x"]});
        assert!(diff(std::slice::from_ref(&f), &[reworded]).is_empty());
        let changed = json!({"rule": "CLIENT-HDR-NAME", "detail": "a", "allowed": ["y"]});
        assert_eq!(diff(std::slice::from_ref(&f), &[changed]).len(), 1);
        assert_eq!(
            diff(std::slice::from_ref(&f), &[]),
            vec!["CLIENT-HDR-NAME: no longer found".to_string()]
        );
        assert!(diff(&[], &[f])[0].starts_with("CLIENT-HDR-NAME: newly found"));
    }
}
