//! Sanity properties of the case strategies: valid cases really are conformant-looking
//! requests for the fixture, and every near-valid case carries one label per planted edit.

use mcpdiff_oracle::annotations::{extract, header_text, Extracted};
use mcpdiff_oracle::encoding::{decode_header_value, sentinel::decoded_text};
use mcpdiff_oracle::{Case, HeaderField};
use mcpdiff_props::fixture_surface;
use mcpdiff_props::strategies::case::{garbage_case, mixed_case, near_valid_case, valid_case};
use proptest::prelude::*;
use serde_json::Value;

/// The labels of every edit (the rows of the three families).
fn edit_labels() -> Vec<&'static str> {
    use mcpdiff_props::edit::{body::BODY_EDITS, header::HEADER_EDITS, wide::WIDE_EDITS};
    HEADER_EDITS
        .iter()
        .map(|r| r.name)
        .chain(BODY_EDITS.iter().map(|r| r.name))
        .chain(WIDE_EDITS.iter().map(|r| r.name))
        .collect()
}

fn one<'a>(c: &'a Case, name: &str) -> Option<&'a [u8]> {
    match c.header(name) {
        HeaderField::One(v) => Some(v),
        _ => None,
    }
}

proptest! {
    #[test]
    fn valid_cases_are_conformant(case in valid_case()) {
        prop_assert_eq!(case.method.as_str(), "POST");
        prop_assert_eq!(case.path.as_str(), "/mcp");
        prop_assert!(case.labels.is_empty());
        let body: Value = serde_json::from_slice(&case.body)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&body["jsonrpc"], "2.0");
        prop_assert_eq!(one(&case, "MCP-Protocol-Version"), Some(b"2026-07-28".as_slice()));
        prop_assert_eq!(&body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
        let method = body["method"].as_str().unwrap_or_default();
        prop_assert_eq!(one(&case, "Mcp-Method"), Some(method.as_bytes()));
        let name_source = body["params"].get("name").or(body["params"].get("uri"));
        match name_source.and_then(Value::as_str) {
            Some(src) => {
                let raw = one(&case, "Mcp-Name");
                prop_assert!(raw.is_some());
                let d = decode_header_value(raw.unwrap_or_default());
                prop_assert_eq!(decoded_text(&d), Some(src));
            }
            None => prop_assert_eq!(case.header("Mcp-Name"), HeaderField::Absent),
        }
        // every annotated parameter is mirrored exactly when it has a non-null value
        let surface = fixture_surface();
        if let Some(tool) = body["params"]["name"].as_str().and_then(|n| surface.tool(n)) {
            for p in tool.header_params.as_ref().map_err(|e| TestCaseError::fail(format!("{e:?}")))? {
                let args = body["params"].get("arguments");
                let raw = one(&case, &p.header_name());
                match extract(args, &p.path) {
                    Extracted::Value(v) => {
                        let d = decode_header_value(raw.unwrap_or_default());
                        prop_assert_eq!(decoded_text(&d).map(str::to_string), header_text(v));
                    }
                    Extracted::Null | Extracted::Absent => prop_assert!(raw.is_none()),
                }
            }
        }
    }

    /// One label per planted edit, each the name of a row of the edit tables.
    #[test]
    fn near_valid_cases_carry_a_label_per_edit(case in near_valid_case()) {
        prop_assert!((1..=3).contains(&case.labels.len()), "{:?}", case.labels);
        for l in &case.labels {
            prop_assert!(edit_labels().contains(&l.as_str()), "{}", l);
        }
    }

    #[test]
    fn mixed_cases_have_at_most_three_labels(case in mixed_case()) {
        prop_assert!(case.labels.len() <= 3);
    }

    #[test]
    fn garbage_cases_are_labelled(case in garbage_case()) {
        prop_assert_eq!(case.labels, vec!["Garbage".to_string()]);
    }
}

/// proptest shrinks the planted edits: a property that fails whenever a `Mismatch` is
/// planted shrinks to a case with that one edit and no other.
#[test]
fn planted_edits_shrink_to_the_one_that_matters() {
    use proptest::test_runner::{Config, TestError, TestRunner};
    let mut runner = TestRunner::new(Config {
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&near_valid_case(), |case| {
        if case.labels.iter().any(|l| l == "Mismatch") {
            Err(TestCaseError::fail("a Mismatch was planted"))
        } else {
            Ok(())
        }
    });
    match result {
        Err(TestError::Fail(_, minimal)) => {
            assert_eq!(minimal.labels, vec!["Mismatch".to_string()]);
        }
        other => panic!("expected a shrunk failure, got {other:?}"),
    }
}
