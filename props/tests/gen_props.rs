//! The runner's generator: deterministic per (seed, index), judged without panics, and
//! mostly one defect away from valid.

use mcpdiff_oracle::{fixture, judge, Canonical};
use mcpdiff_props::gen::{case_for, case_strategy};

#[test]
fn same_seed_same_cases() {
    let s = fixture::surface();
    let strat = case_strategy(&s);
    for i in 0..200 {
        assert_eq!(case_for(&strat, 7, i), case_for(&strat, 7, i));
    }
    let differ = (0..50)
        .filter(|&i| case_for(&strat, 7, i) != case_for(&strat, 8, i))
        .count();
    assert!(
        differ > 40,
        "seeds should change the cases ({differ}/50 differ)"
    );
}

#[test]
fn cases_mix_valid_and_defective() {
    let s = fixture::surface();
    let strat = case_strategy(&s);
    let mut dispatch = 0;
    let mut rejected = 0;
    let mut labels = std::collections::BTreeSet::new();
    for i in 0..2000 {
        let c = case_for(&strat, 1, i);
        labels.extend(c.labels.iter().cloned());
        match judge(&c, &s).canonical {
            Canonical::Dispatch => dispatch += 1,
            _ => rejected += 1,
        }
    }
    assert!(dispatch > 200, "valid cases: {dispatch}");
    assert!(rejected > 800, "defective cases: {rejected}");
    assert!(labels.len() > 30, "mutation variety: {labels:?}");
}
