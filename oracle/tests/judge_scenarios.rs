//! One scenario per defect class: the canonical answer passes, and a typical wrong answer is
//! caught by exactly the rule the scenario names.

use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::fixture::{self, HEADER_TOOL, MENU_TOOL, PLAIN_TOOL, RESOURCE};
use mcpdiff_oracle::{
    check, judge, Body, Canonical, Case, HttpAnswer, Observation, RequestId, Verdict,
};
use serde_json::{json, Value};

/// A conforming result for any method: besides `resultType` and `serverInfo`, the caching
/// hints (cacheable methods), the discover members (`server/discover`), empty lists (the
/// list methods) and the structured result the header tool's outputSchema asks for (with its
/// text copy); a member a method does not define is ignored.
fn ok_result(id: &Value) -> Observation {
    Observation::Http(HttpAnswer::new(
        200,
        Some("application/json"),
        Body::Json {
            value: json!({"jsonrpc":"2.0","id":id,"result":{
                "resultType":"complete",
                "ttlMs":0,"cacheScope":"public",
                "supportedVersions":["2026-07-28"],
                "capabilities":{"tools":{},"resources":{},"prompts":{},"completions":{}},
                "tools":[],"resources":[],"prompts":[],
                "structuredContent":{"arguments":{}},
                "content":[{"type":"text","text":"{\"arguments\":{}}"}],
                "_meta":{"io.modelcontextprotocol/serverInfo":{"name":"t","version":"1"}}}}),
        },
    ))
}

fn error(status: u16, id: Option<&Value>, code: i64, data: Option<Value>) -> Observation {
    let mut e = json!({"jsonrpc":"2.0","error":{"code":code,"message":"m"}});
    if let Some(id) = id {
        e["id"] = id.clone();
    }
    if let Some(d) = data {
        e["error"]["data"] = d;
    }
    Observation::Http(HttpAnswer::new(
        status,
        Some("application/json"),
        Body::Json { value: e },
    ))
}

/// The observation the reference server would produce for the verdict's canonical answer.
fn canonical(v: &Verdict, id: &Value) -> Observation {
    match &v.canonical {
        Canonical::Dispatch => ok_result(id),
        Canonical::Reject {
            status,
            code: Some(code),
            id,
            data,
            ..
        } => error(
            *status,
            id.as_ref().map(RequestId::to_value).as_ref(),
            *code,
            data.as_ref().map(|d| d.to_value(&fixture::surface())),
        ),
        Canonical::Reject { status, .. } => {
            Observation::Http(HttpAnswer::new(*status, None, Body::Empty))
        }
        Canonical::Accepted => Observation::Http(HttpAnswer::new(202, None, Body::Empty)),
        Canonical::MethodNotAllowed => {
            let mut a = HttpAnswer::new(405, None, Body::Empty);
            a.allow = Some("POST".into());
            Observation::Http(a)
        }
    }
}

fn call(args: Value) -> Case {
    conformant_case(
        &fixture::surface(),
        json!(1),
        "tools/call",
        json!({"name": HEADER_TOOL, "arguments": args}),
    )
}

fn rules_of(v: &Verdict, obs: &Observation) -> Vec<String> {
    let mut r: Vec<String> = check(v, obs).into_iter().map(|f| f.rule).collect();
    r.sort();
    r
}

fn assert_canonical_passes(case: &Case) -> Verdict {
    let v = judge(case, &fixture::surface());
    let f = check(&v, &canonical(&v, &json!(1)));
    assert!(
        f.is_empty(),
        "canonical answer fails its own verdict: {f:?}\n{v:#?}"
    );
    v
}

#[test]
fn conformant_requests_dispatch() {
    let s = fixture::surface();
    for (m, p) in [
        ("server/discover", json!({})),
        ("tools/list", json!({})),
        (
            "tools/call",
            json!({"name": PLAIN_TOOL, "arguments": {"location": "x"}}),
        ),
        ("tools/call", json!({"name": MENU_TOOL, "arguments": {}})),
        ("resources/read", json!({"uri": RESOURCE})),
        ("resources/read", json!({"uri": "file:///logs/mon.log"})),
        ("prompts/get", json!({"name": "code_review"})),
    ] {
        let c = conformant_case(&s, json!(1), m, p);
        let v = assert_canonical_passes(&c);
        assert_eq!(v.canonical, Canonical::Dispatch, "{m}");
    }
    let c = call(
        json!({"region": "us-west1", "count": 42, "flag": true, "query": "q",
                        "opt": "o", "target": {"region": "eu"}}),
    );
    let v = assert_canonical_passes(&c);
    assert_eq!(v.canonical, Canonical::Dispatch);
    // a refusal of a conformant annotated call is blamed on reading the nested value at its
    // exact path, as the top-level `region` differs (D-180) ...
    assert_eq!(
        rules_of(&v, &error(400, Some(&json!(1)), -32020, None)),
        ["SHTTP-PARAM-PATH"]
    );
    // ... and, with the nested value equal to the top-level one, on header validation
    let c = call(
        json!({"region": "us-west1", "count": 42, "flag": true, "query": "q",
                        "opt": "o", "target": {"region": "us-west1"}}),
    );
    let v = assert_canonical_passes(&c);
    assert_eq!(
        rules_of(&v, &error(400, Some(&json!(1)), -32020, None)),
        ["SHTTP-PARAM-VALIDATE"]
    );
}

