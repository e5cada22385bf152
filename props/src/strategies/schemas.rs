//! Tool `inputSchema`s with `x-mcp-header` annotations, labelled valid or invalid.
//!
//! A valid schema is built from a list of annotations planted at `properties` chains (names
//! drawn from a pool that includes the tricky `properties`, `x-mcp-header` and `items`); the
//! expected `(header, path, kind)` triples come with it. An invalid schema is a valid one
//! with exactly one defect planted, labelled with the constraint it breaks (ENCODING.md
//! §1.2 XH-1..XH-8).

use mcpdiff_oracle::annotations::ParamKind;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// One annotation the generator planted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planted {
    pub header: String,
    pub path: Vec<String>,
    pub kind: ParamKind,
}

/// Which constraint an invalid schema breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaDefect {
    /// XH-1.
    Empty,
    /// XH-2/XH-3 (space, colon, non-ASCII, HTAB, CR/LF, ...).
    NotAToken,
    /// Not a string at all.
    NotAString,
    /// XH-4.
    Duplicate,
    /// XH-5.
    NotPrimitive,
    /// XH-6 (declared bounds, AMB-36).
    UnsafeBounds,
    /// XH-7/XH-8.
    Unreachable,
}

/// A generated schema and what the oracle must say about it.
#[derive(Clone, Debug)]
pub struct LabelledSchema {
    pub schema: Value,
    /// `None`: valid, with exactly `planted` as its annotations.
    pub defect: Option<SchemaDefect>,
    pub planted: Vec<Planted>,
}

impl LabelledSchema {
    pub fn is_valid(&self) -> bool {
        self.defect.is_none()
    }
}

/// A valid `x-mcp-header` value (`1*tchar`).
pub fn header_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[A-Z][a-zA-Z0-9]{0,10}",
        1 => "[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}",
        1 => prop::sample::select(vec!["Method".to_string(), "Name".to_string()]),
    ]
}

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z]{1,6}",
        1 => prop::sample::select(vec![
            "properties".to_string(),
            "x-mcp-header".to_string(),
            "items".to_string(),
            "target".to_string(),
            "région".to_string(),
        ]),
    ]
}

fn kind() -> impl Strategy<Value = ParamKind> {
    prop::sample::select(vec![
        ParamKind::String,
        ParamKind::Integer,
        ParamKind::Boolean,
    ])
}

fn kind_name(k: ParamKind) -> &'static str {
    match k {
        ParamKind::String => "string",
        ParamKind::Integer => "integer",
        ParamKind::Boolean => "boolean",
    }
}

/// Insert `leaf` at the `properties` chain `path` under `root`; `false` (and `root`
/// unchanged up to empty intermediate objects) when the path collides with another leaf.
pub fn insert_at(root: &mut Value, path: &[String], leaf: Value) -> bool {
    let Some((last, prefix)) = path.split_last() else {
        return false;
    };
    let mut node = root;
    for seg in prefix {
        let props = properties_of(node);
        let child = props
            .entry(seg.clone())
            .or_insert_with(|| json!({"type": "object", "properties": {}}));
        if child.get("x-mcp-header").is_some() || child.get("type") != Some(&json!("object")) {
            return false;
        }
        node = child;
    }
    let props = properties_of(node);
    if props.contains_key(last) {
        return false;
    }
    props.insert(last.clone(), leaf);
    true
}

fn properties_of(node: &mut Value) -> &mut Map<String, Value> {
    if !node.is_object() {
        *node = json!({"type": "object"});
    }
    let obj = node.as_object_mut().expect("made an object above");
    let props = obj
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if !props.is_object() {
        *props = Value::Object(Map::new());
    }
    props.as_object_mut().expect("made an object above")
}

/// A valid schema with 0..5 annotations (plus an unannotated `query` property).
pub fn valid_schema() -> impl Strategy<Value = LabelledSchema> {
    let one = (
        header_name(),
        prop::collection::vec(segment(), 1..4),
        kind(),
    );
    prop::collection::vec(one, 0..5).prop_map(|items| {
        let mut schema = json!({"type": "object", "properties": {"query": {"type": "string"}}});
        let mut planted: Vec<Planted> = Vec::new();
        for (header, path, kind) in items {
            if planted
                .iter()
                .any(|p| p.header.eq_ignore_ascii_case(&header))
            {
                continue;
            }
            let leaf = json!({"type": kind_name(kind), "x-mcp-header": header});
            if insert_at(&mut schema, &path, leaf) {
                planted.push(Planted { header, path, kind });
            }
        }
        LabelledSchema {
            schema,
            defect: None,
            planted,
        }
    })
}

