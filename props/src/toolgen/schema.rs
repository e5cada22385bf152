//! The schema families of generated tools: valid ones (the `strategies::schemas` mix, names
//! at the edges of the token syntax, integer bounds at the safe-range edges, annotation look-
//! alikes inside instance data, near-duplicates) and invalid ones (one planted defect each:
//! empty, non-token characters, CR/LF, case-insensitive duplicates, non-primitive types,
//! unsafe bounds, and every keyword that leaves the `properties` chain).
//!
//! Each draw says what it planted ([`PlannedSchema::intended`]) and why, in words
//! ([`PlannedSchema::note`]); the oracle labels it separately (`GeneratedTool::labelled`).

use crate::strategies::schemas::{insert_at, invalid_schema, valid_schema, SchemaDefect};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A generated `inputSchema` and what was planted in it.
#[derive(Clone, Debug)]
pub struct PlannedSchema {
    pub schema: Value,
    /// `None`: meant to be valid.
    pub intended: Option<SchemaDefect>,
    pub note: String,
}

/// Valid annotation values at the edges of `1*tchar`.
pub const EDGE_TOKENS: &[&str] = &[
    "!",
    "~",
    "|",
    "`",
    "^",
    "z",
    "9",
    "-",
    ".",
    "a.b_c-d~e!f#g$h%i&j'k*l+m^n`o|p",
    "Method",
    "Name",
    "Protocol-Version",
    "Mcp-Param-X",
    "Content-Type",
];

/// Annotation values that are not tokens (each breaks XH-2, some XH-3).
pub const BAD_TOKENS: &[&str] = &[
    "My Region",
    " Region",
    "Region ",
    "Region:Primary",
    "Région",
    "\u{212a}elvin",
    "Region\t1",
    "Reg\r\nX-Evil: 1",
    "Region\n",
    "Region\r",
    "\rRegion",
    "\u{0}",
    "\u{7f}",
    "(x)",
    "a/b",
    "a,b",
    "a;b",
    "<a>",
    "a=b",
    "a?",
    "a@b",
    "[a]",
    "a\\b",
    "{a}",
    "\"a\"",
];

/// Where an annotated property schema `a` is put off the `properties` chain: the keyword
/// and the wrapper that holds it (to be planted as a top-level property).
fn off_chain_wrappers(a: &Value) -> Vec<(&'static str, Value)> {
    let r = |a: &Value| json!({"properties": {"r": a}});
    vec![
        ("items", json!({"type": "array", "items": a})),
        ("prefixItems", json!({"type": "array", "prefixItems": [a]})),
        ("contains", json!({"type": "array", "contains": a})),
        ("oneOf", json!({"oneOf": [r(a), {"type": "object"}]})),
        ("anyOf", json!({"anyOf": [r(a)]})),
        ("allOf", json!({"allOf": [r(a)]})),
        ("not", json!({"not": r(a)})),
        ("if", json!({"if": r(a), "then": {"type": "object"}})),
        ("then", json!({"if": {"type": "object"}, "then": r(a)})),
        ("else", json!({"if": {"type": "object"}, "else": r(a)})),
        (
            "additionalProperties",
            json!({"type": "object", "additionalProperties": a}),
        ),
        (
            "patternProperties",
            json!({"type": "object", "patternProperties": {"^r": a}}),
        ),
        (
            "propertyNames",
            json!({"type": "object", "propertyNames": a}),
        ),
        (
            "unevaluatedProperties",
            json!({"type": "object", "unevaluatedProperties": a}),
        ),
        (
            "dependentSchemas",
            json!({"type": "object", "dependentSchemas": {"k": r(a)}}),
        ),
    ]
}

/// A valid base schema (0..5 annotations) and its planted header names.
fn base() -> impl Strategy<Value = (Value, Vec<String>)> {
    valid_schema().prop_map(|l| (l.schema, l.planted.into_iter().map(|p| p.header).collect()))
}

/// Plant `leaf` under a fresh top-level property `name` (names with `_` never collide
/// with the base's `[a-z]` segments).
fn plant(schema: &mut Value, name: &str, leaf: Value) {
    let planted = insert_at(schema, &[name.to_string()], leaf);
    debug_assert!(planted, "fresh names cannot collide");
}

fn clashes(taken: &[String], header: &str) -> bool {
    taken.iter().any(|h| h.eq_ignore_ascii_case(header))
}

