//! Arbitrary `Case`s: mostly near-valid MCP requests against the fixture surface with one
//! planted defect (labelled in `Case::labels`), some fully valid ones, and some garbage
//! (random methods, paths, header bytes and bodies).

use super::values::{header_string, integer, primitive_value, raw_header_bytes};
use crate::fixture::{CAFE_TOOL, CODE_REVIEW, CONFIG_URI, ENDPOINT, EXECUTE_SQL, GET_WEATHER};
use mcpdiff_oracle::annotations::header_text;
use mcpdiff_oracle::case::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, MODERN_VERSION};
use mcpdiff_oracle::encoding::encode_header_value;
use mcpdiff_oracle::Case;
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Map, Value};

/// The `_meta` every modern request carries.
pub fn modern_meta() -> Value {
    json!({META_PROTOCOL_VERSION: MODERN_VERSION, META_CLIENT_CAPABILITIES: {}})
}

/// A request under construction: the body stays JSON until the end so defects can edit it.
#[derive(Clone, Debug)]
struct Draft {
    case: Case,
    body: Value,
}

impl Draft {
    /// A conformant POST for `method` with `params` (the `_meta` is added) and, when the
    /// method mirrors one, the `Mcp-Name` source value.
    fn new(method: &str, mut params: Map<String, Value>, name: Option<&str>) -> Draft {
        params.insert("_meta".into(), modern_meta());
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let mut headers = vec![
            ("Content-Type", "application/json".to_string()),
            ("Accept", "application/json, text/event-stream".to_string()),
            ("MCP-Protocol-Version", MODERN_VERSION.to_string()),
            ("Mcp-Method", method.to_string()),
        ];
        if let Some(n) = name {
            headers.push(("Mcp-Name", encode_header_value(n)));
        }
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        Draft {
            case: Case::post(ENDPOINT, &headers, Vec::new()),
            body,
        }
    }

    fn finish(mut self) -> Case {
        // serializing a `Value` cannot fail (all map keys are strings)
        self.case.body = serde_json::to_vec(&self.body).unwrap_or_default();
        self.case
    }
}

/// The `execute_sql` arguments and their `Mcp-Param-*` headers, as a conformant client
/// sends them (absent and null values get no header).
fn execute_sql() -> impl Strategy<Value = Draft> {
    let opt = prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        header_string().prop_map(|s| Some(json!(s)))
    ];
    let target = prop_oneof![Just(None), header_string().prop_map(Some)];
    (
        header_string(),
        "[A-Z ]{0,12}",
        integer(),
        any::<bool>(),
        opt,
        target,
    )
        .prop_map(|(region, query, count, flag, opt, target)| {
            let mut args = Map::new();
            args.insert("region".into(), json!(region));
            args.insert("query".into(), json!(query));
            args.insert("count".into(), json!(count));
            args.insert("flag".into(), json!(flag));
            if let Some(o) = &opt {
                args.insert("opt".into(), o.clone());
            }
            if let Some(t) = &target {
                args.insert("target".into(), json!({"region": t}));
            }
            let mirrored = [
                ("Region", Some(json!(region))),
                ("Count", Some(json!(count))),
                ("Flag", Some(json!(flag))),
                ("Opt", opt),
                ("TargetRegion", target.map(Value::String)),
            ];
            let mut params = Map::new();
            params.insert("name".into(), json!(EXECUTE_SQL));
            params.insert("arguments".into(), Value::Object(args));
            let mut d = Draft::new("tools/call", params, Some(EXECUTE_SQL));
            for (h, v) in mirrored {
                if let Some(text) = v.as_ref().and_then(header_text) {
                    d.case.headers.push((
                        format!("Mcp-Param-{h}").into_bytes(),
                        encode_header_value(&text).into_bytes(),
                    ));
                }
            }
            d
        })
        .boxed()
}

