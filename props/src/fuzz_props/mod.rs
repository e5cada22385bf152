//! The properties the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`) check, as plain
//! functions over fuzz bytes, so the same code runs under libFuzzer on nightly and, through
//! `props/tests/fuzz_regressions.rs`, over the saved inputs in `fuzz/regressions/` on stable.
//!
//! Each property returns `Err(why)` when it is broken; a panic inside the oracle is also a
//! failure (libFuzzer records it as a crash, the stable test as a failed test). The fuzz
//! targets are shims that panic on `Err`.
//!
//! Files: `arb_case.rs` (fuzz bytes to a `Case`), `arb_json.rs` (fuzz bytes to JSON values and
//! tool schemas).

pub mod arb_case;
pub mod arb_json;

pub use arb_case::{case_from_bytes, case_from_unstructured};

use arbitrary::Unstructured;
use mcpdiff_oracle::annotations::{extract, tool_header_params, Extracted, ParamKind};
use mcpdiff_oracle::encoding::sentinel::decoded_text;
use mcpdiff_oracle::encoding::{decode_header_value, encode_header_value, DecodedValue};
use mcpdiff_oracle::reference::{respond, to_observation};
use mcpdiff_oracle::rules::rule;
use mcpdiff_oracle::{check, fixture, judge, Demand, Surface, ToolDecl};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// The outcome of one property on one input.
pub type PropResult = Result<(), String>;

/// A property over fuzz bytes.
pub type Property = fn(&[u8]) -> PropResult;

/// The fuzz targets, by name, with their property (what `fuzz/regressions/<name>/` replays).
pub const TARGETS: &[(&str, Property)] = &[
    ("sentinel", sentinel),
    ("annotations", annotations),
    ("judge", judge_total),
    ("reference", reference_inside_verdict),
];

fn fixture_surface() -> &'static Surface {
    static S: OnceLock<Surface> = OnceLock::new();
    S.get_or_init(fixture::surface)
}

/// `sentinel`: decoding never panics; encode-then-decode gives the value back; a strictly
/// decoded sentinel re-encodes to the same bytes.
pub fn sentinel(data: &[u8]) -> PropResult {
    let decoded = decode_header_value(data);
    let _ = decoded_text(&decoded);
    if let DecodedValue::Decoded(text) = &decoded {
        // strict Base64 is canonical, so a text that needs the sentinel re-encodes exactly
        let again = encode_header_value(text);
        if mcpdiff_oracle::encoding::needs_encoding(text) && again.as_bytes() != data {
            return Err(format!(
                "{data:?} decodes to {text:?}, which encodes to {again:?}"
            ));
        }
    }
    let value = String::from_utf8_lossy(data);
    let header = encode_header_value(&value);
    let back = decode_header_value(header.as_bytes());
    match (&back, decoded_text(&back)) {
        (DecodedValue::Plain(_) | DecodedValue::Decoded(_), Some(t)) if t == value => Ok(()),
        _ => Err(format!(
            "{value:?} encodes to {header:?}, which decodes to {back:?}"
        )),
    }
}

/// `annotations`: `tool_header_params` and `extract` are total on an arbitrary schema and
/// arguments, and agree: every returned path leads through `properties` to a node carrying
/// that annotation and type, and `extract` reads back what is put at that path.
pub fn annotations(data: &[u8]) -> PropResult {
    let mut u = Unstructured::new(data);
    let (Ok(schema), Ok(args)) = (arb_json::schema(&mut u), arb_json::value(&mut u)) else {
        return Ok(()); // only an empty choice fails, which the generators never make
    };
    let tool = ToolDecl::new("t", schema.clone(), true);
    let Ok(params) = tool_header_params(&schema) else {
        return Ok(());
    };
    if tool.header_params.as_ref() != Ok(&params) {
        return Err("ToolDecl::new disagrees with tool_header_params".into());
    }
    for p in &params {
        let _ = extract(Some(&args), &p.path);
        let node = p
            .path
            .iter()
            .try_fold(&schema, |n, key| n.get("properties")?.get(key.as_str()));
        let Some(node) = node else {
            return Err(format!("no schema node at {:?} in {schema}", p.path));
        };
        let kind = match p.kind {
            ParamKind::String => "string",
            ParamKind::Integer => "integer",
            ParamKind::Boolean => "boolean",
        };
        if node.get("x-mcp-header") != Some(&json!(p.header))
            || node.get("type") != Some(&json!(kind))
        {
            return Err(format!("{p:?} does not match node {node} in {schema}"));
        }
        let planted = json!("probe-value");
        let mut placed = Value::Object(Map::new());
        put(&mut placed, &p.path, planted.clone());
        if extract(Some(&placed), &p.path) != Extracted::Value(&planted) {
            return Err(format!("extract misses the value put at {:?}", p.path));
        }
    }
    Ok(())
}

/// Put `v` at an object path, creating intermediate objects.
fn put(root: &mut Value, path: &[String], v: Value) {
    let Some((last, prefix)) = path.split_last() else {
        *root = v;
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

/// `judge`: on an arbitrary case and the fixture surface the oracle is total, deterministic,
/// names only rules of the table, and never allows an empty set of answers.
pub fn judge_total(data: &[u8]) -> PropResult {
    let case = case_from_bytes(data);
    let surface = fixture_surface();
    let v = judge(&case, surface);
    if judge(&case, surface) != v {
        return Err(format!("judge is not deterministic on {case:?}"));
    }
    for e in v.expectations() {
        if rule(e.rule).is_none() {
            return Err(format!("rule {} is not in the table", e.rule));
        }
        if matches!(&e.demand, Demand::OneOf(set) if set.is_empty()) {
            return Err(format!("{} allows no answer for {case:?}", e.rule));
        }
    }
    serde_json::to_value(&v).map_err(|e| format!("verdict does not serialize: {e}"))?;
    Ok(())
}

/// `reference`: the reference server's answer to an arbitrary case lies inside the
/// Verdict (`check` finds nothing).
pub fn reference_inside_verdict(data: &[u8]) -> PropResult {
    let case = case_from_bytes(data);
    let surface = fixture_surface();
    let obs = to_observation(&respond(&case, surface));
    let findings = check(&judge(&case, surface), &obs);
    if findings.is_empty() {
        Ok(())
    } else {
        Err(format!("reference breaks {findings:?} on {case:?}"))
    }
}
