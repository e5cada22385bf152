//! Wide edits: beyond the runner's near-valid mix, any header field at any position removed,
//! replaced, recased or duplicated, headers of any name added (framing ones included), and
//! any node of a JSON body replaced or removed. The fuzzer and the property tests draw
//! them; the seeded runner does not (its `Mix` gives the family no weight).
//!
//! `WIDE_EDITS` is the family's table: each row is one variant's label, weight and draw.

use super::EditRow;
use crate::choice::{Draw, Pick, Source};
use mcpdiff_oracle::Case;
use serde_json::{json, Value};

/// One wide edit. `Pick` chooses among all the header fields the case carries.
#[derive(Clone, Debug, PartialEq)]
pub enum WideEdit {
    DropHeader(Pick),
    /// Replace a field's value.
    HeaderValue(Pick, Vec<u8>),
    /// Recase a field's name (benign: names are case-insensitive).
    HeaderNameCase(Pick, bool),
    DuplicateHeader(Pick),
    AddHeader(Vec<u8>, Vec<u8>),
    /// Walk down the JSON body (a member or element per step, as far as it goes), then
    /// change the node reached.
    JsonNode(Vec<Pick>, NodeChange),
}

/// What happens to the JSON node a `JsonNode` edit reaches.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeChange {
    /// Remove one member of an object (nothing else changes).
    RemoveMember(Pick),
    /// Add or overwrite a member of an object (nothing else changes).
    SetMember(String, Value),
    /// Replace the node.
    Replace(Value),
}

/// Header names worth planting.
pub const NAMES: &[&str] = &[
    "Mcp-Method",
    "Mcp-Name",
    "MCP-Protocol-Version",
    "Mcp-Param-Region",
    "Mcp-Param-Count",
    "Mcp-Param-Flag",
    "Mcp-Param-TargetRegion",
    "Mcp-Param-Opt",
    "Mcp-Session-Id",
    "Last-Event-ID",
    "Origin",
    "Content-Type",
    "Accept",
    "Host",
    "Content-Length",
    "Transfer-Encoding",
];

/// Header values (and JSON strings) worth planting: versions, methods, sentinels, origins,
/// booleans.
pub const VALUES: &[&str] = &[
    "2026-07-28",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
    "1999-01-01",
    "tools/call",
    "tools/list",
    "resources/read",
    "prompts/get",
    "server/discover",
    "subscriptions/listen",
    "notifications/cancelled",
    "initialize",
    "ping",
    "get_weather",
    "execute_sql",
    "=?base64?Y2Fmw6lfbWVudQ==?=",
    "=?base64?Y2Fmw6lfbWVudQ?=",
    "=?base64?!!?=",
    "=?base64??=",
    "=?BASE64?dXMtd2VzdDE=?=",
    "us-west1",
    "US-WEST1",
    "42",
    "42.0",
    "true",
    "True",
    "null",
    "http://evil.example",
    "http://localhost:3000",
    "application/json",
    "text/plain",
    "",
];

/// Member names a `SetMember` uses: JSON-RPC and MCP members, and odd ones.
const MEMBERS: &[&str] = &[
    "jsonrpc",
    "id",
    "method",
    "params",
    "result",
    "error",
    "_meta",
    "name",
    "uri",
    "arguments",
    "region",
    "",
    "x y",
];

/// A wide row's draw: the variant's values, given the target drawn before the row.
pub type WideDraw = fn(&mut dyn Source, Pick) -> WideEdit;

/// The wide edits (the target is drawn before the row, as for header edits).
pub const WIDE_EDITS: &[EditRow<WideDraw>] = &[
    EditRow::new("DropHeader", 2, |_, p| WideEdit::DropHeader(p)),
    EditRow::new("HeaderValue", 3, |r, p| {
        WideEdit::HeaderValue(p, header_value(r))
    }),
    EditRow::new("HeaderNameCase", 1, |r, p| {
        WideEdit::HeaderNameCase(p, r.coin())
    }),
    EditRow::new("DuplicateHeader", 1, |_, p| WideEdit::DuplicateHeader(p)),
    EditRow::new("AddHeader", 2, |r, _| {
        WideEdit::AddHeader(header_name(r), header_value(r))
    }),
    EditRow::new("JsonNode", 3, |r, _| {
        let depth = r.below(5);
        let path = (0..depth).map(|_| Pick(r.next_u64())).collect();
        let change = match r.below(3) {
            0 => NodeChange::RemoveMember(Pick(r.next_u64())),
            1 => NodeChange::SetMember(r.pick(MEMBERS).to_string(), json_value(r)),
            _ => NodeChange::Replace(json_value(r)),
        };
        WideEdit::JsonNode(path, change)
    }),
];

/// A wide edit: the target first, then a weighted row and its values.
pub fn draw(r: &mut dyn Source) -> WideEdit {
    let pick = Pick(r.next_u64());
    (r.weighted_row(WIDE_EDITS, |row| row.weight).draw)(r, pick)
}