fn with(pairs: &[(&str, Value)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// A conformant request to the fixture surface.
fn valid_draft() -> impl Strategy<Value = Draft> {
    let listing = prop::sample::select(vec![
        "server/discover",
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
    ])
    .prop_map(|m| Draft::new(m, Map::new(), None));
    let weather = "[A-Za-z ,]{0,16}".prop_map(|loc| {
        let p = with(&[
            ("name", json!(GET_WEATHER)),
            ("arguments", json!({"location": loc})),
        ]);
        Draft::new("tools/call", p, Some(GET_WEATHER))
    });
    let cafe = Just(()).prop_map(|_| {
        let p = with(&[("name", json!(CAFE_TOOL)), ("arguments", json!({}))]);
        Draft::new("tools/call", p, Some(CAFE_TOOL))
    });
    let read = prop_oneof![
        Just(CONFIG_URI.to_string()),
        "[a-z0-9]{1,6}".prop_map(|d| format!("file:///logs/{d}.log")),
    ]
    .prop_map(|uri| Draft::new("resources/read", with(&[("uri", json!(uri))]), Some(&uri)));
    let prompt = Just(()).prop_map(|_| {
        let p = with(&[("name", json!(CODE_REVIEW)), ("arguments", json!({}))]);
        Draft::new("prompts/get", p, Some(CODE_REVIEW))
    });
    prop_oneof![2 => listing, 1 => weather, 4 => execute_sql(), 1 => cafe, 1 => read, 1 => prompt]
        .boxed()
}

/// One planted defect (or, for `NameCase`/`Ows`, a variation the spec says must not matter).
#[derive(Clone, Debug)]
pub enum Defect {
    DropHeader(Index),
    HeaderValue(Index, Vec<u8>),
    NameCase(Index),
    Ows(Index),
    DuplicateHeader(Index),
    ExtraHeader(Vec<u8>, Vec<u8>),
    ProtocolVersion(String),
    MetaVersion(String),
    DropMeta,
    DropCapabilities,
    Id(Option<Value>),
    JsonRpc(Value),
    RpcMethod(String),
    ParamName(String),
    Argument(String, Value),
    Truncate(Index),
    Batch,
    RawBody(Vec<u8>),
    HttpMethod(String),
    Path(String),
    Origin(String),
}

fn version() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "2025-06-18",
            "2025-03-26",
            "2099-01-01",
            "",
            "2026-07-28 "
        ])
        .prop_map(str::to_string),
        "[0-9-]{0,12}",
    ]
}

fn rpc_method() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "tools/list",
            "tools/call",
            "TOOLS/LIST",
            "initialize",
            "ping",
            "foo/bar",
            "subscriptions/listen",
            "resources/read",
            "prompts/get",
            "notifications/cancelled",
        ])
        .prop_map(str::to_string),
        "[a-z/]{0,12}",
    ]
}

