//! The content rewrites: each takes a result the reference gives and breaks one thing it
//! publishes (`crate::content`), leaving every other member as the reference gives it.

use super::super::response::Response;
use super::answer::{each, Answered};
use crate::case::Case;
use crate::surface::Surface;
use crate::verdict::{Canonical, Verdict};
use serde_json::{json, Map, Value};

/// Apply `f` to the `result` object of every success in the answer.
pub(super) fn each_result(r: &mut Response, f: impl Fn(&mut Map<String, Value>)) {
    each(r, "result", |m| {
        if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
            f(res);
        }
    });
}

pub(super) fn discover_no_versions(a: &Answered, r: &mut Response) {
    if a.method() == "server/discover" {
        each_result(r, |res| {
            res.remove("supportedVersions");
        });
    }
}

pub(super) fn discover_no_serverinfo(a: &Answered, r: &mut Response) {
    if a.method() == "server/discover" {
        each_result(r, |res| {
            res.remove("_meta");
        });
    }
}

pub(super) fn no_cache_hints(_: &Answered, r: &mut Response) {
    each_result(r, |res| {
        res.remove("ttlMs");
        res.remove("cacheScope");
    });
}

pub(super) fn negative_ttl(_: &Answered, r: &mut Response) {
    each_result(r, |res| {
        if res.contains_key("ttlMs") {
            res.insert("ttlMs".into(), json!(-1));
        }
    });
}

/// Drop capability `key` from the `server/discover` result.
fn undeclare(a: &Answered, r: &mut Response, key: &str) {
    if a.method() == "server/discover" {
        each_result(r, |res| {
            if let Some(caps) = res.get_mut("capabilities").and_then(Value::as_object_mut) {
                caps.remove(key);
            }
        });
    }
}

pub(super) fn discover_no_tools_cap(a: &Answered, r: &mut Response) {
    undeclare(a, r, "tools");
}

pub(super) fn discover_no_resources_cap(a: &Answered, r: &mut Response) {
    undeclare(a, r, "resources");
}

pub(super) fn discover_no_prompts_cap(a: &Answered, r: &mut Response) {
    undeclare(a, r, "prompts");
}

/// Apply `f` to the result of `method`'s answers only.
pub(super) fn on(
    a: &Answered,
    r: &mut Response,
    method: &str,
    f: impl Fn(&mut Map<String, Value>),
) {
    if a.method() == method {
        each_result(r, f);
    }
}

pub(super) fn tools_list_unnamed(a: &Answered, r: &mut Response) {
    on(a, r, "tools/list", |res| {
        for t in res
            .get_mut("tools")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if let Some(t) = t.as_object_mut() {
                t.remove("name");
            }
        }
    });
}

pub(super) fn resources_list_missing(a: &Answered, r: &mut Response) {
    on(a, r, "resources/list", |res| {
        res.remove("resources");
    });
}

pub(super) fn prompts_list_null(a: &Answered, r: &mut Response) {
    on(a, r, "prompts/list", |res| {
        res.insert("prompts".into(), Value::Null);
    });
}

pub(super) fn tool_schema_null(a: &Answered, r: &mut Response) {
    on(a, r, "tools/list", |res| {
        let first = res
            .get_mut("tools")
            .and_then(Value::as_array_mut)
            .and_then(|t| t.first_mut())
            .and_then(Value::as_object_mut);
        if let Some(t) = first {
            t.insert("inputSchema".into(), Value::Null);
        }
    });
}

/// Apply `f` to the result of a `tools/call` whose tool declares an `outputSchema`.
fn on_structured_call(a: &Answered, r: &mut Response, f: impl Fn(&mut Map<String, Value>)) {
    let declares = a
        .surface()
        .tool(a.param("name"))
        .is_some_and(|t| t.output_schema.is_some());
    if a.method() == "tools/call" && declares {
        each_result(r, |res| {
            if res.contains_key("structuredContent") {
                f(res);
            }
        });
    }
}

pub(super) fn structured_nonconforming(a: &Answered, r: &mut Response) {
    on_structured_call(a, r, |res| {
        // renamed in both places: the text block still serializes the structured content
        let structured = json!({"echo": res.get("structuredContent")});
        res.insert(
            "content".into(),
            json!([{"type": "text", "text": structured.to_string()}]),
        );
        res.insert("structuredContent".into(), structured);
    });
}

pub(super) fn structured_no_text(a: &Answered, r: &mut Response) {
    on_structured_call(a, r, |res| {
        res.insert("content".into(), json!([{"type": "text", "text": "done"}]));
    });
}

