//! Combining what the per-part checks found into a Verdict: the union of the answers every
//! reportable MUST defect mandates (P-NONE), SHOULD answers giving way to MUST ones
//! (P-MUST-SHOULD), the success set filed under benign inputs (P-BENIGN), and the legacy
//! path of dual-era targets.

use super::findings::{Answers, Findings};
use super::view::Unusable;
use crate::message::Message;
use crate::rules::{self, RuleId};
use crate::verdict::{
    Answer, Canonical, Demand, Expectation, LintSet, Listed, NamedVersions, Verdict,
};

/// The canonical answer when no defect gives one, named by a byte (or the unusable body it
/// refuses) and built only when it is the one.
#[derive(Clone, Copy)]
pub(crate) enum Fallback<'u> {
    Dispatch,
    Accepted,
    MethodNotAllowed,
    /// The conventional JSON-RPC refusal of a body that is no request.
    Refuse(&'u Unusable),
}

impl Fallback<'_> {
    pub fn canonical(self) -> Canonical {
        match self {
            Fallback::Dispatch => Canonical::Dispatch,
            Fallback::Accepted => Canonical::Accepted,
            Fallback::MethodNotAllowed => Canonical::MethodNotAllowed,
            Fallback::Refuse(u) => Canonical::Reject {
                status: 400,
                code: Some(i64::from(u.code)),
                id: u.id.clone(),
                data: None,
                message: Message::Fixed(u.message),
            },
        }
    }
}

/// Combine defects, tolerated answers and the success set into expectations.
pub(crate) fn assemble(
    f: &mut Findings,
    success: &mut Answers,
    success_rule: Option<RuleId>,
    dispatch: Fallback<'_>,
    lints: LintSet,
    listed: &mut Listed,
) -> Verdict {
    // the lints come first (`lints`, then any in `listed`); the request-level expectations
    // follow in `listed`, where alone an answer set can be found again to grow
    // (borrowed, not moved in: the list is large, and is moved once, into the Verdict)
    let expectations = listed;
    // (the texts the -32022 answers name, whichever answers are kept)
    let versions = f.versions.take();
    if f.anything_goes {
        return legacy_path(lints, expectations, dispatch, versions);
    }
    let defects = &f.defects;
    let tolerated = &f.tolerated[..];
    let benign = &f.benign[..];
    let any_must = defects.iter().any(|d| d.blocking);

    let canonical;
    if any_must {
        // P-NONE: the union of what each reportable MUST defect mandates (+ open points)
        let mut union = Answers::new();
        // an empty `contents` is admitted only where it alone is the departure (D-124): with
        // another MUST defect, success of any kind is refused (P-NO-SUCCESS)
        let alone = defects.iter().filter(|d| d.blocking).count() == 1;
        for d in defects.iter().filter(|d| d.blocking) {
            union_of(&mut union, &d.answers, alone);
        }
        union_of(&mut union, tolerated, alone);
        // (the last blocking defect moves the union instead of copying it)
        let last = defects.iter().rposition(|d| d.blocking).unwrap_or_default();
        for (i, d) in defects.iter().enumerate() {
            if !d.blocking {
                continue;
            }
            if d.reject == d.shape {
                // one sentence says both "refuse" and how: the union alone
                file(expectations, d.reject, &mut union, i == last);
            } else {
                // (an empty `contents` the defect admits is RES-NO-EMPTY-CONTENTS's to judge)
                let refusal: &[Answer] = if alone && d.answers.contains(&Answer::EmptyContents) {
                    &[Answer::AnyError, Answer::EmptyContents]
                } else {
                    &[Answer::AnyError]
                };
                push(expectations, d.reject, refusal);
                if i == last {
                    union.push(Answer::NotAnError);
                    push_whole(expectations, d.shape, &mut union);
                } else {
                    push(expectations, d.shape, &union);
                    // (no union holds `NotAnError`: only this function adds it)
                    push(expectations, d.shape, &[Answer::NotAnError]);
                }
            }
        }
        // the defect that leads gives the canonical answer (`Findings::lead`: every defect is
        // recorded through `Findings::push` or `defect_lazy`, so there is one)
        debug_assert!(f.lead.is_some(), "defects without a lead");
        canonical = f.lead.take().unwrap_or_else(|| dispatch.canonical());
    } else if !defects.is_empty() {
        // only SHOULD-level refusals: their answers, or (a SHOULD deviation) success
        let mut set = Answers::new();
        for d in defects.iter() {
            extend(&mut set, &d.answers);
        }
        // (a SHOULD refusal's -32602 is tolerated beside MUST defects too: once here)
        merge(&mut set, tolerated);
        let last = defects.len() - 1;
        for (i, d) in defects.iter().enumerate() {
            file(expectations, d.reject, &mut set, i == last);
        }
        // the defect that leads gives the canonical answer (`Findings::lead`: every defect is
        // recorded through `Findings::push` or `defect_lazy`, so there is one)
        debug_assert!(f.lead.is_some(), "defects without a lead");
        canonical = f.lead.take().unwrap_or_else(|| dispatch.canonical());
    } else {
        // `set` starts as the success set and only grows: its head is the success set alone
        let success_len = success.len();
        let set = success;
        merge(set, tolerated);
        // P-BENIGN: a benign input is the stimulus; it carries the expectation, so a server
        // that trips over it is blamed for that, not for the method it called
        if !set.is_empty() {
            if benign.is_empty() {
                if let Some(rule) = success_rule {
                    push_whole(expectations, rule, set);
                }
            } else {
                let last = benign.len() - 1;
                for (i, r) in benign.iter().enumerate() {
                    // the SHOULD on numeric comparison must see a string-comparing refusal
                    if *r == rules::INT_NUMERIC {
                        push(expectations, *r, &set[..success_len]);
                    } else if *r == rules::MRTR_IGNORE_EXTRA {
                        // a -32602 to a request whose one departure is the unrequested entry
                        // refuses those params: not «ignore» (D-193); one another departure
                        // admits (a call with no `name`) stays admitted
                        ignore_extra(expectations, *r, set, success_len, tolerated);
                    } else {
                        file(expectations, *r, set, i == last);
                    }
                }
            }
        }
        canonical = dispatch.canonical();
    }
    Verdict::from_parts(lints, std::mem::take(expectations), canonical, versions)
}

