use super::*;

#[test]
fn every_check_names_a_judged_rule_in_the_table() {
    for c in ContentCheck::ALL {
        assert!(rules::JUDGED_IDS.contains(&c.rule()), "{c:?}");
        assert!(
            rules::RULES.iter().any(|r| r.id == c.rule() && r.judged),
            "{c:?}"
        );
    }
}

#[test]
fn rules_on_what_a_target_does_not_publish_say_why() {
    let mut s = crate::fixture::surface();
    assert_eq!(why_not_observed(rules::TOOLS_OUTPUT_CONFORM, &s), None);
    s.tools.clear();
    s.prompts.clear();
    assert_eq!(
        why_not_observed(rules::TOOLS_OUTPUT_CONFORM, &s),
        Some("the target declares no tool with an outputSchema")
    );
    assert!(why_not_observed(rules::PROMPTS_CAP_DECLARE, &s).is_some());
    assert_eq!(why_not_observed(rules::RES_CAP_DECLARE, &s), None);
    assert_eq!(why_not_observed(rules::CACHE_HINTS, &s), None);
}

#[test]
fn sets_list_in_variant_order_and_retain_by_rule() {
    let mut s = ContentSet::default();
    s.insert(ContentCheck::CacheTtlNonNegative);
    s.insert(ContentCheck::DiscoverShape);
    let listed: Vec<_> = s.iter().collect();
    assert_eq!(
        listed,
        [
            ContentCheck::DiscoverShape,
            ContentCheck::CacheTtlNonNegative
        ]
    );
    s.retain_rules(&[rules::CACHE_TTL_NONNEG]);
    assert_eq!(
        s.iter().collect::<Vec<_>>(),
        [ContentCheck::CacheTtlNonNegative]
    );
}
