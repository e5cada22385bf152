//! Property tests of the tool-set generator: the generator's intent and the oracle's label
//! agree on every draw, planting a defect in a valid schema makes it invalid with the
//! matching reason, and `generate_toolset` is deterministic and prefix-stable.

use mcpdiff_oracle::annotations::tool_header_params;
use mcpdiff_oracle::toolset::ToolSet;
use mcpdiff_props::strategies::schemas::SchemaDefect;
use mcpdiff_props::toolgen::{
    generate_toolset, leaves, planned_schema, planned_tool, reason_matches, tool_name,
};
use proptest::prelude::*;
use serde_json::json;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The generator's intended label is the oracle's label.
    #[test]
    fn intent_is_the_oracle_label(p in planned_tool("t".into())) {
        match (p.intended, &p.tool.reason) {
            (None, None) => prop_assert!(p.tool.valid),
            (Some(d), Some(r)) => {
                prop_assert!(!p.tool.valid);
                prop_assert!(reason_matches(d, r), "planted {:?}, oracle says {:?}: {}", d, r, p.tool.note.clone().unwrap_or_default());
            }
            (i, r) => prop_assert!(false, "planted {:?}, oracle says {:?}: {}", i, r, p.tool.definition),
        }
    }

    /// A valid generated tool's calls only touch properties its schema declares, and every
    /// tool has a plain call and a call without arguments.
    #[test]
    fn calls_follow_the_schema(p in planned_tool("t".into())) {
        let calls = &p.tool.calls;
        prop_assert!(calls.len() >= 2);
        prop_assert!(calls.iter().any(|c| c.arguments.is_none()));
        let paths: Vec<Vec<String>> = leaves(p.tool.input_schema()).into_iter().map(|l| l.path).collect();
        for c in calls {
            if let Some(args) = &c.arguments {
                prop_assert!(args.is_object());
                for_each_leaf(args, &mut Vec::new(), &mut |path| {
                    assert!(paths.iter().any(|p| p == path), "{path:?} not in {paths:?}");
                });
            }
        }
    }

    /// Planting a second annotation that repeats a valid schema's header in another case
    /// turns it invalid as a duplicate; planting it with a fresh name keeps it valid.
    #[test]
    fn planting_a_case_twin_makes_a_duplicate(s in planned_schema()) {
        prop_assume!(s.intended.is_none());
        let Ok(params) = tool_header_params(&s.schema) else {
            return Err(TestCaseError::fail("a valid draw was labelled invalid"));
        };
        prop_assume!(!params.is_empty());
        let mut twin = s.schema.clone();
        let flipped: String = params[0].header.chars().map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }).collect();
        twin["properties"]["zz_twin"] = json!({"type": "string", "x-mcp-header": flipped});
        prop_assert!(matches!(tool_header_params(&twin), Err(e) if reason_matches(SchemaDefect::Duplicate, &e)));
    }

    /// Wrapping a valid schema's first annotated property in `items` (or moving it under
    /// `allOf`) makes the tool invalid as unreachable.
    #[test]
    fn moving_an_annotation_off_the_chain_makes_it_unreachable(s in planned_schema(), under_items in any::<bool>()) {
        prop_assume!(s.intended.is_none());
        let Ok(params) = tool_header_params(&s.schema) else {
            return Err(TestCaseError::fail("a valid draw was labelled invalid"));
        };
        prop_assume!(!params.is_empty());
        let mut moved = s.schema.clone();
        let pointer: String = params[0].path.iter().map(|k| format!("/properties/{}", k.replace('~', "~0").replace('/', "~1"))).collect();
        let Some(leaf) = moved.pointer_mut(&pointer) else {
            return Err(TestCaseError::fail(format!("no {pointer} in {}", s.schema)));
        };
        let inner = leaf.clone();
        *leaf = if under_items {
            json!({"type": "array", "items": inner})
        } else {
            json!({"allOf": [{"properties": {"x": inner}}]})
        };
        prop_assert!(matches!(tool_header_params(&moved), Err(e) if reason_matches(SchemaDefect::Unreachable, &e)));
    }
}