#[test]
fn mcp_name_mismatch_must_be_400_32020() {
    let mut c = call(json!({"region": "us", "query": "q"}));
    c.set_header("Mcp-Name", Some(b"get_weather"));
    let v = assert_canonical_passes(&c);
    assert_eq!(
        rules_of(&v, &ok_result(&json!(1))),
        ["SHTTP-HDR-MISMATCH-400"]
    );
    assert_eq!(
        rules_of(&v, &error(400, Some(&json!(1)), -32602, None)),
        ["SHTTP-HDR-ERR-32020"]
    );
    assert!(rules_of(&v, &error(400, Some(&json!(1)), -32020, None)).is_empty());
    // wrong id on the error
    assert_eq!(
        rules_of(&v, &error(400, Some(&json!(2)), -32020, None)),
        ["BASE-ERROR-ID"]
    );
}

#[test]
fn param_rules() {
    let args = json!({"region": "us-west1", "count": 42, "query": "q"});
    // omitted
    let mut c = call(args.clone());
    c.set_header("Mcp-Param-Region", None);
    let v = assert_canonical_passes(&c);
    assert_eq!(
        rules_of(&v, &ok_result(&json!(1))),
        ["SHTTP-PARAM-OMITTED-REJECT"]
    );
    // integer 42.0 vs 42: SHOULD accept
    let mut c = call(args.clone());
    c.set_header("Mcp-Param-Count", Some(b"42.0"));
    let v = assert_canonical_passes(&c);
    assert_eq!(
        rules_of(&v, &error(400, Some(&json!(1)), -32020, None)),
        ["SHTTP-INT-NUMERIC"]
    );
    // 43 vs 42 mismatch
    let mut c = call(args.clone());
    c.set_header("Mcp-Param-Count", Some(b"43"));
    let v = assert_canonical_passes(&c);
    assert_eq!(
        rules_of(&v, &ok_result(&json!(1))),
        ["SHTTP-PARAM-VALIDATE"]
    );
    // sentinel must be decoded before comparing
    let mut c = call(json!({"region": "Hello, 世界", "query": "q"}));
    assert!(c
        .headers
        .iter()
        .any(|(_, v)| v.as_slice() == b"=?base64?SGVsbG8sIOS4lueVjA==?="));
    let v = assert_canonical_passes(&c);
    assert_eq!(
        rules_of(&v, &error(400, Some(&json!(1)), -32020, None)),
        ["SHTTP-B64-DECODE"]
    );
    c.set_header("Mcp-Param-Region", Some(b"=?base64?SGVs!!!bG8=?="));
    let v = assert_canonical_passes(&c);
    assert_eq!(rules_of(&v, &ok_result(&json!(1))), ["SHTTP-B64-MALFORMED"]);
    // boolean case
    let mut c = call(json!({"region": "r", "flag": true, "query": "q"}));
    c.set_header("Mcp-Param-Flag", Some(b"True"));
    let v = assert_canonical_passes(&c);
    assert_eq!(rules_of(&v, &ok_result(&json!(1))), ["SHTTP-BOOL-LOWER"]);
    // absent optional argument: header not expected
    let c = call(json!({"region": "r", "query": "q"}));
    let v = assert_canonical_passes(&c);
    assert!(
        v.triggers(mcpdiff_oracle::rules::PARAM_ABSENT)
            || v.triggers(mcpdiff_oracle::rules::PARAM_VALIDATE)
    );
}

#[test]
fn version_rules() {
    let s = fixture::surface();
    let mut c = conformant_case(&s, json!("a"), "tools/list", json!({}));
    c.set_header("MCP-Protocol-Version", Some(b"1900-01-01"));
    let v = judge(&c, &s);
    // mismatch where the header version is unsupported: -32022 canonical, -32020 allowed
    let f = check(&v, &error(400, Some(&json!("a")), -32020, None));
    assert!(f.is_empty(), "{f:?}");
    c.set_header("MCP-Protocol-Version", None);
    let v = judge(&c, &s);
    assert_eq!(
        rules_of(&v, &ok_result(&json!("a"))),
        ["SHTTP-PV-MISSING-REJECT"]
    );
    // unsupported everywhere
    let body = br#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let c = Case::post(
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "1900-01-01"),
            ("Mcp-Method", "tools/list"),
        ],
        body.to_vec(),
    );
    let v = judge(&c, &s);
    let good = error(
        400,
        Some(&json!(3)),
        -32022,
        Some(json!({"supported":["2026-07-28"],"requested":"1900-01-01"})),
    );
    assert!(check(&v, &good).is_empty());
    let no_data = error(400, Some(&json!(3)), -32022, None);
    assert_eq!(rules_of(&v, &no_data), ["SHTTP-PV-UNSUPPORTED-400"]);
}