/// The legacy path of a dual-era server: only what every era of JSON-RPC over HTTP shares
/// still binds it (results and errors echo the id, errors are well-formed, 2xx answers are
/// JSON or SSE). The 2026-07-28 text hands such traffic to the older revision («implement
/// the behavior described in the corresponding revision»), so its own code rules (the
/// legacy sub-range, the codes "defined by this specification", those "Implementations of
/// this protocol version MUST NOT emit"), resultType, serverInfo and the session rules are
/// modern-only (DEVIATIONS.md D-26, D-33). (Out of line: rare, and kept out of the common
/// path's instruction cache lines.)
#[cold]
#[inline(never)]
fn legacy_path(
    mut lints: LintSet,
    expectations: &mut Listed,
    dispatch: Fallback<'_>,
    versions: Option<Box<NamedVersions>>,
) -> Verdict {
    let keep = [
        rules::RESULT_ID,
        rules::ERROR_ID,
        rules::ERROR_SHAPE,
        rules::REQ_CT,
    ];
    lints.retain_rules(&keep);
    expectations.retain(|e| keep.contains(&e.rule));
    Verdict::from_parts(
        lints,
        std::mem::take(expectations),
        dispatch.canonical(),
        versions,
    )
}

/// The answer set already listed under `rule`, if any.
fn listed(expectations: &mut [Expectation], rule: RuleId) -> Option<&mut Answers> {
    match expectations.iter_mut().find(|e| e.rule == rule) {
        Some(Expectation {
            demand: Demand::OneOf(existing),
            ..
        }) => Some(existing),
        _ => None,
    }
}

/// Add `answers` to a set, each once. (One copy of this loop serves every caller: the
/// judge's hot code is about twice the instruction cache, and every inlined copy of a loop
/// over answers costs lines in it; docs/PERFORMANCE.md.)
#[inline(never)]
fn merge(existing: &mut Answers, answers: &[Answer]) {
    for a in answers {
        if !existing.contains(a) {
            existing.push(*a)
        }
    }
}

/// Add `answers` to a set as they are.
#[inline(never)]
fn extend(set: &mut Answers, answers: &[Answer]) {
    // (one at a time: a set holds a few answers, and `extend_from_slice` copies them with a
    // call into `memcpy`)
    for a in answers {
        set.push(*a);
    }
}

/// The union's part from one defect's (or the tolerated) answers: each once, and no success
/// (an empty `contents` only when one defect is `alone`).
#[inline(never)]
fn union_of(union: &mut Answers, answers: &[Answer], alone: bool) {
    for a in answers {
        let success = match a {
            Answer::RpcResult | Answer::OpenStream => true,
            Answer::EmptyContents => !alone,
            _ => false,
        };
        if !success && !union.contains(a) {
            union.push(*a);
        }
    }
}

/// File `answers` under `rule`: grow the rule's answer set when one is listed (each answer
/// once), or list a new set, filled where it lies in the list (for a set still needed
/// afterwards: its answers are copied in, the set itself is never copied whole).
#[inline(never)]
fn push(expectations: &mut Listed, rule: RuleId, answers: &[Answer]) {
    if let Some(existing) = listed(expectations, rule) {
        return merge(existing, answers);
    }
    expectations.push(Expectation {
        rule,
        demand: Demand::OneOf(Answers::new()),
    });
    if let Some(Expectation {
        demand: Demand::OneOf(set),
        ..
    }) = expectations.last_mut()
    {
        extend(set, answers);
    }
}

/// MRTR-IGNORE-EXTRA's set: `set` without the -32602 answers of its success part (its first
/// `success_len`), but for those a departure of the request also admits (`tolerated`: merged
/// into `set` only where the success part lacked them, so a tolerated -32602 the success part
/// already held is found there, not after it).
#[cold]
#[inline(never)]
fn ignore_extra(
    expectations: &mut Listed,
    rule: RuleId,
    set: &Answers,
    success_len: usize,
    tolerated: &[Answer],
) {
    let kept: Answers = set
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            *i >= success_len
                || !matches!(a, Answer::RpcError { code: -32602, .. })
                || tolerated.contains(a)
        })
        .map(|(_, &a)| a)
        .collect();
    push(expectations, rule, &kept);
}

/// `push` of a set that is not needed afterwards (it is left empty): a new set is moved in
/// whole, cheaper than copying its answers one by one.
#[inline(never)]
fn push_whole(expectations: &mut Listed, rule: RuleId, answers: &mut Answers) {
    if let Some(existing) = listed(expectations, rule) {
        merge(existing, answers);
        answers.clear();
        return;
    }
    expectations.push(Expectation {
        rule,
        demand: Demand::OneOf(std::mem::take(answers)),
    })
}

/// File `set` under `rule`: moved at its last use, its answers copied before that.
fn file(expectations: &mut Listed, rule: RuleId, set: &mut Answers, last_use: bool) {
    if last_use {
        push_whole(expectations, rule, set);
    } else {
        push(expectations, rule, set);
    }
}
