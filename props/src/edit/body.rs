//! Body edits: `_meta` fields missing or wrong, the version unsupported in header and body,
//! ids of every JSON type, wrong `jsonrpc`, a body value changed so headers no longer match,
//! notifications, responses, batches, deep nesting, huge numbers, non-UTF-8 and trailing
//! bytes, bodies that are not JSON at all, and the isolation forms of `reading`.
//!
//! `BODY_EDITS` is the family's table: each row is one variant's label, weight and draw.
//! Most edits work on the body as JSON; `on_bytes` ones work on its bytes (see `apply_all`).

use super::reading::{self, Form, FORMS};
use super::EditRow;
use crate::choice::{Draw, Pick, Source};
use mcpdiff_oracle::case::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use mcpdiff_oracle::Case;
use serde_json::{json, Value};

/// One body edit.
#[derive(Clone, Debug, PartialEq)]
pub enum BodyEdit {
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
    /// An isolation form of the character rules (`reading`).
    Reading(Pick, Form),
}

/// A body row's draw: the variant's values.
pub type BodyDraw = fn(&mut dyn Source) -> BodyEdit;

/// The body edits, weighted towards the `_meta`, id and header-mirroring defects.
pub const BODY_EDITS: &[EditRow<BodyDraw>] = &[
    EditRow::new("MetaVersion", 4, |r| {
        BodyEdit::MetaVersion(r.pick(&["2025-11-25", "2025-06-18", "2026-07-29", "", "latest"]))
    }),
    EditRow::new("Unsupported", 4, |r| {
        BodyEdit::Unsupported(r.pick(&["1900-01-01", "2099-12-31", "latest", "2025-03-26"]))
    }),
    EditRow::new("DropMeta", 2, |_| BodyEdit::DropMeta),
    EditRow::new("DropCapabilities", 3, |_| BodyEdit::DropCapabilities),
    EditRow::new("DropProtocolVersion", 2, |_| BodyEdit::DropProtocolVersion),
    EditRow::new("Id", 3, |r| {
        BodyEdit::Id(match r.below(9) {
            0 => json!("abc"),
            1 => json!(0),
            2 => json!(-1),
            3 => json!(9007199254740993u64),
            4 => json!(1.5),
            5 => Value::Null,
            6 => json!({"a": 1}),
            7 => json!([1]),
            _ => json!(true),
        })
    }),
    EditRow::new("DropId", 2, |_| BodyEdit::DropId),
    EditRow::new("JsonRpc", 1, |r| {
        BodyEdit::JsonRpc(match r.below(3) {
            0 => json!("1.0"),
            1 => json!(2.0),
            _ => Value::Null,
        })
    }),
    EditRow::new("Method", 3, |r| {
        BodyEdit::Method(r.pick(&["tools/list", "prompts/list", "TOOLS/CALL", "ping", "x/y"]))
    }),
    EditRow::new("Name", 4, |r| {
        BodyEdit::Name(match r.below(4) {
            0 => {
                let mut n = String::new();
                let len = r.len(1, 10);
                r.push_from(&mut n, len, b"abcdefghijklmnopqrstuvwxyz_");
                n
            }
            1 => "caf\u{e9}".to_string(),
            2 => "get_weather".to_string(),
            _ => "execute_sql".to_string(),
        })
    }),
    EditRow::new("Argument", 6, |r| {
        let pick = Pick(r.next_u64());
        BodyEdit::Argument(
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
    }),
    EditRow::new("Response", 1, |_| BodyEdit::Response),
    EditRow::new("Batch", 1, |_| BodyEdit::Batch),
    EditRow::new("DeepNesting", 1, |r| BodyEdit::DeepNesting(r.len(10, 1999))),
    EditRow::new("HugeNumber", 1, |_| BodyEdit::HugeNumber),
    EditRow::new("TrailingBytes", 1, |r| {
        BodyEdit::TrailingBytes(r.pick(&[b"x".as_slice(), b"\n{}", b" ", b"\0"]))
    }),
    EditRow::new("NonUtf8", 1, |_| BodyEdit::NonUtf8),
    EditRow::new("Truncate", 1, |r| BodyEdit::Truncate(r.below(200))),
    EditRow::new("Garbage", 1, |r| {
        let len = r.below(48);
        BodyEdit::Garbage(r.byte_string(len))
    }),
    EditRow::new("Reading", 4, |r| {
        BodyEdit::Reading(Pick(r.next_u64()), r.pick(&FORMS))
    }),
];

/// A body edit: a weighted row and its values.
pub fn draw(r: &mut dyn Source) -> BodyEdit {
    (r.weighted_row(BODY_EDITS, |row| row.weight).draw)(r)
}

impl BodyEdit {
    /// The variant's name (the case label).
    pub fn name(&self) -> &'static str {
        match self {
            BodyEdit::MetaVersion(_) => "MetaVersion",
            BodyEdit::Unsupported(_) => "Unsupported",
            BodyEdit::DropMeta => "DropMeta",
            BodyEdit::DropCapabilities => "DropCapabilities",
            BodyEdit::DropProtocolVersion => "DropProtocolVersion",
            BodyEdit::Id(_) => "Id",
            BodyEdit::DropId => "DropId",
            BodyEdit::JsonRpc(_) => "JsonRpc",
            BodyEdit::Method(_) => "Method",
            BodyEdit::Name(_) => "Name",
            BodyEdit::Argument(..) => "Argument",
            BodyEdit::Response => "Response",
            BodyEdit::Batch => "Batch",
            BodyEdit::DeepNesting(_) => "DeepNesting",
            BodyEdit::HugeNumber => "HugeNumber",
            BodyEdit::TrailingBytes(_) => "TrailingBytes",
            BodyEdit::NonUtf8 => "NonUtf8",
            BodyEdit::Truncate(_) => "Truncate",
            BodyEdit::Garbage(_) => "Garbage",
            BodyEdit::Reading(..) => "Reading",
        }
    }

    /// Whether the op edits the body as bytes (ending JSON editing) rather than as JSON.
    pub fn on_bytes(&self) -> bool {
        matches!(
            self,
            BodyEdit::TrailingBytes(_)
                | BodyEdit::NonUtf8
                | BodyEdit::Truncate(_)
                | BodyEdit::Garbage(_)
                | BodyEdit::DeepNesting(_)
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

pub fn apply(op: &BodyEdit, case: &mut Case, body: &mut Option<Value>) {
    // ops that leave JSON behind work on bytes
    match op {
        BodyEdit::TrailingBytes(t) => {
            let mut b = raw(case, body);
            b.extend_from_slice(t);
            case.body = b;
            return;
        }
        BodyEdit::NonUtf8 => {
            let b = raw(case, body);
            let s = String::from_utf8_lossy(&b).replacen("\"2.0\"", "\"2.\u{fffd}\"", 1);
            case.body = s
                .into_bytes()
                .iter()
                .map(|&c| if c == 0xbd { 0xff } else { c })
                .collect();
            return;
        }
        BodyEdit::Truncate(n) => {
            let mut b = raw(case, body);
            b.truncate((*n).min(b.len().saturating_sub(1)));
            case.body = b;
            return;
        }
        BodyEdit::Garbage(g) => {
            *body = None;
            case.body = g.clone();
            return;
        }
        BodyEdit::DeepNesting(depth) => {
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
        BodyEdit::MetaVersion(ver) => {
            if let Some(m) = meta(v) {
                m.insert(META_PROTOCOL_VERSION.into(), json!(ver));
            }
        }
        BodyEdit::Unsupported(ver) => {
            if let Some(m) = meta(v) {
                m.insert(META_PROTOCOL_VERSION.into(), json!(ver));
            }
            case.set_header("MCP-Protocol-Version", Some(ver.as_bytes()));
        }
        BodyEdit::DropMeta => {
            v.get_mut("params")
                .and_then(Value::as_object_mut)
                .map(|p| p.remove("_meta"));
        }
        BodyEdit::DropCapabilities => {
            meta(v).map(|m| m.remove(META_CLIENT_CAPABILITIES));
        }
        BodyEdit::DropProtocolVersion => {
            meta(v).map(|m| m.remove(META_PROTOCOL_VERSION));
        }
        BodyEdit::Id(id) => set_member(v, "id", id.clone()),
        BodyEdit::DropId => {
            v.as_object_mut().map(|o| o.remove("id"));
        }
        BodyEdit::JsonRpc(j) => set_member(v, "jsonrpc", j.clone()),
        BodyEdit::Method(m) => set_member(v, "method", json!(m)),
        BodyEdit::Name(n) => {
            if let Some(p) = v.get_mut("params").and_then(Value::as_object_mut) {
                let key = if p.contains_key("uri") { "uri" } else { "name" };
                p.insert(key.into(), json!(n));
            }
        }
        BodyEdit::Argument(i, val) => {
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
        BodyEdit::Response => {
            *v = json!({"jsonrpc": "2.0", "id": v.get("id").cloned().unwrap_or(json!(1)), "result": {}});
        }
        BodyEdit::Batch => *v = json!([v.clone()]),
        BodyEdit::HugeNumber => set_member(v, "id", json!(1e300)),
        BodyEdit::Reading(pick, form) => reading::apply(*form, *pick, case, v),
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