#[test]
fn origin_notification_and_verbs() {
    let s = fixture::surface();
    let mut c = conformant_case(&s, json!(1), "tools/list", json!({}));
    c.set_header("Origin", Some(b"https://evil.example"));
    let v = assert_canonical_passes(&c);
    assert_eq!(rules_of(&v, &ok_result(&json!(1))), ["SHTTP-ORIGIN-403"]);
    let mut g = c.clone();
    g.method = "GET".into();
    g.set_header("Origin", None);
    let v = judge(&g, &s);
    let f = rules_of(&v, &ok_result(&json!(1)));
    assert_eq!(f, ["SHTTP-BC-GET-DELETE-405"]);
    let n = Case::post(
        "/mcp",
        &[("Mcp-Method", "notifications/cancelled")],
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#.to_vec(),
    );
    let v = judge(&n, &s);
    assert_eq!(v.canonical, Canonical::Accepted);
    assert_eq!(
        rules_of(&v, &ok_result(&json!(1))),
        ["BASE-NOTIF-NO-RESPONSE", "SHTTP-NOTIF-202"]
    );
}

#[test]
fn unknown_method_and_meta() {
    let s = fixture::surface();
    let c = conformant_case(&s, json!(1), "ping", json!({}));
    let v = assert_canonical_passes(&c);
    assert_eq!(
        rules_of(&v, &error(400, Some(&json!(1)), -32601, None)),
        ["SHTTP-METHOD-404"]
    );
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let c = Case::post(
        "/mcp",
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
        body.to_vec(),
    );
    let v = assert_canonical_passes(&c);
    assert_eq!(
        rules_of(&v, &ok_result(&json!(1))),
        ["BASE-META-REQUIRED-400"]
    );
}

/// Readings made while triaging the bundled SDKs (DEVIATIONS.md D-31..D-33), as decided
/// against the spec text alone: a refusal of a request with no Accept is
/// acceptable, but it must echo the id the well-formed body carries (D-32 narrowed: the id
/// "could" be read); a dual-era target's legacy path is not judged by the modern rules, but
/// a request whose `_meta` names the modern version is on the modern path whatever its
/// header says (D-36 narrowed).
#[test]
fn sdk_triage_corrections() {
    let s = fixture::surface();
    let mut c = conformant_case(&s, json!(23), "tools/list", json!({}));
    c.set_header("Accept", None);
    let v = judge(&c, &s);
    let refusal_with_id = error(406, Some(&json!(23)), -32600, None);
    assert!(check(&v, &refusal_with_id).is_empty());
    let refusal_without_id = error(406, None, -32600, None);
    assert_eq!(rules_of(&v, &refusal_without_id), ["BASE-ERROR-ID"]);
    // a plain 406 with no JSON-RPC body is no error response, so no id is owed
    let bare_406 = Observation::Http(HttpAnswer::new(406, None, Body::Empty));
    assert!(check(&v, &bare_406).is_empty());
    // with the media headers right, the same id-less error is a BASE-ERROR-ID finding
    let c = conformant_case(&s, json!(23), "tools/list", json!({}));
    let v = judge(&c, &s);
    assert!(rules_of(&v, &error(400, None, -32602, None)).contains(&"BASE-ERROR-ID".to_string()));
    // dual-era: a request naming a legacy version goes to the legacy path
    let mut dual = fixture::surface();
    dual.legacy_era = true;
    let mut c = conformant_case(&dual, json!(1), "tools/list", json!({}));
    c.set_header("MCP-Protocol-Version", Some(b"2025-11-25"));
    let legacy_result = Observation::Http(HttpAnswer::new(
        200,
        Some("application/json"),
        Body::Json {
            value: json!({"jsonrpc":"2.0","id":1,"result":{"tools":[]}}),
        },
    ));
    // ... but this body's `_meta` names 2026-07-28: modern path, the header mismatch binds
    let v = judge(&c, &dual);
    assert!(v.triggers(mcpdiff_oracle::rules::PV_MISMATCH));
    assert!(rules_of(&v, &legacy_result).contains(&"SHTTP-PV-MISMATCH-400".to_string()));
    // a body with no `_meta` version and a legacy header: the legacy path
    let mut legacy_body = c.clone();
    let mut body: serde_json::Value = serde_json::from_slice(&c.body).unwrap();
    body["params"]
        .as_object_mut()
        .unwrap()
        .remove("_meta")
        .unwrap();
    legacy_body.body = serde_json::to_vec(&body).unwrap();
    assert!(check(&judge(&legacy_body, &dual), &legacy_result).is_empty());
    // the same request to a modern-only target is a version mismatch
    assert!(!check(&judge(&c, &s), &legacy_result).is_empty());
}
