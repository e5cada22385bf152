//! The client judge over generated tool sets (props::toolgen): the oracle's reference client
//! scores clean on every generated set (no false positive on odd schemas or arguments), and
//! the list-level mutants are caught whenever the set gives them something to break.

use mcpdiff_oracle::annotations::{has_annotation_lookalike, AnnotationError};
use mcpdiff_oracle::client_judge::{judge_kept, judge_request, ClientMutant, ReferenceClient};
use mcpdiff_oracle::rules::client::{TOOL_EXCLUDE, TOOL_KEEP_VALID};
use mcpdiff_props::toolgen::generate_toolset;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn the_reference_client_is_clean_on_generated_sets(seed in any::<u64>()) {
        let set = generate_toolset(seed, 30);
        let client = ReferenceClient::default();
        let mut findings = judge_kept(&set, &client.kept(&set));
        for req in client.run(&set) {
            findings.extend(judge_request(&set, &req));
        }
        prop_assert!(findings.is_empty(), "seed {seed}: {findings:#?}");
    }

    #[test]
    fn list_mutants_are_caught_on_generated_sets(seed in any::<u64>()) {
        let set = generate_toolset(seed, 30);
        let keep = ReferenceClient { mutant: Some(ClientMutant::KeepInvalid) };
        let f = judge_kept(&set, &keep.kept(&set));
        // unsafe integer bounds alone may be kept (D-44); any other invalid tool is a finding
        prop_assert!(f.iter().all(|x| x.rule == TOOL_EXCLUDE));
        let other_defects = set.tools.iter().filter(|t| {
            !t.valid && !matches!(t.reason, Some(AnnotationError::UnsafeIntegerBounds { .. }))
        });
        prop_assert!(f.len() >= other_defects.count(), "seed {seed}: {f:#?}");
        let drop = ReferenceClient { mutant: Some(ClientMutant::DropValid) };
        let f = judge_kept(&set, &drop.kept(&set));
        // dropping a valid tool whose schema holds an `x-mcp-header` key in instance data is
        // accepted (D-49): the mutant breaks the rule only on another valid tool
        let droppable = |t: &mcpdiff_oracle::toolset::GeneratedTool| {
            t.valid && !has_annotation_lookalike(t.input_schema())
        };
        if set.tools.last().is_some_and(droppable) {
            prop_assert!(f.iter().any(|x| x.rule == TOOL_KEEP_VALID), "seed {seed}");
        }
    }
}
