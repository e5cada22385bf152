//! Properties of `x-mcp-header` analysis: totality, agreement with the generated labels,
//! paths that lead to the annotation, and `extract` at those paths.

use mcpdiff_oracle::annotations::{
    extract, tool_header_params, AnnotationError, Extracted, HeaderParam, ParamKind,
};
use mcpdiff_props::strategies::schemas::{
    labelled_schema, schema_like_json, valid_schema, LabelledSchema, SchemaDefect,
};
use mcpdiff_props::strategies::values::{header_string, integer};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// The schema node at a `properties` chain.
fn node_at<'a>(schema: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(schema, |node, key| {
        node.get("properties")?.get(key.as_str())
    })
}

fn kind_name(k: ParamKind) -> &'static str {
    match k {
        ParamKind::String => "string",
        ParamKind::Integer => "integer",
        ParamKind::Boolean => "boolean",
    }
}

fn check_paths(schema: &Value, params: &[HeaderParam]) -> Result<(), TestCaseError> {
    for p in params {
        let node = node_at(schema, &p.path);
        prop_assert!(node.is_some(), "no node at {:?}", p.path);
        let node = node.unwrap_or(&Value::Null);
        prop_assert_eq!(&node["x-mcp-header"], &json!(p.header));
        prop_assert_eq!(&node["type"], &json!(kind_name(p.kind)));
    }
    Ok(())
}

fn sorted(mut v: Vec<(String, Vec<String>, ParamKind)>) -> Vec<(String, Vec<String>, ParamKind)> {
    v.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    v
}

proptest! {
    /// Never panics on arbitrary JSON; every path it returns leads to its annotation.
    #[test]
    fn total_on_arbitrary_json(schema in schema_like_json()) {
        if let Ok(params) = tool_header_params(&schema) {
            check_paths(&schema, &params)?;
        }
    }

    /// Wrapping arbitrary JSON as a property keeps the analysis total.
    #[test]
    fn total_on_arbitrary_properties(prop in schema_like_json()) {
        let schema = json!({"type": "object", "properties": {"p": prop}});
        if let Ok(params) = tool_header_params(&schema) {
            check_paths(&schema, &params)?;
        }
    }

    /// Valid schemas give exactly the planted annotations; invalid ones the planted reason.
    #[test]
    fn agrees_with_labels(l in labelled_schema()) {
        let LabelledSchema { schema, defect, planted } = l;
        let got = tool_header_params(&schema);
        match defect {
            None => {
                let params = got.map_err(|e| TestCaseError::fail(format!("{e:?} for {schema}")))?;
                check_paths(&schema, &params)?;
                let got = sorted(params.into_iter().map(|p| (p.header, p.path, p.kind)).collect());
                let want = sorted(planted.into_iter().map(|p| (p.header, p.path, p.kind)).collect());
                prop_assert_eq!(got, want);
            }
            Some(d) => {
                let e = got.err();
                let ok = matches!(
                    (d, &e),
                    (SchemaDefect::Empty, Some(AnnotationError::Empty { .. }))
                        | (SchemaDefect::NotAToken, Some(AnnotationError::NotAToken { .. }))
                        | (SchemaDefect::NotAString, Some(AnnotationError::NotAString { .. }))
                        | (SchemaDefect::Duplicate, Some(AnnotationError::Duplicate { .. }))
                        | (SchemaDefect::NotPrimitive, Some(AnnotationError::NotPrimitive { .. }))
                        | (SchemaDefect::UnsafeBounds, Some(AnnotationError::UnsafeIntegerBounds { .. }))
                        | (SchemaDefect::Unreachable, Some(AnnotationError::NotStaticallyReachable { .. }))
                );
                prop_assert!(ok, "{:?} gave {:?} for {}", d, e, schema);
            }
        }
    }

    /// `extract` reads back, at every path `tool_header_params` returns, exactly what was put
    /// into the arguments (absent, null, or the value).
    #[test]
    fn extract_agrees_with_params(
        (l, choices) in valid_schema().prop_flat_map(|l| {
            let n = l.planted.len();
            (Just(l), prop::collection::vec(argument(), n))
        })
    ) {
        let params = tool_header_params(&l.schema)
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let mut args = Value::Object(Map::new());
        for (p, choice) in l.planted.iter().zip(&choices) {
            if let Some(v) = choice {
                put(&mut args, &p.path, v.clone());
            }
        }
        for p in &params {
            let i = l.planted.iter().position(|q| q.path == p.path);
            prop_assert!(i.is_some());
            let want = match choices[i.unwrap_or_default()].as_ref() {
                None => Extracted::Absent,
                Some(Value::Null) => Extracted::Null,
                Some(v) => Extracted::Value(v),
            };
            prop_assert_eq!(extract(Some(&args), &p.path), want);
        }
    }
}

/// Absent, null, or a value of any primitive type.
fn argument() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        header_string().prop_map(|s| Some(json!(s))),
        integer().prop_map(|i| Some(json!(i))),
        any::<bool>().prop_map(|b| Some(json!(b))),
    ]
}

/// Put `v` at the object path `path`, creating intermediate objects.
fn put(root: &mut Value, path: &[String], v: Value) {
    let Some((last, prefix)) = path.split_last() else {
        return;
    };
    let mut node = root;
    for key in prefix {
        let Some(obj) = node.as_object_mut() else {
            return;
        };
        node = obj.entry(key.clone()).or_insert_with(|| json!({}));
    }
    if let Some(obj) = node.as_object_mut() {
        obj.insert(last.clone(), v);
    }
}