/// A defect strategy.
pub fn defect() -> impl Strategy<Value = Defect> {
    prop_oneof![
        3 => any::<Index>().prop_map(Defect::DropHeader),
        3 => (any::<Index>(), raw_header_bytes()).prop_map(|(i, v)| Defect::HeaderValue(i, v)),
        1 => any::<Index>().prop_map(Defect::NameCase),
        1 => any::<Index>().prop_map(Defect::Ows),
        1 => any::<Index>().prop_map(Defect::DuplicateHeader),
        1 => ("Mcp-Param-[A-Za-z]{1,8}|Mcp-Name|Origin|Mcp-Session-Id", raw_header_bytes())
            .prop_map(|(n, v)| Defect::ExtraHeader(n.into_bytes(), v)),
        2 => version().prop_map(Defect::ProtocolVersion),
        1 => version().prop_map(Defect::MetaVersion),
        1 => Just(Defect::DropMeta),
        1 => Just(Defect::DropCapabilities),
        1 => prop_oneof![
            Just(None),
            Just(Some(Value::Null)),
            Just(Some(json!("1"))),
            Just(Some(json!(1.5))),
            Just(Some(json!({"a": 1}))),
        ]
        .prop_map(Defect::Id),
        1 => prop::sample::select(vec![json!("1.0"), json!(2.0), Value::Null]).prop_map(Defect::JsonRpc),
        2 => rpc_method().prop_map(Defect::RpcMethod),
        2 => prop_oneof![header_string(), Just("nope".to_string())].prop_map(Defect::ParamName),
        3 => (
            prop::sample::select(vec!["region", "count", "flag", "opt", "target", "location"]),
            prop_oneof![primitive_value(), Just(json!({"region": "x"})), Just(json!([1]))],
        )
            .prop_map(|(k, v)| Defect::Argument(k.to_string(), v)),
        1 => any::<Index>().prop_map(Defect::Truncate),
        1 => Just(Defect::Batch),
        1 => prop::collection::vec(any::<u8>(), 0..32).prop_map(Defect::RawBody),
        1 => prop::sample::select(vec!["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "post"])
            .prop_map(|m| Defect::HttpMethod(m.to_string())),
        1 => prop::sample::select(vec!["/", "/mcp/", "/MCP", "/sse", "/mcp?x=1"])
            .prop_map(|p| Defect::Path(p.to_string())),
        1 => prop::sample::select(vec!["http://evil.example", "null", "http://localhost"])
            .prop_map(|o| Defect::Origin(o.to_string())),
    ]
    .boxed()
}

fn label(d: &Defect) -> String {
    let s = format!("{d:?}");
    s.split(['(', ' ']).next().unwrap_or_default().to_string()
}

fn params(b: &mut Value) -> Option<&mut Map<String, Value>> {
    b.get_mut("params").and_then(Value::as_object_mut)
}

/// Apply `d` to `draft`, returning the finished case.
fn plant(mut draft: Draft, d: Defect) -> Case {
    draft.case.labels.push(label(&d));
    let n = draft.case.headers.len();
    match d {
        Defect::DropHeader(i) if n > 0 => {
            draft.case.headers.remove(i.index(n));
        }
        Defect::HeaderValue(i, v) if n > 0 => draft.case.headers[i.index(n)].1 = v,
        Defect::NameCase(i) if n > 0 => {
            let name = &mut draft.case.headers[i.index(n)].0;
            *name = name.iter().map(u8::to_ascii_uppercase).collect();
        }
        Defect::Ows(i) if n > 0 => {
            let v = &mut draft.case.headers[i.index(n)].1;
            *v = [b" \t".as_slice(), v, b"  "].concat();
        }
        Defect::DuplicateHeader(i) if n > 0 => {
            let h = draft.case.headers[i.index(n)].clone();
            draft.case.headers.push(h);
        }
        Defect::ExtraHeader(name, v) => draft.case.headers.push((name, v)),
        Defect::ProtocolVersion(v) => draft
            .case
            .set_header("MCP-Protocol-Version", Some(v.as_bytes())),
        Defect::MetaVersion(v) => {
            draft.body["params"]["_meta"][META_PROTOCOL_VERSION] = json!(v);
        }
        Defect::DropMeta => {
            params(&mut draft.body).map(|p| p.remove("_meta"));
        }
        Defect::DropCapabilities => {
            if let Some(m) = draft.body["params"]["_meta"].as_object_mut() {
                m.remove(META_CLIENT_CAPABILITIES);
            }
        }
        Defect::Id(None) => {
            draft.body.as_object_mut().map(|o| o.remove("id"));
        }
        Defect::Id(Some(v)) => draft.body["id"] = v,
        Defect::JsonRpc(v) => draft.body["jsonrpc"] = v,
        Defect::RpcMethod(m) => draft.body["method"] = json!(m),
        Defect::ParamName(name) => {
            if let Some(p) = params(&mut draft.body) {
                let key = if p.contains_key("uri") { "uri" } else { "name" };
                p.insert(key.into(), json!(name));
            }
        }
        Defect::Argument(k, v) => {
            if let Some(args) = draft.body["params"]["arguments"].as_object_mut() {
                args.insert(k, v);
            }
        }
        Defect::Truncate(i) => {
            let mut c = draft.finish();
            let len = c.body.len();
            c.body.truncate(i.index(len.max(1)));
            return c;
        }
        Defect::Batch => draft.body = json!([draft.body]),
        Defect::RawBody(bytes) => {
            let mut c = draft.finish();
            c.body = bytes;
            return c;
        }
        Defect::HttpMethod(m) => draft.case.method = m,
        Defect::Path(p) => draft.case.path = p,
        Defect::Origin(o) => draft.case.set_header("Origin", Some(o.as_bytes())),
        // an index into no headers: nothing to plant
        _ => {}
    }
    draft.finish()
}

/// A conformant request to the fixture surface (no defect).
pub fn valid_case() -> impl Strategy<Value = Case> {
    valid_draft().prop_map(Draft::finish).boxed()
}

/// A conformant request with exactly one planted defect.
pub fn near_valid_case() -> impl Strategy<Value = Case> {
    (valid_draft(), defect())
        .prop_map(|(d, x)| plant(d, x))
        .boxed()
}

/// Random bytes in every position: method, path, headers, body.
pub fn garbage_case() -> impl Strategy<Value = Case> {
    let method = prop_oneof![
        prop::sample::select(vec![
            "POST", "GET", "PUT", "DELETE", "HEAD", "OPTIONS", "BREW"
        ])
        .prop_map(str::to_string),
        "[A-Z]{0,8}",
        any::<String>(),
    ];
    let name = prop_oneof![
        prop::sample::select(vec![
            "Content-Type",
            "Accept",
            "MCP-Protocol-Version",
            "Mcp-Method",
            "Mcp-Name",
            "Mcp-Param-Region",
            "Origin",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..12),
    ];
    let body = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..64),
        header_string().prop_map(String::into_bytes),
        Just(b"{\"jsonrpc\":".to_vec()),
    ];
    (
        method,
        prop_oneof![Just(ENDPOINT.to_string()), "/[ -~]{0,10}"],
        prop::collection::vec((name, raw_header_bytes()), 0..8),
        body,
    )
        .prop_map(|(method, path, headers, body)| Case {
            method,
            path,
            headers,
            body,
            labels: vec!["Garbage".to_string()],
        })
        .boxed()
}

/// The mix the fuzzer draws from: mostly near-valid, some valid, some garbage.
pub fn arbitrary_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        1 => valid_case(),
        6 => near_valid_case(),
        2 => garbage_case(),
    ]
}