impl WideEdit {
    /// The variant's name (the case label).
    pub fn name(&self) -> &'static str {
        match self {
            WideEdit::DropHeader(_) => "DropHeader",
            WideEdit::HeaderValue(..) => "HeaderValue",
            WideEdit::HeaderNameCase(..) => "HeaderNameCase",
            WideEdit::DuplicateHeader(_) => "DuplicateHeader",
            WideEdit::AddHeader(..) => "AddHeader",
            WideEdit::JsonNode(..) => "JsonNode",
        }
    }
}

/// A header name: mostly one worth planting, sometimes any bytes.
pub fn header_name(r: &mut dyn Source) -> Vec<u8> {
    if r.below(8) < 7 {
        r.pick(NAMES).as_bytes().to_vec()
    } else {
        raw_bytes(r)
    }
}

/// A header value: mostly one worth planting, sometimes any bytes.
pub fn header_value(r: &mut dyn Source) -> Vec<u8> {
    if r.below(4) < 3 {
        r.pick(VALUES).as_bytes().to_vec()
    } else {
        raw_bytes(r)
    }
}

/// Up to 64 arbitrary bytes.
pub fn raw_bytes(r: &mut dyn Source) -> Vec<u8> {
    let n = r.below(65);
    r.byte_string(n)
}

/// A JSON value on the edges of the rules: null, booleans, numbers at the safe-integer
/// bounds, planted strings, empty and small containers.
fn json_value(r: &mut dyn Source) -> Value {
    match r.below(6) {
        0 => Value::Null,
        1 => Value::Bool(r.coin()),
        2 => r
            .pick_ref(&[
                json!(0),
                json!(-1),
                json!(9_007_199_254_740_991i64),
                json!(9_007_199_254_740_992i64),
                json!(1.5),
                json!(1e300),
            ])
            .clone(),
        3 => Value::String(r.pick(VALUES).to_string()),
        4 => r.pick_ref(&[json!([]), json!([1]), json!([{}])]).clone(),
        _ => r
            .pick_ref(&[json!({}), json!({"a": 1}), json!({"region": "x"})])
            .clone(),
    }
}

/// Index of the targeted header field (any), if the case has any.
fn target(case: &Case, i: Pick) -> Option<usize> {
    (!case.headers.is_empty()).then(|| i.index(case.headers.len()))
}

/// Apply a header edit of this family (`JsonNode` goes through `apply_json`).
pub fn apply(op: &WideEdit, case: &mut Case) {
    let h = &mut case.headers;
    match op {
        WideEdit::DropHeader(i) => {
            if let Some(k) = target(case, *i) {
                case.headers.remove(k);
            }
        }
        WideEdit::HeaderValue(i, v) => {
            if let Some(k) = target(case, *i) {
                case.headers[k].1.clone_from(v);
            }
        }
        WideEdit::HeaderNameCase(i, upper) => {
            if let Some(k) = target(case, *i) {
                let name = &mut case.headers[k].0;
                if *upper {
                    name.make_ascii_uppercase();
                } else {
                    name.make_ascii_lowercase();
                }
            }
        }
        WideEdit::DuplicateHeader(i) => {
            if let Some(k) = target(case, *i) {
                let dup = case.headers[k].clone();
                case.headers.push(dup);
            }
        }
        WideEdit::AddHeader(n, v) => h.push((n.clone(), v.clone())),
        WideEdit::JsonNode(..) => {}
    }
}

/// Apply a `JsonNode` edit to a body being edited as JSON (other edits: nothing).
pub fn apply_json(op: &WideEdit, body: &mut Value) {
    let WideEdit::JsonNode(path, change) = op else {
        return;
    };
    // find the node as a JSON pointer first (walking with a `&mut` cursor would hold the
    // borrow across the loop)
    let mut pointer = String::new();
    for step in path {
        let Some(cur) = body.pointer(&pointer) else {
            break;
        };
        let key = match cur {
            Value::Object(m) if !m.is_empty() => m
                .keys()
                .nth(step.index(m.len()))
                .map(|k| k.replace('~', "~0").replace('/', "~1")),
            Value::Array(a) if !a.is_empty() => Some(step.index(a.len()).to_string()),
            _ => None,
        };
        let Some(k) = key else {
            break;
        };
        pointer.push('/');
        pointer.push_str(&k);
    }
    let Some(node) = body.pointer_mut(&pointer) else {
        return;
    };
    match (change, node) {
        (NodeChange::RemoveMember(i), Value::Object(m)) if !m.is_empty() => {
            let key = m.keys().nth(i.index(m.len())).cloned();
            if let Some(k) = key {
                m.remove(&k);
            }
        }
        (NodeChange::SetMember(k, v), Value::Object(m)) => {
            m.insert(k.clone(), v.clone());
        }
        (NodeChange::Replace(v), node) => *node = v.clone(),
        _ => {}
    }
}
