//! Unit tests of `annotations`: every tool-definition vector of ENCODING.md §1.4 (valid and
//! invalid, with the reason), walker corner cases, bounds, `extract` and `header_text`.

use super::*;
use serde_json::json;

/// A root schema with one property `name: prop`.
fn one(name: &str, prop: Value) -> Value {
    json!({"type": "object", "properties": {name: prop}})
}

fn params(schema: &Value) -> Vec<(String, Vec<String>, ParamKind)> {
    tool_header_params(schema)
        .expect("valid schema")
        .into_iter()
        .map(|p| (p.header, p.path, p.kind))
        .collect()
}

fn path(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| s.to_string()).collect()
}

#[test]
fn valid_vectors() {
    use ParamKind::*;
    let rows = [
        (
            one("region", json!({"type":"string","x-mcp-header":"Region"})),
            "Region",
            vec!["region"],
            String,
        ),
        (
            one(
                "tenant_id",
                json!({"type":"string","x-mcp-header":"TenantId"}),
            ),
            "TenantId",
            vec!["tenant_id"],
            String,
        ),
        (
            one(
                "count",
                json!({"type":"integer","minimum":0,"maximum":1000,"x-mcp-header":"Count"}),
            ),
            "Count",
            vec!["count"],
            Integer,
        ),
        (
            one("flag", json!({"type":"boolean","x-mcp-header":"Flag"})),
            "Flag",
            vec!["flag"],
            Boolean,
        ),
        (
            one("m", json!({"type":"string","x-mcp-header":"Method"})),
            "Method",
            vec!["m"],
            String,
        ),
        (
            one(
                "t",
                json!({"type":"string","x-mcp-header":"a.b_c-d~e!f#g$h%i&j'k*l+m^n`o|p"}),
            ),
            "a.b_c-d~e!f#g$h%i&j'k*l+m^n`o|p",
            vec!["t"],
            String,
        ),
        (
            one(
                "target",
                json!({"type":"object","properties":{
                    "region":{"type":"string","x-mcp-header":"TargetRegion"}}}),
            ),
            "TargetRegion",
            vec!["target", "region"],
            String,
        ),
    ];
    for (schema, header, p, kind) in rows {
        assert_eq!(
            params(&schema),
            vec![(header.to_string(), path(&p), kind)],
            "{schema}"
        );
    }
    let hp = &tool_header_params(&one("m", json!({"type":"string","x-mcp-header":"Method"})))
        .expect("valid")[0];
    assert_eq!(hp.header_name(), "Mcp-Param-Method");
}

fn err(schema: &Value) -> AnnotationError {
    tool_header_params(schema).expect_err("invalid schema")
}

#[test]
fn invalid_annotation_values() {
    let with = |v: Value| one("r", json!({"type":"string","x-mcp-header": v}));
    // XH-1
    assert!(matches!(
        err(&with(json!(""))),
        AnnotationError::Empty { .. }
    ));
    // XH-2 / XH-3
    for bad in [
        "My Region",
        "Region:Primary",
        "Région",
        "Region\t1",
        "Reg\r\nX-Evil: 1",
        "Region\n",
        "a\0",
        "(x)",
        "a/b",
        "\"q\"",
    ] {
        assert!(
            matches!(err(&with(json!(bad))), AnnotationError::NotAToken { .. }),
            "{bad:?}"
        );
    }
    // not a string (ENCODING.md §1.4 "open": presumably fails XH-2)
    for v in [json!(5), json!(true), json!(null), json!(["R"]), json!({})] {
        assert!(matches!(err(&with(v)), AnnotationError::NotAString { .. }));
    }
}

#[test]
fn duplicates_ignore_case_at_any_depth() {
    // XH-4, same case
    let same = json!({"type":"object","properties":{
        "a":{"type":"string","x-mcp-header":"Region"},
        "b":{"type":"string","x-mcp-header":"Region"}}});
    assert!(matches!(err(&same), AnnotationError::Duplicate { .. }));
    // XH-4, different case and depth
    let deep = json!({"type":"object","properties":{
        "a":{"type":"string","x-mcp-header":"Region"},
        "t":{"type":"object","properties":{"b":{"type":"string","x-mcp-header":"REGION"}}}}});
    assert!(matches!(err(&deep), AnnotationError::Duplicate { .. }));
}

#[test]
fn non_primitive_types() {
    // XH-5
    for t in [
        json!("number"),
        json!("array"),
        json!("object"),
        json!("null"),
        json!("float"),
    ] {
        let s = one("p", json!({"type": t, "x-mcp-header":"Price"}));
        assert!(
            matches!(err(&s), AnnotationError::NotPrimitive { .. }),
            "{s}"
        );
    }
    // AMB-37: nullable, missing type, enum/const only: rejected
    for prop in [
        json!({"type":["string","null"],"x-mcp-header":"Opt"}),
        json!({"x-mcp-header":"X"}),
        json!({"enum":["a","b"],"x-mcp-header":"X"}),
        json!({"const":"a","x-mcp-header":"X"}),
    ] {
        assert!(matches!(
            err(&one("p", prop)),
            AnnotationError::NotPrimitive { .. }
        ));
    }
}