/// One defect and a property schema that plants it, for the planting property.
fn planted_defect() -> impl Strategy<Value = (SchemaDefect, serde_json::Value)> {
    use mcpdiff_props::toolgen::BAD_TOKENS;
    prop_oneof![
        Just((
            SchemaDefect::Empty,
            json!({"type": "string", "x-mcp-header": ""})
        )),
        prop::sample::select(BAD_TOKENS.to_vec()).prop_map(|t| (
            SchemaDefect::NotAToken,
            json!({"type": "string", "x-mcp-header": t})
        )),
        Just((
            SchemaDefect::NotAString,
            json!({"type": "string", "x-mcp-header": 7})
        )),
        prop::sample::select(vec!["number", "object", "array", "null"]).prop_map(|t| (
            SchemaDefect::NotPrimitive,
            json!({"type": t, "x-mcp-header": "P"})
        )),
        Just((
            SchemaDefect::UnsafeBounds,
            json!({"type": "integer", "maximum": 9_007_199_254_740_992_u64, "x-mcp-header": "P"})
        )),
        prop::sample::select(vec![
            "items",
            "not",
            "if",
            "then",
            "else",
            "additionalProperties"
        ])
        .prop_map(|k| {
            let mut wrapper = json!({"type": "object"});
            wrapper[k] = json!({"properties": {"r": {"type": "string", "x-mcp-header": "P"}}});
            (SchemaDefect::Unreachable, wrapper)
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Planting one defect in any valid generated schema makes it invalid with the matching
    /// reason (the defect is the only one, so it is the first the oracle meets).
    #[test]
    fn planting_a_defect_in_a_valid_schema_gives_its_reason(
        s in planned_schema(),
        (defect, fragment) in planted_defect(),
    ) {
        prop_assume!(s.intended.is_none());
        let mut planted = s.schema.clone();
        planted["properties"]["zz_planted"] = fragment;
        match tool_header_params(&planted) {
            Err(e) => prop_assert!(reason_matches(defect, &e), "{defect:?} gave {e:?}"),
            Ok(_) => prop_assert!(false, "{defect:?} planted, still valid: {planted}"),
        }
    }
}

fn for_each_leaf(v: &serde_json::Value, path: &mut Vec<String>, f: &mut dyn FnMut(&Vec<String>)) {
    match v.as_object() {
        Some(m) if !m.is_empty() || !path.is_empty() => {
            if m.is_empty() {
                return;
            }
            for (k, sub) in m {
                path.push(k.clone());
                if sub.is_object() {
                    for_each_leaf(sub, path, f);
                } else {
                    f(path);
                }
                path.pop();
            }
        }
        _ => {}
    }
}

#[test]
fn generate_toolset_is_deterministic_and_prefix_stable() {
    let a = generate_toolset(7, 40);
    let b = generate_toolset(7, 40);
    assert_eq!(a, b);
    let short = generate_toolset(7, 10);
    assert_eq!(short.tools[..], a.tools[..10]);
    assert_ne!(generate_toolset(8, 40), a);
    assert_eq!(a.tools[3].name(), tool_name(3));
}

#[test]
fn a_generated_file_round_trips_through_the_oracle_loader() {
    let set = generate_toolset(1, 200);
    let back = ToolSet::from_json(&set.to_json()).expect("own output loads");
    assert_eq!(back, set);
}

#[test]
fn a_generated_set_covers_every_family() {
    let set = generate_toolset(11, 1000);
    let valid = set.tools.iter().filter(|t| t.valid).count();
    assert!((300..=700).contains(&valid), "{valid} valid of 1000");
    let notes: Vec<String> = set.tools.iter().filter_map(|t| t.note.clone()).collect();
    for needle in [
        "empty annotation",
        "not a token \"Reg\\r\\nX-Evil: 1\"",
        "differ only by case",
        "{\"type\":\"number\"}",
        "through `items`",
        "through `oneOf`",
        "through `anyOf`",
        "through `allOf`",
        "through `not`",
        "through `if`",
        "through `then`",
        "through `else`",
        "through `$ref`",
        "token-edge names",
        "safe edge",
        "beyond the safe range",
    ] {
        assert!(
            notes.iter().any(|n| n.contains(needle)),
            "no tool noted {needle:?}"
        );
    }
    let calls: Vec<String> = set
        .tools
        .iter()
        .flat_map(|t| t.calls.iter().filter_map(|c| c.note.clone()))
        .collect();
    for needle in [
        "null",
        "absent",
        "2^53-1",
        "2^53 (beyond",
        "needs the sentinel",
        "shaped like a sentinel",
        "no arguments member",
    ] {
        assert!(
            calls.iter().any(|n| n.contains(needle)),
            "no call noted {needle:?}"
        );
    }
}

/// With a generated tool set on the surface (`run --tools`), the case generator calls the
/// generated tools, the ones past the first 32 included.
#[test]
fn the_case_generator_calls_generated_tools() {
    use mcpdiff_props::gen::{case_for, case_strategy};
    let set = generate_toolset(5, 100);
    let surface = set
        .extend_surface(mcpdiff_oracle::fixture::surface())
        .expect("no clash");
    let strategy = case_strategy(&surface);
    let mut called = std::collections::BTreeSet::new();
    let mut calls = 0;
    for i in 0..2000 {
        let case = case_for(&strategy, 3, i);
        let Ok(body) = serde_json::from_slice::<serde_json::Value>(&case.body) else {
            continue;
        };
        if let Some(name) = body["params"]["name"].as_str() {
            if name.starts_with("gen_") && body["method"] == "tools/call" {
                calls += 1;
                called.insert(name.to_string());
            }
        }
    }
    assert!(calls > 800, "{calls} of 2000 cases call a generated tool");
    assert!(
        called.len() > 80,
        "{} distinct generated tools called",
        called.len()
    );
    assert!(
        called.iter().any(|n| n.as_str() > "gen_0040"),
        "no tool past the first 32"
    );
}
