//! Defects planted in the JSON-RPC body: `_meta` fields missing or wrong, the version
//! unsupported in header and body, ids of every JSON type, wrong `jsonrpc`, a body value
//! changed so headers no longer match, notifications, responses, batches, deep nesting,
//! huge numbers, non-UTF-8 and trailing bytes, and bodies that are not JSON at all.

use super::reading_ops::{self, Form, FORMS};
use super::rng::{Pick, Rng};
use mcpdiff_oracle::case::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use mcpdiff_oracle::Case;
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
    Argument(Pick, Value),
    Response,
    Batch,
    DeepNesting(usize),
    HugeNumber,
    TrailingBytes(&'static [u8]),
    NonUtf8,
    Truncate(usize),
    Garbage(Vec<u8>),
    /// An isolation form of the character rules (`reading_ops`).
    Reading(Pick, Form),
}

/// Weights of the `BodyOp` variants, in declaration order.
const WEIGHTS: [u32; 20] = [4, 4, 2, 3, 2, 3, 2, 1, 3, 4, 6, 1, 1, 1, 1, 1, 1, 1, 1, 4];

/// A body operation, weighted towards the `_meta`, id and header-mirroring defects.
pub fn draw(r: &mut Rng) -> BodyOp {
    match r.weighted(&WEIGHTS) {
        0 => BodyOp::MetaVersion(r.pick(&["2025-11-25", "2025-06-18", "2026-07-29", "", "latest"])),
        1 => BodyOp::Unsupported(r.pick(&["1900-01-01", "2099-12-31", "latest", "2025-03-26"])),
        2 => BodyOp::DropMeta,
        3 => BodyOp::DropCapabilities,
        4 => BodyOp::DropProtocolVersion,
        5 => BodyOp::Id(match r.below(9) {
            0 => json!("abc"),
            1 => json!(0),
            2 => json!(-1),
            3 => json!(9007199254740993u64),
            4 => json!(1.5),
            5 => Value::Null,
            6 => json!({"a": 1}),
            7 => json!([1]),
            _ => json!(true),
        }),
        6 => BodyOp::DropId,
        7 => BodyOp::JsonRpc(match r.below(3) {
            0 => json!("1.0"),
            1 => json!(2.0),
            _ => Value::Null,
        }),
        8 => BodyOp::Method(r.pick(&["tools/list", "prompts/list", "TOOLS/CALL", "ping", "x/y"])),
        9 => BodyOp::Name(match r.below(4) {
            0 => {
                let mut n = String::new();
                let len = r.len(1, 10);
                r.push_from(&mut n, len, b"abcdefghijklmnopqrstuvwxyz_");
                n
            }
            1 => "caf\u{e9}".to_string(),
            2 => "get_weather".to_string(),
            _ => "execute_sql".to_string(),
        }),
        10 => {
            let pick = Pick(r.next_u64());
            BodyOp::Argument(
                pick,
                match r.below(9) {
                    0 => json!("eu-west1"),
                    1 => json!(43),
                    2 => json!(42.0),
                    3 => json!(false),
                    4 => Value::Null,
                    5 => json!({"region": "x"}),
                    6 => json!("=?base64?bGl0?="),
                    7 => json!("Hello, \u{4e16}\u{754c}"),
                    _ => json!(" padded "),
                },
            )
        }
        11 => BodyOp::Response,
        12 => BodyOp::Batch,
        13 => BodyOp::DeepNesting(r.len(10, 1999)),
        14 => BodyOp::HugeNumber,
        15 => BodyOp::TrailingBytes(r.pick(&[b"x".as_slice(), b"\n{}", b" ", b"\0"])),
        16 => BodyOp::NonUtf8,
        17 => BodyOp::Truncate(r.below(200)),
        18 => {
            let len = r.below(48);
            BodyOp::Garbage((0..len).map(|_| r.next_u64() as u8).collect())
        }
        _ => BodyOp::Reading(Pick(r.next_u64()), r.pick(&FORMS)),
    }
}

impl BodyOp {
    /// The variant's name (the case label).
    pub fn name(&self) -> &'static str {
        match self {
            BodyOp::MetaVersion(_) => "MetaVersion",
            BodyOp::Unsupported(_) => "Unsupported",
            BodyOp::DropMeta => "DropMeta",
            BodyOp::DropCapabilities => "DropCapabilities",
            BodyOp::DropProtocolVersion => "DropProtocolVersion",
            BodyOp::Id(_) => "Id",
            BodyOp::DropId => "DropId",
            BodyOp::JsonRpc(_) => "JsonRpc",
            BodyOp::Method(_) => "Method",
            BodyOp::Name(_) => "Name",
            BodyOp::Argument(..) => "Argument",
            BodyOp::Response => "Response",
            BodyOp::Batch => "Batch",
            BodyOp::DeepNesting(_) => "DeepNesting",
            BodyOp::HugeNumber => "HugeNumber",
            BodyOp::TrailingBytes(_) => "TrailingBytes",
            BodyOp::NonUtf8 => "NonUtf8",
            BodyOp::Truncate(_) => "Truncate",
            BodyOp::Garbage(_) => "Garbage",
            BodyOp::Reading(..) => "Reading",
        }
    }

    /// Whether the op edits the body as bytes (ending JSON editing) rather than as JSON.
    pub fn on_bytes(&self) -> bool {
        matches!(
            self,
            BodyOp::TrailingBytes(_)
                | BodyOp::NonUtf8
                | BodyOp::Truncate(_)
                | BodyOp::Garbage(_)
                | BodyOp::DeepNesting(_)
        )
    }
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
            // a top-level member `deep` (or the whole body when it is not an object): deep
            // nesting for the parser, and a member JSON-RPC 2.0 does not define (D-48)
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
                    let key = args.keys().nth(i.index(args.len())).cloned();
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
        BodyOp::Reading(pick, form) => reading_ops::apply(*form, *pick, case, v),
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