/// Wrap `annotated` (a property schema carrying an annotation) somewhere off the chain.
fn off_chain(annotated: Value) -> impl Strategy<Value = Value> {
    let a = annotated;
    prop_oneof![
        Just(json!({"type": "array", "items": a.clone()})),
        Just(json!({"type": "array", "prefixItems": [a.clone()]})),
        Just(json!({"oneOf": [{"properties": {"r": a.clone()}}]})),
        Just(json!({"anyOf": [{"properties": {"r": a.clone()}}]})),
        Just(json!({"allOf": [{"properties": {"r": a.clone()}}]})),
        Just(json!({"not": {"properties": {"r": a.clone()}}})),
        Just(json!({"if": {"properties": {"r": a.clone()}}})),
        Just(json!({"then": {"properties": {"r": a.clone()}}})),
        Just(json!({"else": {"properties": {"r": a.clone()}}})),
        Just(json!({"$defs": {"R": a.clone()}, "$ref": "#/$defs/R"})),
        Just(json!({"type": "object", "additionalProperties": a.clone()})),
        Just(json!({"type": "object", "patternProperties": {"^r": a.clone()}})),
        Just(json!({"type": "object", "dependentSchemas": {"k": {"properties": {"r": a}}}})),
    ]
}

/// One defect and the schema fragment (or whole-schema change) that plants it.
fn defect() -> impl Strategy<Value = (SchemaDefect, Value)> {
    let bad_token = prop::sample::select(vec![
        "My Region",
        "Region:Primary",
        "Région",
        "Region\t1",
        "Reg\r\nX-Evil: 1",
        "Region\n",
        "(x)",
        "a/b",
    ]);
    prop_oneof![
        Just((
            SchemaDefect::Empty,
            json!({"type": "string", "x-mcp-header": ""})
        )),
        bad_token.prop_map(|t| (
            SchemaDefect::NotAToken,
            json!({"type": "string", "x-mcp-header": t})
        )),
        prop::sample::select(vec![json!(5), json!(true), json!(null), json!(["X"])]).prop_map(
            |v| (
                SchemaDefect::NotAString,
                json!({"type": "string", "x-mcp-header": v})
            )
        ),
        prop::sample::select(vec!["number", "array", "object", "null"]).prop_map(|t| (
            SchemaDefect::NotPrimitive,
            json!({"type": t, "x-mcp-header": "Bad"})
        )),
        Just((
            SchemaDefect::NotPrimitive,
            json!({"type": ["string", "null"], "x-mcp-header": "Bad"})
        )),
        prop::sample::select(vec![
            json!({"maximum": 9_007_199_254_740_992_u64}),
            json!({"minimum": -9_007_199_254_740_992_i64}),
            json!({"maximum": 1e300}),
        ])
        .prop_map(|mut b| {
            b["type"] = json!("integer");
            b["x-mcp-header"] = json!("Bad");
            (SchemaDefect::UnsafeBounds, b)
        }),
        off_chain(json!({"type": "string", "x-mcp-header": "Bad"}))
            .prop_map(|s| (SchemaDefect::Unreachable, s)),
    ]
}

/// A schema with exactly one planted defect.
pub fn invalid_schema() -> impl Strategy<Value = LabelledSchema> {
    prop_oneof![
        6 => (valid_schema(), defect(), segment()).prop_map(|(mut l, (d, frag), seg)| {
            // plant under a fresh top-level name so the path cannot collide
            let name = format!("bad_{seg}");
            let props = properties_of(&mut l.schema);
            props.insert(name, frag);
            l.defect = Some(d);
            l
        }),
        1 => (valid_schema(), any::<bool>()).prop_map(|(mut l, upper)| {
            let first = l.planted.first().map(|p| p.header.clone());
            let dup = match first {
                Some(h) if upper => h.to_ascii_uppercase(),
                Some(h) => h.to_ascii_lowercase(),
                None => {
                    properties_of(&mut l.schema)
                        .insert("dup_a".into(), json!({"type": "string", "x-mcp-header": "Dup"}));
                    "DUP".to_string()
                }
            };
            properties_of(&mut l.schema)
                .insert("dup_b".into(), json!({"type": "boolean", "x-mcp-header": dup}));
            l.defect = Some(SchemaDefect::Duplicate);
            l
        }),
        1 => valid_schema().prop_map(|mut l| {
            l.schema["x-mcp-header"] = json!("Root");
            l.defect = Some(SchemaDefect::Unreachable);
            l
        }),
    ]
}

/// Valid and invalid schemas, labelled.
pub fn labelled_schema() -> impl Strategy<Value = LabelledSchema> {
    prop_oneof![valid_schema(), invalid_schema()]
}

/// Arbitrary JSON biased towards schema keywords and `x-mcp-header` keys (for totality).
pub fn schema_like_json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        3 => prop::sample::select(vec![
            "properties", "x-mcp-header", "type", "items", "oneOf", "allOf", "$defs",
            "additionalProperties", "minimum", "maximum", "exclusiveMaximum", "const",
            "default", "if", "then", "not", "patternProperties",
        ])
        .prop_map(str::to_string),
        1 => "[a-zA-Z ]{0,6}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        prop::sample::select(vec!["string", "integer", "boolean", "number", "object"])
            .prop_map(|s| json!(s)),
        header_name().prop_map(Value::String),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}
