//! Observations the SDK triage tests compare verdicts against: one place for the shapes of a
//! JSON-RPC error and a conforming result; and the readings tests' way of editing the
//! reference's answer and naming the rules the edit breaks.
#![allow(dead_code)] // each test binary uses its own subset

use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::reference::{respond, to_observation};
use mcpdiff_oracle::{check, fixture, judge, Body, Case, HttpAnswer, Observation, Surface};
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

/// The rules `obs`, as the answer to `case` on `s`, breaks, sorted.
pub fn rules_of(case: &Case, s: &Surface, obs: &Observation) -> Vec<String> {
    let mut r: Vec<String> = check(&judge(case, s), obs)
        .into_iter()
        .map(|f| f.rule)
        .collect();
    r.sort();
    r
}

/// The rules the reference's answer to `case`, edited by `edit`, breaks.
pub fn broken(case: &Case, s: &Surface, edit: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut obs = to_observation(&respond(case, s));
    if let Observation::Http(a) = &mut obs {
        match &mut a.body {
            Body::Json { value } => edit(value),
            other => panic!("expected a JSON answer, got {other:?}"),
        }
    }
    rules_of(case, s, &obs)
}

/// A conformant `method` request with `params` (id 1) to the fixture.
pub fn call(method: &str, params: Value) -> Case {
    conformant_case(&fixture::surface(), json!(1), method, params)
}
