//! The 2025-11-25 results of a server target's SARIF run (`sarif.rs`): one result per broken
//! `L-*` rule (its first step as the witness), under that rule's descriptor, which names the
//! 2025-11-25 spec, beside the target's 2026-07-28 results in the same run.

use super::json::TargetReport;
use super::legacy_view::{self, LegacyRule};
use super::sarif::{fingerprint, location, rule_index, Subject, FINGERPRINT_KEY};
use super::sarif_rules::{descriptor, sarif_level, RuleFacts};
use crate::runner::revision::LEGACY_VERSION;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Add `t`'s 2025-11-25 results to its run (`rules` and `index`: the run's descriptors).
pub(super) fn results(
    t: &TargetReport,
    rules: &mut Vec<Value>,
    index: &mut BTreeMap<String, usize>,
    results: &mut Vec<Value>,
    locate: &dyn Fn(Subject) -> String,
) {
    for f in legacy_view::legacy_rules(t) {
        let i = rule_index(rules, index, f.rule, || {
            descriptor(&RuleFacts {
                id: f.rule,
                level: f.level,
                spec: f.spec,
                sentence: f.sentence,
                // the 2025-11-25 Origin check guards against DNS rebinding as the modern one
                security: f.rule.starts_with("L-SHTTP-ORIGIN"),
                party: "server",
                revision: LEGACY_VERSION,
            })
        });
        results.push(legacy_result(
            t,
            &f,
            i,
            &locate(Subject::Legacy(t, f.first)),
        ));
    }
}

/// The result of one broken 2025-11-25 rule (its first step is the witness).
fn legacy_result(t: &TargetReport, f: &LegacyRule, rule_index: usize, uri: &str) -> Value {
    let w = f.first;
    let mut r = json!({
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "kind": "fail",
        "level": sarif_level(f.level),
        "message": {
            "text": format!(
                "{} {} (2025-11-25) on {}: expected {}; observed {}.",
                f.level, f.rule, t.name, w.expected, w.observed
            )
        },
        "locations": location(uri),
        "partialFingerprints": { FINGERPRINT_KEY: fingerprint(Subject::Legacy(t, w)) },
        "occurrenceCount": f.count.max(1),
        "properties": {
            "target": t.name,
            "url": t.url,
            "specRevision": LEGACY_VERSION,
            "expected": w.expected,
            "observed": w.observed,
            "sequence": w.sequence,
            "step": w.step,
            "steps": f.steps(),
            "request": w.request,
            "cases": f.count,
            "baselined": f.baselined(),
        }
    });
    if f.baselined() {
        r["suppressions"] = json!([{
            "kind": "external",
            "status": "accepted",
            "justification": "known finding in the mcpdiff baseline (--baseline)"
        }]);
    }
    r
}