#[test]
fn integer_bounds() {
    let int = |extra: Value| {
        let mut p = json!({"type":"integer","x-mcp-header":"N"});
        for (k, v) in extra.as_object().expect("object") {
            p[k] = v.clone();
        }
        tool_header_params(&one("n", p))
    };
    let unsafe_ = |r: Result<Vec<HeaderParam>, AnnotationError>| {
        matches!(r, Err(AnnotationError::UnsafeIntegerBounds { .. }))
    };
    // XH-6 (AMB-36: checked on declared bounds)
    assert!(unsafe_(int(json!({"maximum": 9_007_199_254_740_992_u64}))));
    assert!(unsafe_(int(json!({"minimum": -9_007_199_254_740_992_i64}))));
    assert!(unsafe_(int(json!({"maximum": 1e300}))));
    assert!(unsafe_(int(json!({"minimum": "0"}))));
    assert!(unsafe_(int(
        json!({"exclusiveMaximum": 9_007_199_254_740_993_u64})
    )));
    assert!(int(json!({})).is_ok());
    assert!(int(json!({"maximum": 9_007_199_254_740_991_u64})).is_ok());
    assert!(int(json!({"minimum": -9_007_199_254_740_991_i64})).is_ok());
    assert!(int(json!({"exclusiveMaximum": 9_007_199_254_740_992_u64})).is_ok());
    assert!(int(json!({"exclusiveMinimum": -9_007_199_254_740_992_i64})).is_ok());
    assert!(int(json!({"minimum": -10.5, "maximum": 9_007_199_254_740_991.0})).is_ok());
    assert!(int(json!({"exclusiveMaximum": 10.5, "exclusiveMinimum": -10.5})).is_ok());
    assert!(int(json!({"exclusiveMaximum": true, "maximum": 10})).is_ok());
    // bounds on a string parameter are not integer bounds
    let s = one(
        "s",
        json!({"type":"string","maximum":1e300,"x-mcp-header":"S"}),
    );
    assert!(tool_header_params(&s).is_ok());
}

#[test]
fn unreachable_locations() {
    let annotated = json!({"type":"string","x-mcp-header":"R"});
    let cases = [
        // items
        one("tags", json!({"type":"array","items": annotated})),
        one("tags", json!({"type":"array","items": [annotated]})),
        one("tags", json!({"type":"array","prefixItems": [annotated]})),
        one("tags", json!({"type":"array","contains": annotated})),
        // composition
        json!({"type":"object","oneOf":[{"properties":{"r": annotated}}]}),
        json!({"type":"object","anyOf":[{"properties":{"r": annotated}}]}),
        json!({"type":"object","allOf":[{"properties":{"r": annotated}}]}),
        json!({"type":"object","not":{"properties":{"r": annotated}}}),
        // conditional
        json!({"type":"object","if":{"properties":{"k":{"const":1}}},
               "then":{"properties":{"r": annotated}}}),
        json!({"type":"object","else":{"properties":{"r": annotated}}}),
        // $ref target in $defs
        json!({"type":"object","properties":{"r":{"$ref":"#/$defs/Region"}},
               "$defs":{"Region": annotated}}),
        json!({"type":"object","definitions":{"Region": annotated}}),
        // other keywords
        json!({"type":"object","additionalProperties": annotated}),
        json!({"type":"object","patternProperties":{"^r": annotated}}),
        json!({"type":"object","dependentSchemas":{"a":{"properties":{"r": annotated}}}}),
        json!({"type":"object","propertyNames": annotated}),
        json!({"type":"object","unevaluatedProperties": annotated}),
        // the root itself
        json!({"type":"object","x-mcp-header":"Root"}),
        json!({"type":"string","x-mcp-header":"Root"}),
        // an unknown keyword's value (XH-8 "anywhere else")
        json!({"type":"object","x-vendor":{"properties":{"r": annotated}}}),
        // nested under a property, but through items
        one(
            "a",
            json!({"type":"array","items":{"type":"object","properties":{"r": annotated}}}),
        ),
    ];
    for s in cases {
        assert!(
            matches!(err(&s), AnnotationError::NotStaticallyReachable { .. }),
            "{s}"
        );
    }
}