fn valid_families() -> BoxedStrategy<PlannedSchema> {
    let mixed = valid_schema().prop_map(|l| PlannedSchema {
        note: format!(
            "valid: {} annotation(s) on properties chains",
            l.planted.len()
        ),
        schema: l.schema,
        intended: None,
    });
    let edge_names = (
        base(),
        prop::sample::subsequence(EDGE_TOKENS.to_vec(), 1..4),
        prop::sample::select(vec!["string", "integer", "boolean"]),
        any::<bool>(),
    )
        .prop_map(|((mut schema, taken), names, ty, long)| {
            let mut names: Vec<String> = names.into_iter().map(str::to_string).collect();
            if long {
                names.push("X".repeat(128));
            }
            names.retain(|n| !clashes(&taken, n));
            for (i, n) in names.iter().enumerate() {
                // one nested, the rest flat: edges of the syntax on both shapes
                let path = if i == 0 {
                    vec!["edge_obj".to_string(), format!("edge_{i}")]
                } else {
                    vec![format!("edge_{i}")]
                };
                insert_at(&mut schema, &path, json!({"type": ty, "x-mcp-header": n}));
            }
            PlannedSchema {
                note: format!("valid: token-edge names {names:?} on {ty}"),
                schema,
                intended: None,
            }
        });
    let safe_bounds = (
        base(),
        prop::sample::select(vec![
            json!({"minimum": -9_007_199_254_740_991_i64, "maximum": 9_007_199_254_740_991_i64}),
            json!({"exclusiveMaximum": 9_007_199_254_740_992_i64}),
            json!({"exclusiveMinimum": -9_007_199_254_740_992_i64}),
            json!({"maximum": 1000.5, "minimum": -0.5}),
            json!({"minimum": 0, "maximum": 1000}),
        ]),
    )
        .prop_filter("header free", |((_, taken), _)| !clashes(taken, "SafeInt"))
        .prop_map(|((mut schema, _), mut bounds)| {
            let note = format!("valid: integer bounds at the safe edge {bounds}");
            bounds["type"] = json!("integer");
            bounds["x-mcp-header"] = json!("SafeInt");
            plant(&mut schema, "safe_int", bounds);
            PlannedSchema {
                schema,
                intended: None,
                note,
            }
        });
    let lookalikes = (
        base(),
        prop::sample::select(vec![
            (
                "default",
                json!({"type": "object", "default": {"x-mcp-header": "Nope"}}),
            ),
            (
                "const",
                json!({"type": "object", "const": {"x-mcp-header": "Nope"}}),
            ),
            (
                "examples",
                json!({"type": "object", "examples": [{"x-mcp-header": ""}]}),
            ),
            (
                "a property named x-mcp-header",
                json!({"type": "object", "properties": {"x-mcp-header": {"type": "string"}}}),
            ),
        ]),
    )
        .prop_map(|((mut schema, _), (what, frag))| {
            plant(&mut schema, "data_like", frag);
            PlannedSchema {
                schema,
                intended: None,
                note: format!("valid: `x-mcp-header` as instance data, not an annotation ({what})"),
            }
        });
    let near_duplicates = base()
        .prop_filter("header free", |(_, taken)| {
            !clashes(taken, "Near") && !clashes(taken, "Near2") && !clashes(taken, "Nea_r")
        })
        .prop_map(|(mut schema, _)| {
            plant(
                &mut schema,
                "near_a",
                json!({"type": "string", "x-mcp-header": "Near"}),
            );
            plant(
                &mut schema,
                "near_b",
                json!({"type": "string", "x-mcp-header": "Near2"}),
            );
            plant(
                &mut schema,
                "near_c",
                json!({"type": "boolean", "x-mcp-header": "Nea_r"}),
            );
            PlannedSchema {
                schema,
                intended: None,
                note: "valid: names that differ by more than case (Near, Near2, Nea_r)".into(),
            }
        });
    prop_oneof![
        4 => mixed,
        3 => edge_names,
        2 => safe_bounds,
        1 => lookalikes,
        1 => near_duplicates,
    ]
    .boxed()
}

