//! proptest strategies of `Case`s against the fixture surface: conformant requests
//! (`valid_case`), the same with planted edits from the edit algebra (`near_valid_case`,
//! labelled in `Case::labels`), garbage (random methods, paths, header bytes and bodies),
//! and a mix of the three (`mixed_case`).

use super::values::{header_string, integer, raw_header_bytes};
use crate::edit::{apply_all, edit_strategy, Mix};
use crate::fixture::{
    CAFE_TOOL, CODE_REVIEW, CONFIG_URI, ENDPOINT, EXECUTE_SQL, GET_WEATHER, SENTINEL_URI,
};
use mcpdiff_oracle::annotations::header_text;
use mcpdiff_oracle::case::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, MODERN_VERSION};
use mcpdiff_oracle::encoding::encode_header_value;
use mcpdiff_oracle::Case;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// The `_meta` every modern request carries.
pub fn modern_meta() -> Value {
    json!({META_PROTOCOL_VERSION: MODERN_VERSION, META_CLIENT_CAPABILITIES: {}})
}

/// A request under construction: the body stays JSON until the case is finished.
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
        // a name that needs the sentinel in Mcp-Name (no fixture tool name does)
        Just(SENTINEL_URI.to_string()),
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

/// A conformant request to the fixture surface (no defect).
pub fn valid_case() -> impl Strategy<Value = Case> {
    valid_draft().prop_map(Draft::finish).boxed()
}

/// A conformant request with one to three planted edits (`crate::edit`, `Mix::WIDE`), each
/// labelled. The edits are a list proptest shrinks: fewer edits first, then simpler ones.
pub fn near_valid_case() -> impl Strategy<Value = Case> {
    (
        valid_case(),
        prop::collection::vec(edit_strategy(Mix::WIDE), 1..=3),
    )
        .prop_map(|(case, edits)| apply_all(case, &edits))
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

/// Valid, near-valid and garbage cases mixed (mostly near-valid): the property tests' widest
/// distribution over the fixture surface.
pub fn mixed_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        1 => valid_case(),
        6 => near_valid_case(),
        2 => garbage_case(),
    ]
}
