//! The DEVIATIONS.md entries of the tools, resources and prompts surface (D-120..D-125),
//! decided against the spec text alone: each shows an answer the quoted text admits passing
//! and one it does not admit failing, on the rule the entry names and on no other.

mod common;

use common::{discover_result, result, rpc_error};
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::fixture::{self, BINARY_RESOURCE, PLAIN_TOOL, PROMPT};
use mcpdiff_oracle::{check, judge, Case, Observation};
use serde_json::{json, Value};

fn case(method: &str, params: Value) -> Case {
    conformant_case(&fixture::surface(), json!(1), method, params)
}

fn rules_of(c: &Case, obs: &Observation) -> Vec<String> {
    let mut r: Vec<String> = check(&judge(c, &fixture::surface()), obs)
        .into_iter()
        .map(|f| f.rule)
        .collect();
    r.sort();
    r
}

/// A cacheable result (resources/read) with `fields`.
fn cached(fields: Value) -> Observation {
    let mut f = json!({"ttlMs": 0, "cacheScope": "private"});
    if let (Some(m), Value::Object(extra)) = (f.as_object_mut(), fields) {
        m.extend(extra);
    }
    result(&json!(1), f)
}

/// D-120: a call breaking the inputSchema is refused: an execution error or a protocol
/// error passes, a plain result fails TOOLS-VALIDATE-INPUTS alone.
#[test]
fn invalid_tool_inputs_are_an_execution_error_or_a_refusal() {
    let c = case(
        "tools/call",
        json!({"name": PLAIN_TOOL, "arguments": {"location": 7}}),
    );
    let error = json!({"content": [{"type": "text", "text": "bad"}], "isError": true});
    assert!(rules_of(&c, &result(&json!(1), error)).is_empty());
    assert!(rules_of(&c, &rpc_error(200, &json!(1), -32602)).is_empty());
    let served = json!({"content": [{"type": "text", "text": "18°C"}]});
    assert_eq!(
        rules_of(&c, &result(&json!(1), served.clone())),
        ["TOOLS-VALIDATE-INPUTS"]
    );
    // the same plain result to a valid call is no finding
    let ok = case(
        "tools/call",
        json!({"name": PLAIN_TOOL, "arguments": {"location": "x"}}),
    );
    assert!(rules_of(&ok, &result(&json!(1), served)).is_empty());
}

/// D-121: a blob is RFC 4648 Base64; a read without a blob does not observe RES-BINARY.
#[test]
fn binary_contents_are_base64_and_text_contents_observe_nothing() {
    let c = case("resources/read", json!({"uri": BINARY_RESOURCE}));
    let blob = |b: &str| cached(json!({"contents": [{"uri": BINARY_RESOURCE, "blob": b}]}));
    assert!(rules_of(&c, &blob("iVBORw0KGgo=")).is_empty());
    assert_eq!(rules_of(&c, &blob("89 50 4e 47")), ["RES-BINARY"]);
    assert_eq!(rules_of(&c, &blob("iVBORw0KGgo")), ["RES-BINARY"]);
    let text = cached(json!({"contents": [{"uri": BINARY_RESOURCE, "text": "x"}]}));
    let v = judge(&c, &fixture::surface());
    assert!(v.triggers(mcpdiff_oracle::rules::RES_BINARY));
    assert!(!v
        .observed_rules(&text)
        .any(|r| r == mcpdiff_oracle::rules::RES_BINARY));
    assert!(v
        .observed_rules(&blob("AAAA"))
        .any(|r| r == mcpdiff_oracle::rules::RES_BINARY));
}

/// D-121, D-122: a prompt image is Base64 with a MIME type; an embedded resource has a
/// URI, a MIME type, and text or Base64 data.
#[test]
fn prompt_images_and_embedded_resources() {
    let c = case("prompts/get", json!({"name": PROMPT}));
    let prompt = |block: Value| {
        result(
            &json!(1),
            json!({"messages": [{"role": "user", "content": block}]}),
        )
    };
    let image = |data: &str, mime: &str| json!({"type": "image", "data": data, "mimeType": mime});
    assert!(rules_of(&c, &prompt(image("AAAA", "image/png"))).is_empty());
    assert_eq!(
        rules_of(
            &c,
            &prompt(image("data:image/png;base64,AAAA", "image/png"))
        ),
        ["PROMPTS-MEDIA-B64"]
    );
    assert_eq!(
        rules_of(&c, &prompt(image("AAAA", "png"))),
        ["PROMPTS-MEDIA-B64"]
    );
    let embedded = |r: Value| prompt(json!({"type": "resource", "resource": r}));
    let good = json!({"uri": "file:///a.json", "mimeType": "application/json", "text": "{}"});
    assert!(rules_of(&c, &embedded(good)).is_empty());
    let no_mime = json!({"uri": "file:///a.json", "text": "{}"});
    assert_eq!(rules_of(&c, &embedded(no_mime)), ["PROMPTS-EMBEDDED"]);
    let bad_blob = json!({"uri": "file:///a.png", "mimeType": "image/png", "blob": "a b"});
    assert_eq!(rules_of(&c, &embedded(bad_blob)), ["PROMPTS-EMBEDDED"]);
}

