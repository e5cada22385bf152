//! Defects planted in the JSON-RPC body: `_meta` fields missing or wrong, the version
//! unsupported in header and body, ids of every JSON type, wrong `jsonrpc`, a body value
//! changed so headers no longer match, notifications, responses, batches, deep nesting,
//! huge numbers, non-UTF-8 and trailing bytes, and bodies that are not JSON at all.

use mcpdiff_oracle::case::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use mcpdiff_oracle::Case;
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Clone, Debug)]
pub enum BodyOp {
    MetaVersion(&'static str),
    /// Header and body both name this (unsupported) version.
    Unsupported(&'static str),
    DropMeta,
    DropCapabilities,
    DropProtocolVersion,
    Id(Value),
    DropId,
    JsonRpc(Value),
    Method(&'static str),
    /// Change `params.name` / `params.uri` in the body only.
    Name(String),
    /// Change one argument's value in the body only.
    Argument(usize, Value),
    Response,
    Batch,
    DeepNesting(usize),
    HugeNumber,
    TrailingBytes(&'static [u8]),
    NonUtf8,
    Truncate(usize),
    Garbage(Vec<u8>),
}

pub fn body_op() -> BoxedStrategy<BodyOp> {
    prop_oneof![
        4 => prop::sample::select(vec!["2025-11-25", "2025-06-18", "2026-07-29", "", "latest"]).prop_map(BodyOp::MetaVersion),
        4 => prop::sample::select(vec!["1900-01-01", "2099-12-31", "latest", "2025-03-26"]).prop_map(BodyOp::Unsupported),
        2 => Just(BodyOp::DropMeta),
        3 => Just(BodyOp::DropCapabilities),
        2 => Just(BodyOp::DropProtocolVersion),
        3 => prop::sample::select(vec![
            json!("abc"), json!(0), json!(-1), json!(9007199254740993u64), json!(1.5),
            Value::Null, json!({"a": 1}), json!([1]), json!(true),
        ]).prop_map(BodyOp::Id),
        2 => Just(BodyOp::DropId),
        1 => prop::sample::select(vec![json!("1.0"), json!(2.0), Value::Null]).prop_map(BodyOp::JsonRpc),
        3 => prop::sample::select(vec!["tools/list", "prompts/list", "TOOLS/CALL", "ping", "x/y"]).prop_map(BodyOp::Method),
        4 => super::regex("[a-z_]{1,10}|caf\u{e9}|get_weather|execute_sql").prop_map(BodyOp::Name),
        6 => (0usize..8, prop_oneof![
            Just(json!("eu-west1")), Just(json!(43)), Just(json!(42.0)), Just(json!(false)),
            Just(Value::Null), Just(json!({"region": "x"})), Just(json!("=?base64?bGl0?=")),
            Just(json!("Hello, \u{4e16}\u{754c}")), Just(json!(" padded ")),
        ]).prop_map(|(i, v)| BodyOp::Argument(i, v)),
        1 => Just(BodyOp::Response),
        1 => Just(BodyOp::Batch),
        1 => (10usize..2000).prop_map(BodyOp::DeepNesting),
        1 => Just(BodyOp::HugeNumber),
        1 => prop::sample::select(vec![b"x".as_slice(), b"\n{}", b" ", b"\0"]).prop_map(BodyOp::TrailingBytes),
        1 => Just(BodyOp::NonUtf8),
        1 => (0usize..200).prop_map(BodyOp::Truncate),
        1 => prop::collection::vec(any::<u8>(), 0..48).prop_map(BodyOp::Garbage),
    ]
    .boxed()
}

fn meta(body: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    body.get_mut("params")?.get_mut("_meta")?.as_object_mut()
}

fn raw(case: &mut Case, body: &mut Option<Value>) -> Vec<u8> {
    match body.take() {
        // serializing a Value cannot fail (keys are strings)
        Some(v) => serde_json::to_vec(&v).unwrap_or_default(),
        None => std::mem::take(&mut case.body),
    }
}

pub fn apply(op: &BodyOp, case: &mut Case, body: &mut Option<Value>) {
    // ops that leave JSON behind work on bytes
    match op {
        BodyOp::TrailingBytes(t) => {
            let mut b = raw(case, body);
            b.extend_from_slice(t);
            case.body = b;
            return;
        }
        BodyOp::NonUtf8 => {
            let b = raw(case, body);
            let s = String::from_utf8_lossy(&b).replacen("\"2.0\"", "\"2.\u{fffd}\"", 1);
            case.body = s
                .into_bytes()
                .iter()
                .map(|&c| if c == 0xbd { 0xff } else { c })
                .collect();
            return;
        }
        BodyOp::Truncate(n) => {
            let mut b = raw(case, body);
            b.truncate((*n).min(b.len().saturating_sub(1)));
            case.body = b;
            return;
        }
        BodyOp::Garbage(g) => {
            *body = None;
            case.body = g.clone();
            return;
        }
        BodyOp::DeepNesting(depth) => {
            let mut b = raw(case, body);
            // nest inside params (or replace the body when it is not an object)
            let nest = format!("{}1{}", "[".repeat(*depth), "]".repeat(*depth));
            if b.ends_with(b"}}") {
                b.truncate(b.len() - 1);
                b.extend_from_slice(format!(",\"deep\":{nest}}}").as_bytes());
            } else {
                b = nest.into_bytes();
            }
            case.body = b;
            return;
        }
        _ => {}
    }
    let Some(v) = body.as_mut() else { return };
    match op {
        BodyOp::MetaVersion(ver) => {
            if let Some(m) = meta(v) {
                m.insert(META_PROTOCOL_VERSION.into(), json!(ver));
            }
        }
        BodyOp::Unsupported(ver) => {
            if let Some(m) = meta(v) {
                m.insert(META_PROTOCOL_VERSION.into(), json!(ver));
            }
            case.set_header("MCP-Protocol-Version", Some(ver.as_bytes()));
        }
        BodyOp::DropMeta => {
            v.get_mut("params")
                .and_then(Value::as_object_mut)
                .map(|p| p.remove("_meta"));
        }
        BodyOp::DropCapabilities => {
            meta(v).map(|m| m.remove(META_CLIENT_CAPABILITIES));
        }
        BodyOp::DropProtocolVersion => {
            meta(v).map(|m| m.remove(META_PROTOCOL_VERSION));
        }
        BodyOp::Id(id) => set_member(v, "id", id.clone()),
        BodyOp::DropId => {
            v.as_object_mut().map(|o| o.remove("id"));
        }
        BodyOp::JsonRpc(j) => set_member(v, "jsonrpc", j.clone()),
        BodyOp::Method(m) => set_member(v, "method", json!(m)),
        BodyOp::Name(n) => {
            if let Some(p) = v.get_mut("params").and_then(Value::as_object_mut) {
                let key = if p.contains_key("uri") { "uri" } else { "name" };
                p.insert(key.into(), json!(n));
            }
        }
        BodyOp::Argument(i, val) => {
            if let Some(args) = v
                .pointer_mut("/params/arguments")
                .and_then(Value::as_object_mut)
            {
                if !args.is_empty() {
                    let key = args.keys().nth(i % args.len()).cloned();
                    if let Some(k) = key {
                        args.insert(k, val.clone());
                    }
                }
            }
        }
        BodyOp::Response => {
            *v = json!({"jsonrpc": "2.0", "id": v.get("id").cloned().unwrap_or(json!(1)), "result": {}});
        }
        BodyOp::Batch => *v = json!([v.clone()]),
        BodyOp::HugeNumber => set_member(v, "id", json!(1e300)),
        _ => {}
    }
}

/// `v[key] = value` when `v` is an object. After `Batch` the body is an array, where
/// `IndexMut` with a string key panics (and a panic in the generator ends the whole run);
/// a member edit of an array has no meaning, so it is skipped.
fn set_member(v: &mut Value, key: &str, value: Value) {
    if let Some(o) = v.as_object_mut() {
        o.insert(key.to_string(), value);
    }
}