fn invalid_families() -> BoxedStrategy<PlannedSchema> {
    let mixed = invalid_schema().prop_map(|l| PlannedSchema {
        note: format!("invalid: {:?} (props schema strategies)", l.defect),
        intended: l.defect,
        schema: l.schema,
    });
    let empty = base().prop_map(|(mut schema, _)| {
        plant(
            &mut schema,
            "bad_empty",
            json!({"type": "string", "x-mcp-header": ""}),
        );
        PlannedSchema {
            schema,
            intended: Some(SchemaDefect::Empty),
            note: "invalid: empty annotation".into(),
        }
    });
    let bad_token =
        (base(), prop::sample::select(BAD_TOKENS.to_vec())).prop_map(|((mut schema, _), t)| {
            plant(
                &mut schema,
                "bad_token",
                json!({"type": "string", "x-mcp-header": t}),
            );
            PlannedSchema {
                schema,
                intended: Some(SchemaDefect::NotAToken),
                note: format!("invalid: not a token {t:?}"),
            }
        });
    let duplicate = (
        base(),
        prop::sample::select(vec!["Region", "x-Trace", "A"]),
        any::<bool>(),
    )
        .prop_map(|((mut schema, _), h, nested)| {
            let twin = if h.bytes().any(|b| b.is_ascii_lowercase()) {
                h.to_ascii_uppercase()
            } else {
                h.to_ascii_lowercase()
            };
            plant(
                &mut schema,
                "dup_a",
                json!({"type": "string", "x-mcp-header": h}),
            );
            let path: Vec<String> = if nested {
                vec!["dup_obj".into(), "dup_b".into()]
            } else {
                vec!["dup_b".into()]
            };
            insert_at(
                &mut schema,
                &path,
                json!({"type": "integer", "x-mcp-header": twin}),
            );
            PlannedSchema {
                schema,
                intended: Some(SchemaDefect::Duplicate),
                note: format!("invalid: {h:?} and {twin:?} differ only by case"),
            }
        });
    let not_primitive = (
        base(),
        prop::sample::select(vec![
            json!({"type": "number"}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            json!({"type": "array", "items": {"type": "string"}}),
            json!({"type": "null"}),
            json!({"type": ["string", "null"]}),
            json!({"enum": ["a", "b"]}),
        ]),
    )
        .prop_map(|((mut schema, _), mut frag)| {
            let note = format!("invalid: annotation on {frag}");
            frag["x-mcp-header"] = json!("Shape");
            plant(&mut schema, "bad_shape", frag);
            PlannedSchema {
                schema,
                intended: Some(SchemaDefect::NotPrimitive),
                note,
            }
        });
    let unsafe_bounds = (
        base(),
        prop::sample::select(vec![
            json!({"maximum": 9_007_199_254_740_992_u64}),
            json!({"minimum": -9_007_199_254_740_992_i64}),
            json!({"exclusiveMaximum": 9_007_199_254_740_993_u64}),
            json!({"maximum": 1e300}),
        ]),
    )
        .prop_map(|((mut schema, _), mut bounds)| {
            let note = format!("invalid: integer bounds beyond the safe range {bounds}");
            bounds["type"] = json!("integer");
            bounds["x-mcp-header"] = json!("Big");
            plant(&mut schema, "bad_int", bounds);
            PlannedSchema {
                schema,
                intended: Some(SchemaDefect::UnsafeBounds),
                note,
            }
        });
    let annotated = json!({"type": "string", "x-mcp-header": "Hidden"});
    let wrappers = off_chain_wrappers(&annotated);
    let off_chain = (base(), prop::sample::select(wrappers)).prop_map(
        |((mut schema, _), (keyword, wrapper))| {
            plant(&mut schema, "bad_reach", wrapper);
            PlannedSchema {
                schema,
                intended: Some(SchemaDefect::Unreachable),
                note: format!("invalid: annotation reached through `{keyword}`"),
            }
        },
    );
    let via_ref = base().prop_map(|(mut schema, _)| {
        schema["$defs"] = json!({"Hidden": {"type": "string", "x-mcp-header": "Hidden"}});
        plant(&mut schema, "bad_ref", json!({"$ref": "#/$defs/Hidden"}));
        PlannedSchema {
            schema,
            intended: Some(SchemaDefect::Unreachable),
            note: "invalid: annotation reached through `$ref` ($defs)".into(),
        }
    });
    let on_root = base().prop_map(|(mut schema, _)| {
        schema["x-mcp-header"] = json!("Root");
        PlannedSchema {
            schema,
            intended: Some(SchemaDefect::Unreachable),
            note: "invalid: annotation on the root schema".into(),
        }
    });
    prop_oneof![
        3 => mixed,
        1 => empty,
        3 => bad_token,
        2 => duplicate,
        2 => not_primitive,
        1 => unsafe_bounds,
        4 => off_chain,
        1 => via_ref,
        1 => on_root,
    ]
    .boxed()
}

/// A planned schema: valid about half the time.
pub fn planned_schema() -> BoxedStrategy<PlannedSchema> {
    prop_oneof![valid_families(), invalid_families()].boxed()
}
