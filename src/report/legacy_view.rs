//! What every renderer shows of a target's 2025-11-25 section: its legacy findings grouped by
//! rule (a rule broken at several steps is one entry, with the first step as its witness),
//! each with its rule's sentence and spec page from the 2025-11-25 table, and the headline
//! words of each revision's entry (`revisions::RevisionReport`).

use super::json::TargetReport;
use super::revisions::{RevisionReport, RevisionStatus};
use crate::runner::legacy::{LegacyFinding, RevisionOutcome};
use mcpdiff_oracle::rules::{self, Revision};

/// One broken 2025-11-25 rule on one target.
#[derive(Clone, Debug)]
pub struct LegacyRule<'a> {
    pub rule: &'a str,
    pub level: &'a str,
    /// `page#section` in the 2025-11-25 spec (empty for an id this build does not know).
    pub spec: &'static str,
    /// The sentence, verbatim (empty for an id this build does not know).
    pub sentence: &'static str,
    /// Steps that broke it.
    pub count: usize,
    /// The first of them: its sequence, step, request and the steps leading to it.
    pub first: &'a LegacyFinding,
}

impl LegacyRule<'_> {
    /// A MUST / MUST NOT rule (fails the run unless [`baselined`](Self::baselined)).
    pub fn blocking(&self) -> bool {
        self.level == "MUST" || self.level == "MUST NOT"
    }

    /// A `--baseline` entry names this (target, rule): it fails no run nor gate.
    pub fn baselined(&self) -> bool {
        self.first.baselined
    }

    /// `blocking` / `advisory` / `optional` / `observation`, as the modern findings say it.
    pub fn severity(&self) -> &'static str {
        match self.level {
            "MUST" | "MUST NOT" => "blocking",
            "SHOULD" | "SHOULD NOT" => "advisory",
            "MAY" => "optional",
            _ => "observation",
        }
    }

    /// `sequence[step]`, where the rule first broke.
    pub fn at(&self) -> String {
        format!("{}[{}]", self.first.sequence, self.first.step)
    }

    /// The steps to replay, one short label each (`request ping (session missing)`).
    pub fn steps(&self) -> String {
        self.first
            .steps
            .iter()
            .map(step_label)
            .collect::<Vec<_>>()
            .join(" → ")
    }
}

/// A step in words, from its serialized form (the tag, then each field that is not the
/// default one), so a step kind added to the sequences reads without a change here.
fn step_label(step: &mcpdiff_oracle::legacy::LegacyStep) -> String {
    let Ok(serde_json::Value::Object(map)) = serde_json::to_value(step) else {
        return format!("{step:?}");
    };
    let mut head = String::new();
    let mut extra = Vec::new();
    for (k, v) in &map {
        let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
        match (k.as_str(), v.as_str()) {
            ("step", _) => head = v.replace('_', " "),
            // the defaults: the session and version `initialize` gave
            ("session", "current") | ("version", "negotiated") => {}
            ("method", _) => extra.insert(0, v),
            _ => extra.push(format!("{k} {v}")),
        }
    }
    match extra.split_first() {
        None => head,
        Some((first, [])) => format!("{head} {first}"),
        Some((first, rest)) => format!("{head} {first} ({})", rest.join(", ")),
    }
}

/// The 2025-11-25 outcome the revision probe recorded on `t`, if any.
pub fn outcome(t: &TargetReport) -> Option<&RevisionOutcome> {
    t.revision
        .as_ref()?
        .revisions
        .iter()
        .find(|o| o.revision == Revision::V2025_11_25)
}

/// The broken 2025-11-25 rules of `t`, MUST ones first, then by rule id.
pub fn legacy_rules(t: &TargetReport) -> Vec<LegacyRule<'_>> {
    let Some(o) = outcome(t) else {
        return Vec::new();
    };
    let mut out: Vec<LegacyRule<'_>> = Vec::new();
    for f in &o.findings {
        if let Some(r) = out.iter_mut().find(|r| r.rule == f.rule) {
            r.count += 1;
            continue;
        }
        let row = rules::all_rules().find(|r| r.id.0 == f.rule);
        out.push(LegacyRule {
            rule: &f.rule,
            level: &f.level,
            spec: row.map_or("", |r| r.spec),
            sentence: row.map_or("", |r| r.sentence),
            count: 1,
            first: f,
        });
    }
    out.sort_by(|a, b| b.blocking().cmp(&a.blocking()).then(a.rule.cmp(b.rule)));
    out
}

/// `2026-07-28: graded, score 1.00` / `2025-11-25: not offered (why)`.
pub fn headline(r: &RevisionReport) -> String {
    match (r.status, r.score) {
        (RevisionStatus::Graded, Some(s)) => format!("{}: graded, score {s:.2}", r.revision),
        (status, _) => format!(
            "{}: {}{}",
            r.revision,
            status.words(),
            r.reason
                .as_ref()
                .map(|w| format!(" ({w})"))
                .unwrap_or_default()
        ),
    }
}

/// The short form for table cells: `1.00`, `not offered`, `not determined`.
pub fn cell(r: &RevisionReport) -> String {
    match (r.status, r.score) {
        (RevisionStatus::Graded, Some(s)) => format!("{s:.2}"),
        (status, _) => status.words().to_string(),
    }
}

/// The revision probe's sentences about `revision`: the legacy handshake and session ones
/// (and the 2025-11-25 sequences' summary) for 2025-11-25, the modern requests' for
/// 2026-07-28. The probe writes each sentence about one request, opening with what it sent.
pub fn evidence_for(t: &TargetReport, revision: Revision) -> Vec<&str> {
    let Some(ev) = &t.revision else {
        return Vec::new();
    };
    ev.evidence
        .iter()
        .map(String::as_str)
        .filter(|e| {
            let legacy = e.starts_with("legacy")
                || e.starts_with("`initialize`")
                || e.starts_with(Revision::V2025_11_25.as_str())
                || e.starts_with("names legacy");
            legacy == (revision == Revision::V2025_11_25)
        })
        .collect()
}

/// The 2025-11-25 counts of `t`: MUST rules broken, SHOULD rules broken, rules checked,
/// rules checked that no step broke.
pub fn counts(t: &TargetReport) -> (usize, usize, usize, usize) {
    let found = legacy_rules(t);
    let must = found.iter().filter(|f| f.blocking()).count();
    let should = found.iter().filter(|f| f.severity() == "advisory").count();
    let checked = outcome(t).map_or(0, |o| o.rules_checked.len());
    let passed = outcome(t).map_or(0, |o| {
        o.rules_checked
            .iter()
            .filter(|r| !found.iter().any(|f| f.rule == r.as_str()))
            .count()
    });
    (must, should, checked, passed)
}

#[cfg(test)]
mod tests {
    use super::step_label;
    use mcpdiff_oracle::legacy::{LegacyStep, SessionUse, VersionHeader};

    #[test]
    fn steps_read_as_words() {
        let init = LegacyStep::Initialize {
            version: "2025-11-25".into(),
        };
        assert_eq!(step_label(&init), "initialize version 2025-11-25");
        assert_eq!(step_label(&LegacyStep::Initialized), "initialized");
        let ping = LegacyStep::Request {
            method: "ping".into(),
            session: SessionUse::Missing,
            version: VersionHeader::Negotiated,
        };
        assert_eq!(step_label(&ping), "request ping (session missing)");
        let get = LegacyStep::Get {
            session: SessionUse::Current,
        };
        assert_eq!(step_label(&get), "get");
    }
}
