//! The legacy (2025-11-25) sequence judge against the pure legacy reference and its mutants,
//! in process: the reference breaks no `L-*` rule on any sequence, every mutant is caught on
//! its own rule and on no other, every checked rule has a mutant, and the null server is
//! caught. Every finding names a 2025-11-25 rule.

use mcpdiff_oracle::check::Finding;
use mcpdiff_oracle::legacy::{
    case_for, judge_step, sequences, LegacyProfile, Sequence, StepOutcome, Track,
};
use mcpdiff_oracle::reference::legacy::{
    respond, respond_legacy_mutant, LegacyMutant, LegacyState, LEGACY_MUTANTS, LEGACY_VERSIONS,
};
use mcpdiff_oracle::reference::{null_response, to_observation, Response};
use mcpdiff_oracle::rules::legacy::LEGACY_CHECKED_IDS;
use mcpdiff_oracle::rules::{revision_of, Revision, RuleId};
use mcpdiff_oracle::{fixture, Case, Surface};
use std::collections::BTreeSet;

type Server<'a> = dyn FnMut(LegacyState, &Case) -> (Response, LegacyState) + 'a;

fn profile() -> LegacyProfile {
    LegacyProfile {
        supported: LEGACY_VERSIONS.iter().map(|v| v.to_string()).collect(),
    }
}

fn all_sequences() -> Vec<Sequence> {
    sequences(LEGACY_VERSIONS[0], Some(LEGACY_VERSIONS[1]))
}

/// Every sequence against one server (a fresh session table per sequence): the findings.
fn run(server: &mut Server<'_>, surface: &Surface) -> Vec<(String, usize, Finding)> {
    let mut out = Vec::new();
    for seq in all_sequences() {
        let mut state = LegacyState::new("test-nonce");
        let mut track = Track::start();
        for (i, step) in seq.steps.iter().enumerate() {
            let case = case_for(step, &track, surface, i);
            let (answer, next_state) = server(state, &case);
            state = next_state;
            let (outcome, next) = judge_step(step, &track, &to_observation(&answer), &profile());
            track = next;
            match outcome {
                StepOutcome::Judged(fs) => {
                    out.extend(fs.into_iter().map(|f| (seq.name.to_string(), i, f)))
                }
                StepOutcome::NotDetermined(why) => {
                    panic!("{}[{i}] not determined: {why}", seq.name)
                }
            }
        }
    }
    out
}

fn rules_of(findings: &[(String, usize, Finding)]) -> BTreeSet<String> {
    findings.iter().map(|(_, _, f)| f.rule.clone()).collect()
}

#[test]
fn the_legacy_reference_breaks_no_legacy_rule() {
    let s = fixture::surface();
    let found = run(&mut |st, c| respond(st, c, &s), &s);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn every_legacy_mutant_is_caught_on_its_rule_alone() {
    let s = fixture::surface();
    let mut failures = Vec::new();
    for m in LEGACY_MUTANTS {
        let m: &LegacyMutant = m;
        let found = run(&mut |st, c| respond_legacy_mutant(m, st, c, &s), &s);
        let rules = rules_of(&found);
        if rules != BTreeSet::from([m.rule.0.to_string()]) {
            failures.push(format!(
                "{} (breaks {}): findings on {rules:?}",
                m.name, m.rule
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_checked_rule_has_a_mutant_and_is_2025_11_25() {
    for id in LEGACY_CHECKED_IDS {
        assert!(
            LEGACY_MUTANTS.iter().any(|m| m.rule == *id),
            "{id}: no legacy mutant breaks it"
        );
        assert_eq!(revision_of(*id), Some(Revision::V2025_11_25), "{id}");
    }
    for m in LEGACY_MUTANTS {
        assert!(
            LEGACY_CHECKED_IDS.contains(&m.rule),
            "{}: rule not checked",
            m.name
        );
    }
}

#[test]
fn the_null_server_is_caught_and_only_on_legacy_rules() {
    let s = fixture::surface();
    let found = run(&mut |st, c| (null_response(c), st), &s);
    let rules = rules_of(&found);
    // `200 {}` to initialize is no result: no session opens, so only the handshake's own
    // rule can be judged, and it fails
    assert!(rules.contains("L-LIFE-VERSION-SAME"), "{rules:?}");
    for r in &rules {
        let id = LEGACY_CHECKED_IDS
            .iter()
            .find(|i| i.0 == r)
            .copied()
            .unwrap_or(RuleId("?"));
        assert_eq!(revision_of(id), Some(Revision::V2025_11_25), "{r}");
    }
}
