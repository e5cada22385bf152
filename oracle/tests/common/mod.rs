//! Observations the SDK triage tests compare verdicts against: one place for the shapes of a
//! JSON-RPC error and a conforming result.

use mcpdiff_oracle::{Body, HttpAnswer, Observation};
use serde_json::{json, Value};

/// `status` with a JSON-RPC error `code` for `id`.
pub fn rpc_error(status: u16, id: &Value, code: i64) -> Observation {
    Observation::Http(HttpAnswer::new(
        status,
        Some("application/json"),
        Body::Json {
            value: json!({"jsonrpc":"2.0","id":id,"error":{"code":code,"message":"m"}}),
        },
    ))
}

/// 200 with a conforming result for `id` (`resultType`, `serverInfo`) plus `fields`.
pub fn result(id: &Value, fields: Value) -> Observation {
    let mut r = json!({"resultType":"complete",
        "_meta":{"io.modelcontextprotocol/serverInfo":{"name":"t","version":"1"}}});
    if let (Some(r), Value::Object(extra)) = (r.as_object_mut(), fields) {
        r.extend(extra);
    }
    Observation::Http(HttpAnswer::new(
        200,
        Some("application/json"),
        Body::Json {
            value: json!({"jsonrpc":"2.0","id":id,"result":r}),
        },
    ))
}

/// A `server/discover` result for `id`, declaring what the fixture lists.
pub fn discover_result(id: &Value) -> Observation {
    result(
        id,
        json!({"supportedVersions":["2026-07-28"],
               "capabilities":{"tools":{},"resources":{},"prompts":{},"completions":{}},
               "ttlMs":0,"cacheScope":"public"}),
    )
}