pub(super) fn resource_uri_unencoded(a: &Answered, r: &mut Response) {
    on(a, r, "resources/list", |res| {
        if let Some(list) = res.get_mut("resources").and_then(Value::as_array_mut) {
            list.push(json!({"uri": "notes://inbox/my notes.txt", "name": "my notes.txt"}));
        }
    });
}

pub(super) fn tools_order_by_id(a: &Answered, r: &mut Response) {
    let Some(id) = a.id_number() else { return };
    on(a, r, "tools/list", |res| {
        if let Some(list) = res.get_mut("tools").and_then(Value::as_array_mut) {
            if !list.is_empty() {
                let n = list.len() as u64;
                // (the remainder is below the list's length, a usize)
                list.rotate_left((id % n) as usize);
            }
        }
    });
}

/// Apply `f` to every content block of the messages of a `prompts/get` result.
fn each_prompt_block(a: &Answered, r: &mut Response, f: impl Fn(&mut Map<String, Value>)) {
    on(a, r, "prompts/get", |res| {
        let messages = res.get_mut("messages").and_then(Value::as_array_mut);
        for m in messages.into_iter().flatten() {
            if let Some(block) = m.get_mut("content").and_then(Value::as_object_mut) {
                f(block);
            }
        }
    });
}

pub(super) fn resource_blob_not_base64(a: &Answered, r: &mut Response) {
    on(a, r, "resources/read", |res| {
        let contents = res.get_mut("contents").and_then(Value::as_array_mut);
        for c in contents
            .into_iter()
            .flatten()
            .filter_map(Value::as_object_mut)
        {
            if c.contains_key("blob") {
                // the raw bytes' hex, not Base64
                c.insert("blob".into(), json!("89 50 4e 47 0d 0a 1a 0a"));
            }
        }
    });
}

pub(super) fn prompt_image_not_base64(a: &Answered, r: &mut Response) {
    each_prompt_block(a, r, |b| {
        if b.get("type") == Some(&json!("image")) {
            b.insert("data".into(), json!("data:image/png;base64,iVBORw0KGgo="));
        }
    });
}

pub(super) fn prompt_embedded_no_mime(a: &Answered, r: &mut Response) {
    each_prompt_block(a, r, |b| {
        if let Some(res) = b.get_mut("resource").and_then(Value::as_object_mut) {
            res.remove("mimeType");
        }
    });
}

/// The reference's rendering, with tool calls dispatched without checking their arguments
/// against the tool's `inputSchema`.
pub(super) fn render_unvalidated(v: &Verdict, case: &Case, surface: &Surface) -> Response {
    if v.canonical == Canonical::Dispatch {
        return super::super::dispatch::run_with(case, surface, false);
    }
    super::super::render(v, case, surface)
}

/// Serves `file://` reads that climb with `..`: the file outside the tree, read as asked.
pub(super) fn traversal_served(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let call = super::super::dispatch::parse_call(&case.body)?;
    let uri = call.params.get("uri").and_then(Value::as_str)?;
    if call.method != "resources/read" || !crate::traversal::is_traversal(uri) {
        return None;
    }
    let result = json!({
        "contents": [{"uri": uri, "mimeType": "text/plain", "text": "root:x:0:0:root:/root:/bin/sh\n"}],
        "ttlMs": 0,
        "cacheScope": "private",
    });
    Some(Response::json(
        200,
        super::super::result_body(&call.id, result),
    ))
}

/// Reads `prompts/get` without checking its arguments: ill-typed ones are dropped and the
/// prompt served as if none were given.
pub(super) fn prompt_args_unchecked(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let mut body: Value = serde_json::from_slice(&case.body).ok()?;
    if body.get("method") != Some(&json!("prompts/get")) {
        return None;
    }
    let params = body.get_mut("params").and_then(Value::as_object_mut)?;
    if crate::content::prompt_args_invalid(params.get("arguments")) {
        params.remove("arguments");
        // serializing a Value cannot fail (all keys are strings)
        case.body = serde_json::to_vec(&body).unwrap_or_default();
    }
    None
}

pub(super) fn tool_name_with_space(a: &Answered, r: &mut Response) {
    on(a, r, "tools/list", |res| {
        let tools = res.get_mut("tools").and_then(Value::as_array_mut);
        for t in tools.into_iter().flatten() {
            if t.get("name") == Some(&json!(crate::fixture::PLAIN_TOOL)) {
                t["name"] = json!("get weather");
            }
        }
    });
}
