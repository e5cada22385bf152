//! Generated 2025-11-25 sequences (`legacy_gen`) against the pure legacy reference and its
//! mutants: the reference breaks no `L-*` rule on any of them (the judge and the reference
//! agree wherever the generator walks), and every mutant has a sequence that isolates it
//! (findings on its own rule and no other) among the first ones generated.

use mcpdiff_oracle::legacy::{case_for, judge_step, LegacyProfile, LegacyStep, StepOutcome, Track};
use mcpdiff_oracle::reference::legacy::{
    respond, respond_legacy_mutant, LegacyState, LEGACY_MUTANTS, LEGACY_VERSIONS,
};
use mcpdiff_oracle::reference::{to_observation, Response};
use mcpdiff_oracle::{fixture, Case, Surface};
use mcpdiff_props::legacy_gen::legacy_sequence;
use std::collections::BTreeSet;

const SEED: u64 = 1;
const SEQUENCES: u64 = 2000;

fn versions() -> Vec<String> {
    LEGACY_VERSIONS.iter().map(|v| v.to_string()).collect()
}

/// The rules one sequence finds broken on `server`, and the findings in words.
fn findings(
    steps: &[LegacyStep],
    surface: &Surface,
    server: &mut dyn FnMut(LegacyState, &Case) -> (Response, LegacyState),
) -> (BTreeSet<String>, Vec<String>) {
    let profile = LegacyProfile {
        supported: versions(),
    };
    let mut state = LegacyState::new("gen");
    let mut track = Track::start();
    let mut rules = BTreeSet::new();
    let mut words = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let case = case_for(step, &track, surface, i);
        let (answer, next_state) = server(state, &case);
        state = next_state;
        let (outcome, next) = judge_step(step, &track, &to_observation(&answer), &profile);
        track = next;
        match outcome {
            StepOutcome::Judged(fs) => {
                for f in fs {
                    words.push(format!(
                        "step {i} {step:?}: {} expected {}, got {}",
                        f.rule, f.expected, f.observed
                    ));
                    rules.insert(f.rule);
                }
            }
            StepOutcome::NotDetermined(why) => {
                words.push(format!("step {i}: not determined: {why}"))
            }
        }
    }
    (rules, words)
}

#[test]
fn the_legacy_reference_is_clean_on_generated_sequences() {
    let s = fixture::surface();
    for i in 0..SEQUENCES {
        let steps = legacy_sequence(SEED, i, &versions());
        let (_, words) = findings(&steps, &s, &mut |st, c| respond(st, c, &s));
        assert!(words.is_empty(), "sequence {i}: {steps:#?}\n{words:#?}");
    }
}

#[test]
fn every_legacy_mutant_is_isolated_by_a_generated_sequence() {
    let s = fixture::surface();
    let mut missing = Vec::new();
    for m in LEGACY_MUTANTS {
        let isolated = (0..SEQUENCES).find(|i| {
            let steps = legacy_sequence(SEED, *i, &versions());
            let (rules, _) = findings(&steps, &s, &mut |st, c| respond_legacy_mutant(m, st, c, &s));
            rules == BTreeSet::from([m.rule.0.to_string()])
        });
        if isolated.is_none() {
            missing.push(format!("{} ({})", m.name, m.rule));
        }
    }
    assert!(
        missing.is_empty(),
        "not isolated in {SEQUENCES} sequences: {missing:?}"
    );
}
