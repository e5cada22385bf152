//! Every judged rule is isolated by at least one probe and by some generated cases: a
//! rule no case isolates can be broken by a server that another check saves.

use mcpdiff_oracle::fixture;
use mcpdiff_props::coverage::{coverage, COVERAGE_CASES, COVERAGE_SEED};

#[test]
fn every_judged_rule_is_isolated_by_probes_and_generated_cases() {
    // the fixture listed in pages (`serve --page-size`): PAGE-STABLE and CACHE-SCOPE-PAGES
    // need a second page to open (as `mcpdiff rules --coverage` measures)
    let c = coverage(&fixture::paged_surface(), COVERAGE_SEED, COVERAGE_CASES);
    let missing: Vec<String> = c
        .rules
        .iter()
        .filter(|r| r.probes == 0 || r.generated == 0)
        .map(|r| {
            format!(
                "{} (probes {}, generated {})",
                r.rule, r.probes, r.generated
            )
        })
        .collect();
    assert!(
        missing.is_empty(),
        "judged rules without isolating cases:\n{}",
        missing.join("\n")
    );
}
