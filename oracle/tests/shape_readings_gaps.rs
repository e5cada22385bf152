//! The readings of D-170..D-179 (the base-protocol and multi-round shape rules judged after
//! the first issue-23 batch), each shown on the rule it names: the reference's own answer
//! passes, the edits the entry admits still pass, and the edit the entry rejects fails on
//! exactly that rule.

mod common;

use common::{broken, call};
use mcpdiff_oracle::reference::{respond, to_observation, Response, ResponseBody};
use mcpdiff_oracle::{check, fixture, judge, Case, Surface};
use serde_json::{json, Value};

/// D-170: a 2xx response with neither `result` nor `error` breaks BASE-RESULT-FIELD
/// alone (the answer sets read it as the success it signals); a `result` of `null` is
/// included (BASE-RESULTTYPE and the content rules then judge what it lacks).
#[test]
fn d170_result_member() {
    let s = fixture::surface();
    for c in [
        call("prompts/list", json!({})),
        call("resources/templates/list", json!({})),
        call(
            "tools/call",
            json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "Paris"}}),
        ),
    ] {
        assert!(broken(&c, &s, |_| {}).is_empty());
        let dropped = broken(&c, &s, |v| {
            v.as_object_mut().map(|o| o.remove("result"));
        });
        assert_eq!(dropped, ["BASE-RESULT-FIELD"]);
    }
    let c = call("prompts/list", json!({}));
    // a refusal's status says the operation failed: a bare body there is no result response
    let bare = Response::json(400, json!({"jsonrpc": "2.0", "id": 1}));
    let found: Vec<String> = check(&judge(&c, &s), &to_observation(&bare))
        .into_iter()
        .map(|f| f.rule)
        .collect();
    assert!(
        !found.contains(&"BASE-RESULT-FIELD".to_string()),
        "{found:?}"
    );
    let null = broken(&c, &s, |v| v["result"] = Value::Null);
    assert!(null.contains(&"BASE-RESULTTYPE".to_string()), "{null:?}");
    assert!(!null.contains(&"BASE-RESULT-FIELD".to_string()), "{null:?}");
}

/// The reference's answer to `case` with its JSON text edited by `edit`, judged.
fn broken_text(case: &Case, s: &Surface, edit: impl FnOnce(String) -> String) -> Vec<String> {
    let mut r = respond(case, s);
    let ResponseBody::Json(v) = &r.body else {
        panic!("expected a JSON answer, got {:?}", r.body);
    };
    r.body = ResponseBody::Raw(edit(v.to_string()).into_bytes());
    let mut out: Vec<String> = check(&judge(case, s), &to_observation(&r))
        .into_iter()
        .map(|f| f.rule)
        .collect();
    out.sort();
    out
}

/// A get_weather call whose request declares `caps`.
fn weather_declaring(caps: Value) -> Case {
    let mut c = call(
        "tools/call",
        json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "Paris"}}),
    );
    let mut body: Value = serde_json::from_slice(&c.body).expect("a conformant body is JSON");
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = caps;
    c.body = serde_json::to_vec(&body).expect("a Value serializes");
    c
}

/// `"resultType":"complete"` of a tools/call result turned into an `InputRequiredResult`
/// carrying `requests` (JSON text).
fn asking(requests: &str) -> impl FnOnce(String) -> String + '_ {
    move |t: String| {
        t.replacen(
            "\"resultType\":\"complete\"",
            &format!("\"resultType\":\"input_required\",\"inputRequests\":{requests}"),
            1,
        )
    }
}