#[test]
fn property_names_are_never_keywords() {
    // a property NAMED x-mcp-header is a property, not an annotation
    let s = json!({"type":"object","properties":{"x-mcp-header":{"type":"string"}}});
    assert_eq!(params(&s), vec![]);
    let s = json!({"type":"object","properties":{
        "x-mcp-header":{"type":"string","x-mcp-header":"Hdr"}}});
    assert_eq!(
        params(&s),
        vec![("Hdr".into(), path(&["x-mcp-header"]), ParamKind::String)]
    );
    // a property NAMED properties, nested
    let s = json!({"type":"object","properties":{"properties":{"type":"object","properties":{
        "properties":{"type":"integer","x-mcp-header":"P"}}}}});
    assert_eq!(
        params(&s),
        vec![(
            "P".into(),
            path(&["properties", "properties"]),
            ParamKind::Integer
        )]
    );
    // properties named like other keywords stay on the chain
    let s = json!({"type":"object","properties":{
        "items":{"type":"string","x-mcp-header":"I"},
        "oneOf":{"type":"boolean","x-mcp-header":"O"}}});
    assert_eq!(params(&s).len(), 2);
    // off the chain, names are still just names: a def / pattern / property called
    // x-mcp-header without an annotation is fine
    let s = json!({"type":"object",
        "$defs":{"x-mcp-header":{"type":"string"}},
        "patternProperties":{"x-mcp-header":{"type":"string"}},
        "items":{"properties":{"x-mcp-header":{"type":"string"}}}});
    assert_eq!(params(&s), vec![]);
}

#[test]
fn data_keywords_hold_no_annotations() {
    let s = json!({"type":"object",
        "default":{"x-mcp-header":"D"},
        "examples":[{"x-mcp-header":"E"}],
        "enum":[{"x-mcp-header":"N"}],
        "properties":{"a":{"type":"object","const":{"x-mcp-header":"C"}}}});
    assert_eq!(params(&s), vec![]);
}

#[test]
fn reused_property_under_allof_is_still_invalid_elsewhere() {
    // The `properties` occurrence is valid; the copy under allOf is "anywhere else".
    let p = json!({"type":"string","x-mcp-header":"R"});
    let s = json!({"type":"object","properties":{"r": p},"allOf":[{"properties":{"r": p}}]});
    assert!(matches!(
        err(&s),
        AnnotationError::NotStaticallyReachable { .. }
    ));
    // a plain reference to it from allOf (no annotation) is fine
    let s = json!({"type":"object","properties":{"r": p},"allOf":[{"required":["r"]}]});
    assert_eq!(params(&s).len(), 1);
}

#[test]
fn odd_schemas_are_total() {
    for s in [
        json!(null),
        json!(true),
        json!(false),
        json!([]),
        json!("x"),
        json!({}),
        json!({"properties": []}),
        json!({"properties": {"a": true, "b": 5}}),
        json!({"items": 3}),
    ] {
        assert_eq!(params(&s), vec![], "{s}");
    }
}

#[test]
fn is_tchar_matches_rfc9110() {
    let expected: Vec<u8> =
        b"!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".to_vec();
    let mut actual: Vec<u8> = (0..=255u8).filter(|b| is_tchar(*b)).collect();
    let mut e = expected;
    e.sort_unstable();
    actual.sort_unstable();
    assert_eq!(actual, e);
}

#[test]
fn extraction() {
    let args = json!({"region":"us","n":null,"target":{"region":"eu"},"s":"x",
                      "properties":{"x-mcp-header": 3}});
    let a = Some(&args);
    assert_eq!(
        extract(a, &path(&["region"])),
        Extracted::Value(&json!("us"))
    );
    assert_eq!(extract(a, &path(&["n"])), Extracted::Null);
    assert_eq!(extract(a, &path(&["missing"])), Extracted::Absent);
    assert_eq!(
        extract(a, &path(&["target", "region"])),
        Extracted::Value(&json!("eu"))
    );
    assert_eq!(extract(a, &path(&["s", "region"])), Extracted::Absent);
    assert_eq!(
        extract(a, &path(&["properties", "x-mcp-header"])),
        Extracted::Value(&json!(3))
    );
    assert_eq!(extract(None, &path(&["region"])), Extracted::Absent);
    assert_eq!(
        extract(Some(&json!([1, 2])), &path(&["0"])),
        Extracted::Absent
    );
}

#[test]
fn header_text_conversions() {
    assert_eq!(header_text(&json!("us-west1")).as_deref(), Some("us-west1"));
    assert_eq!(header_text(&json!(42)).as_deref(), Some("42"));
    assert_eq!(header_text(&json!(-7)).as_deref(), Some("-7"));
    assert_eq!(header_text(&json!(true)).as_deref(), Some("true"));
    assert_eq!(header_text(&json!(false)).as_deref(), Some("false"));
    assert_eq!(header_text(&json!(null)), None);
    assert_eq!(header_text(&json!([])), None);
    assert_eq!(header_text(&json!({})), None);
}
