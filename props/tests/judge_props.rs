//! Properties of the oracle's `judge` on generated cases against the fixture surface: it
//! never panics, is deterministic, and every `Demand::OneOf` allows at least one answer.

use mcpdiff_oracle::judge;
use mcpdiff_props::fixture_surface;
use mcpdiff_props::strategies::case::{mixed_case, valid_case};
use proptest::prelude::*;

proptest! {
    #[test]
    fn judge_is_total_deterministic_and_allows_something(case in mixed_case()) {
        let surface = fixture_surface();
        let first = judge(&case, &surface);
        let second = judge(&case, &surface);
        prop_assert_eq!(&first, &second);
        for (rule, answers) in first.answer_sets() {
            prop_assert!(!answers.is_empty(), "empty OneOf for {:?}", rule);
        }
    }

    /// Conformant requests (a narrower, denser distribution) are judged deterministically.
    #[test]
    fn judge_on_valid_cases(case in valid_case()) {
        let surface = fixture_surface();
        prop_assert_eq!(judge(&case, &surface), judge(&case, &surface));
    }
}