/// D-123: a `..` read is refused; a served file breaks RES-TRAVERSAL alone, a refusal with
/// another code RES-NOTFOUND-32602 alone.
#[test]
fn traversal_reads_are_refused_as_not_found() {
    let uri = "file:///projects/myapp/%2e%2e/%2e%2e/%2e%2e/etc/passwd";
    let c = case("resources/read", json!({ "uri": uri }));
    assert!(rules_of(&c, &rpc_error(200, &json!(1), -32602)).is_empty());
    let served = cached(json!({"contents": [{"uri": uri, "text": "root:x:0:0"}]}));
    assert_eq!(rules_of(&c, &served), ["RES-TRAVERSAL"]);
    assert_eq!(
        rules_of(&c, &rpc_error(500, &json!(1), -32603)),
        ["RES-NOTFOUND-32602"]
    );
    // an absolute path is no traversal: a plain unknown resource
    let abs = case("resources/read", json!({"uri": "file:///etc/passwd"}));
    assert_eq!(rules_of(&abs, &served), ["RES-NOTFOUND-32602"]);
}

/// D-124: an empty `contents` for a resource that does not exist breaks
/// RES-NO-EMPTY-CONTENTS alone; a template instance may be empty.
#[test]
fn empty_contents_are_blamed_on_the_sentence_that_names_them() {
    let c = case(
        "resources/read",
        json!({"uri": "file:///projects/myapp/missing.json"}),
    );
    let empty = cached(json!({"contents": []}));
    assert_eq!(rules_of(&c, &empty), ["RES-NO-EMPTY-CONTENTS"]);
    let filler = cached(json!({"contents": [{"uri": "file:///x", "text": "not found"}]}));
    assert_eq!(rules_of(&c, &filler), ["RES-NOTFOUND-32602"]);
    let instance = case("resources/read", json!({"uri": "file:///logs/mon.log"}));
    assert!(rules_of(&instance, &empty).is_empty());
}

/// D-125: prompt arguments that are not strings are refused, with any code.
#[test]
fn ill_typed_prompt_arguments_are_refused() {
    let c = case(
        "prompts/get",
        json!({"name": PROMPT, "arguments": {"code": 7}}),
    );
    assert!(rules_of(&c, &rpc_error(200, &json!(1), -32602)).is_empty());
    assert!(rules_of(&c, &rpc_error(500, &json!(1), -32603)).is_empty());
    let served = result(&json!(1), json!({"messages": []}));
    assert_eq!(rules_of(&c, &served), ["PROMPTS-VALIDATE-ARGS"]);
}

/// None of these rules reads a `server/discover` answer: a conforming one passes them all.
#[test]
fn discover_is_judged_by_none_of_them() {
    let c = case("server/discover", json!({}));
    assert!(rules_of(&c, &discover_result(&json!(1))).is_empty());
}

/// D-129: «Servers that use embedded resources SHOULD implement the `resources` capability»
/// binds a target whose discover declares no `resources`: a tool result embedding a resource
/// breaks TOOLS-EMBEDDED-RESCAP alone there, a resource link does not; a target that
/// declares the capability is never held to it.
#[test]
fn embedded_resources_need_the_resources_capability() {
    let mut bare = fixture::surface();
    bare.capabilities.resources = false;
    bare.resources.clear();
    bare.resource_templates.clear();
    let c = conformant_case(
        &bare,
        json!(1),
        "tools/call",
        json!({"name": PLAIN_TOOL, "arguments": {"location": "x"}}),
    );
    let rules_on = |s: &mcpdiff_oracle::Surface, blocks: Value| -> Vec<String> {
        let obs = result(&json!(1), json!({ "content": blocks }));
        check(&judge(&c, s), &obs)
            .into_iter()
            .map(|f| f.rule)
            .collect()
    };
    let text = json!({"type": "text", "text": "18°C"});
    let embedded = json!({"type": "resource", "resource": {
        "uri": "file:///a.json", "mimeType": "application/json", "text": "{}"}});
    let link = json!({"type": "resource_link", "uri": "file:///a.json", "name": "a.json"});
    assert!(rules_on(&bare, json!([text.clone()])).is_empty());
    assert!(rules_on(&bare, json!([text.clone(), link])).is_empty());
    assert_eq!(
        rules_on(&bare, json!([text.clone(), embedded.clone()])),
        ["TOOLS-EMBEDDED-RESCAP"]
    );
    // declared: the same result is no finding
    assert!(rules_on(&fixture::surface(), json!([text, embedded])).is_empty());
}