/// D-171: an `inputRequests` naming one key twice (in its text) breaks MRTR-KEYS-UNIQUE
/// alone; distinct keys pass, and so does a repeated name elsewhere in the result.
#[test]
fn d171_unique_input_keys() {
    let s = fixture::surface();
    let c = weather_declaring(json!({"roots": {}}));
    let roots = r#"{"method":"roots/list"}"#;
    assert!(broken_text(&c, &s, |t| t).is_empty());
    assert!(broken_text(&c, &s, asking(&format!(r#"{{"a":{roots},"b":{roots}}}"#))).is_empty());
    assert_eq!(
        broken_text(&c, &s, asking(&format!(r#"{{"a":{roots},"a":{roots}}}"#))),
        ["MRTR-KEYS-UNIQUE"]
    );
    assert_eq!(
        broken_text(
            &c,
            &s,
            asking(&format!(r#"{{"a":{roots},"\u0061":{roots}}}"#))
        ),
        ["MRTR-KEYS-UNIQUE"]
    );
    let nested = r#"{"a":{"method":"roots/list","params":{"x":1,"x":2}}}"#;
    assert!(broken_text(&c, &s, asking(nested)).is_empty());
}

/// The reference's answer to `case` replaced by a -32021 refusal with `status` and `data`.
fn refused(case: &Case, s: &Surface, status: u16, data: Value) -> Vec<String> {
    let r = Response::json(
        status,
        json!({"jsonrpc": "2.0", "id": 1, "error": {
            "code": -32021, "message": "Missing required client capability", "data": data}}),
    );
    let mut out: Vec<String> = check(&judge(case, s), &to_observation(&r))
        .into_iter()
        .map(|f| f.rule)
        .collect();
    out.sort();
    out
}

/// D-172: a -32021 refusal whose `requiredCapabilities` names only capabilities the request
/// declared (asking no sub-capability) breaks BASE-ERRCODE-MEANING alone; naming one it did
/// not declare, a sub-capability, or a capability outside the three passes.
#[test]
fn d172_missing_capability_meaning() {
    let s = fixture::surface();
    let c = weather_declaring(json!({"elicitation": {}, "roots": {}}));
    let req = |caps: Value| json!({"requiredCapabilities": caps});
    assert_eq!(
        refused(&c, &s, 400, req(json!({"elicitation": {}}))),
        ["BASE-ERRCODE-MEANING"]
    );
    assert_eq!(
        refused(&c, &s, 400, req(json!({"elicitation": {}, "roots": {}}))),
        ["BASE-ERRCODE-MEANING"]
    );
    for fine in [
        json!({"sampling": {}}),
        json!({"elicitation": {}, "sampling": {}}),
        json!({"elicitation": {"url": {}}}),
        json!({"experimental": {"x": {}}}),
    ] {
        assert!(refused(&c, &s, 400, req(fine.clone())).is_empty(), "{fine}");
    }
    // a value that is no object declares nothing
    let c = weather_declaring(json!({"elicitation": true}));
    assert!(refused(&c, &s, 400, req(json!({"elicitation": {}}))).is_empty());
}

/// D-173: a -32021 refusal must be 400 with a non-empty object `requiredCapabilities`; an
/// empty one breaks BASE-MISSING-CAP-32021 alone (the tools/call answer set admits 400/-32021
/// with an object), another status or data breaks it beside the answer set's rule.
#[test]
fn d173_missing_capability_refusal() {
    let s = fixture::surface();
    let c = weather_declaring(json!({}));
    let req = |caps: Value| json!({"requiredCapabilities": caps});
    assert!(refused(&c, &s, 400, req(json!({"elicitation": {}}))).is_empty());
    assert!(refused(&c, &s, 400, req(json!({"experimental": {"x": {}}}))).is_empty());
    assert_eq!(
        refused(&c, &s, 400, req(json!({}))),
        ["BASE-MISSING-CAP-32021"]
    );
    for (status, data) in [
        (200, req(json!({"elicitation": {}}))),
        (403, req(json!({"elicitation": {}}))),
        (400, req(json!(["elicitation"]))),
        (400, json!({})),
        (400, Value::Null),
    ] {
        let found = refused(&c, &s, status, data.clone());
        assert!(
            found.contains(&"BASE-MISSING-CAP-32021".to_string()),
            "{status} {data}: {found:?}"
        );
    }
}

/// D-174: an input request whose capability the request did not declare (as an object)
/// breaks MRTR-NO-UNDECLARED alone; one it declared passes, sub-capabilities are not read.
#[test]
fn d174_input_requests_need_declared_capabilities() {
    let s = fixture::surface();
    let elicit = r#"{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://example.com","elicitationId":"e"}}"#;
    let sample = r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#;
    let roots = r#"{"method":"roots/list"}"#;
    let c = weather_declaring(json!({"roots": {}, "elicitation": {"form": {}}}));
    assert!(broken_text(&c, &s, asking(&format!(r#"{{"a":{roots},"b":{elicit}}}"#))).is_empty());
    assert_eq!(
        broken_text(&c, &s, asking(&format!(r#"{{"a":{roots},"b":{sample}}}"#))),
        ["MRTR-NO-UNDECLARED"]
    );
    let c = weather_declaring(json!({"roots": true}));
    assert_eq!(
        broken_text(&c, &s, asking(&format!(r#"{{"a":{roots}}}"#))),
        ["MRTR-NO-UNDECLARED"]
    );
    // without inputRequests (requestState alone) nothing is asked
    let state = |t: String| {
        t.replacen(
            "\"resultType\":\"complete\"",
            "\"resultType\":\"input_required\",\"requestState\":\"s\"",
            1,
        )
    };
    assert!(broken_text(&c, &s, state).is_empty());
}
