//! Combining what the per-part checks found into a Verdict: the union of the answers every
//! reportable MUST defect mandates (P-NONE), SHOULD answers giving way to MUST ones
//! (P-MUST-SHOULD), the success set filed under benign inputs (P-BENIGN), and the legacy
//! path of dual-era targets.

use super::{Defect, Findings};
use crate::rules::{self, level_of, RuleId, Severity};
use crate::verdict::{Answer, Canonical, Demand, Expectation, Lint, Verdict};

/// Combine defects, tolerated answers and the success set into expectations.
pub(crate) fn assemble(
    f: Findings,
    success: Vec<Answer>,
    success_rule: Option<RuleId>,
    dispatch: Canonical,
    lints: Vec<(RuleId, Lint)>,
) -> Verdict {
    let mut expectations: Vec<Expectation> = lints
        .into_iter()
        .map(|(rule, l)| Expectation {
            rule,
            demand: Demand::Lint(l),
        })
        .collect();
    if f.anything_goes {
        // the legacy path of a dual-era server: only what every era of JSON-RPC over HTTP
        // shares still binds it (results and errors echo the id, errors are well-formed,
        // 2xx answers are JSON or SSE), and the sentences with no era scope ("new
        // implementations SHOULD NOT use codes from this sub-range at all"); resultType,
        // serverInfo, the codes "defined by this specification" and those "Implementations
        // of this protocol version MUST NOT emit", and the session rules are modern-only
        // (DEVIATIONS.md D-26, D-33)
        expectations.retain(|e| {
            [
                rules::RESULT_ID,
                rules::ERROR_ID,
                rules::ERROR_SHAPE,
                rules::REQ_CT,
                rules::ERRCODE_LEGACY,
            ]
            .contains(&e.rule)
        });
        return Verdict {
            expectations,
            canonical: dispatch,
        };
    }
    let blocking = |d: &&Defect| level_of(d.reject).severity() == Severity::Blocking;
    let must: Vec<&Defect> = f.defects.iter().filter(blocking).collect();
    let should: Vec<&Defect> = f.defects.iter().filter(|d| !blocking(d)).collect();

    let mut push =
        |rule: RuleId, answers: Vec<Answer>| match expectations.iter_mut().find(|e| e.rule == rule)
        {
            Some(Expectation {
                demand: Demand::OneOf(existing),
                ..
            }) => {
                for a in answers {
                    if !existing.contains(&a) {
                        existing.push(a)
                    }
                }
            }
            _ => expectations.push(Expectation {
                rule,
                demand: Demand::OneOf(answers),
            }),
        };

    let canonical;
    if !must.is_empty() {
        // P-NONE: the union of what each reportable MUST defect mandates (+ open points)
        let mut union: Vec<Answer> = Vec::new();
        for a in must
            .iter()
            .flat_map(|d| d.answers.iter())
            .chain(&f.tolerated)
        {
            if !union.contains(a) && !matches!(a, Answer::RpcResult | Answer::OpenStream) {
                union.push(a.clone());
            }
        }
        let mut shape_set = union.clone();
        shape_set.push(Answer::NotAnError);
        for d in &must {
            if d.reject == d.shape {
                // one sentence says both "refuse" and how: the union alone
                push(d.reject, union.clone());
            } else {
                push(d.reject, vec![Answer::AnyError]);
                push(d.shape, shape_set.clone());
            }
        }
        canonical = must
            .iter()
            .min_by_key(|d| d.priority)
            .map(|d| d.canonical.clone())
            .unwrap_or(dispatch);
    } else if !should.is_empty() {
        // only SHOULD-level refusals: their answers, or (a SHOULD deviation) success
        let mut set: Vec<Answer> = should.iter().flat_map(|d| d.answers.clone()).collect();
        set.extend(f.tolerated.iter().cloned());
        for d in &should {
            push(d.reject, set.clone());
        }
        canonical = should
            .iter()
            .min_by_key(|d| d.priority)
            .map(|d| d.canonical.clone())
            .unwrap_or(dispatch);
    } else {
        let success_only = success.clone();
        let mut set = success;
        for a in &f.tolerated {
            if !set.contains(a) {
                set.push(a.clone());
            }
        }
        // P-BENIGN: a benign input is the stimulus; it carries the expectation, so a server
        // that trips over it is blamed for that, not for the method it called
        if !set.is_empty() {
            if f.benign.is_empty() {
                if let Some(rule) = success_rule {
                    push(rule, set);
                }
            } else {
                for r in &f.benign {
                    // the SHOULD on numeric comparison must see a string-comparing refusal
                    let own = if *r == rules::INT_NUMERIC {
                        success_only.clone()
                    } else {
                        set.clone()
                    };
                    push(*r, own);
                }
            }
        }
        canonical = dispatch;
    }
    Verdict {
        expectations,
        canonical,
    }
}
