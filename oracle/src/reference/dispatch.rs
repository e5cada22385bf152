//! The fixture methods: what the reference server answers once the judge says a request is
//! valid (`Canonical::Dispatch`). The data comes from `crate::fixture` and the `Surface`, so
//! `tools/list` and friends describe exactly what the oracle was told the target declares.

use super::paged::list;
use super::response::Response;
use super::{error_body, result_body};
use crate::case::Case;
use crate::fixture::{
    BINARY_RESOURCE, HEADER_TOOL, LOGO_PNG_BASE64, MENU_TOOL, PLAIN_TOOL, RESOURCE, STREAM_TOOL,
};
use crate::surface::{template_matches, Surface};
use serde_json::{json, Map, Value};

/// Cache hints for the cacheable results (caching.mdx: MUST on discover, the four lists and
/// `resources/read`). The fixture never changes, so a long public TTL is honest.
const TTL_MS: u64 = 300_000;

/// A request as the dispatcher needs it (the judge already checked the envelope).
pub(crate) struct Call {
    pub id: Value,
    pub method: String,
    pub params: Map<String, Value>,
}

/// Read the request out of a body the judge accepted; `None` if it is not a request.
pub(crate) fn parse_call(body: &[u8]) -> Option<Call> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let id = v.get("id")?.clone();
    let method = v.get("method")?.as_str()?.to_string();
    let params = v
        .get("params")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    Some(Call { id, method, params })
}

/// Run the request against the fixture.
pub(crate) fn run(case: &Case, surface: &Surface) -> Response {
    run_with(case, surface, true)
}

/// Run the request against the fixture; `validate`: check tool inputs against their
/// `inputSchema` first (tools.mdx: «Servers MUST: - Validate all tool inputs»; only the
/// mutant `tool-inputs-unchecked` skips it).
pub(crate) fn run_with(case: &Case, surface: &Surface, validate: bool) -> Response {
    let Some(call) = parse_call(&case.body) else {
        // unreachable for a Dispatch verdict (the judge parsed a request); answer safely
        return Response::json(400, error_body(None, -32600, "Invalid Request", None));
    };
    let level = call
        .params
        .get("_meta")
        .and_then(|m| m.get(crate::case::META_LOG_LEVEL));
    if let Some(why) = crate::soft_params::refusal(
        &call.method,
        false,
        &crate::soft_params::LogLevel::of(level),
    ) {
        // an unknown log level: the SHOULD's -32602 (LOG-INVALID-LEVEL)
        return invalid(&call.id, why);
    }
    let ok = |r: Value| Response::json(200, result_body(&call.id, r));
    let p = &call.params;
    match call.method.as_str() {
        "server/discover" => ok(discover(surface)),
        "tools/list" => list(&call, surface, "tools", tools(surface)),
        "tools/call" => tools_call(&call, surface, validate),
        "resources/list" => list(&call, surface, "resources", resources(surface)),
        "resources/templates/list" => list(&call, surface, "resourceTemplates", templates(surface)),
        "resources/read" => match p.get("uri").and_then(Value::as_str) {
            Some(uri) => match read(uri, surface) {
                Some(contents) => ok(cached(json!({ "contents": contents }))),
                None => invalid(&call.id, &format!("Resource not found: {uri}")),
            },
            None => invalid(&call.id, "Invalid params: uri is required"),
        },
        "prompts/list" => list(&call, surface, "prompts", prompts(surface)),
        "prompts/get" => match p.get("name").and_then(Value::as_str) {
            Some(name) if surface.prompts.iter().any(|x| x == name) => {
                let code = p
                    .get("arguments")
                    .and_then(|a| a.get("code"))
                    .and_then(Value::as_str)
                    .unwrap_or("fn main() {}");
                ok(review_prompt(code))
            }
            _ => invalid(&call.id, "Unknown prompt"),
        },
        "completion/complete" => {
            // completion.mdx: "Servers SHOULD return standard JSON-RPC errors for common
            // failure cases: ... - Invalid prompt name: `-32602`"; the judge accepts -32602
            // for completion/complete whatever the ref
            if let Some(why) = unknown_completion_ref(p, surface) {
                return invalid(&call.id, why);
            }
            let prefix = p
                .get("argument")
                .and_then(|a| a.get("value"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let values: Vec<&str> = ["fn main() {}", "fn helper() {}"]
                .into_iter()
                .filter(|v| v.starts_with(prefix))
                .collect();
            let total = values.len();
            ok(json!({"completion": {"values": values, "total": total, "hasMore": false}}))
        }
        "subscriptions/listen" => listen(&call, surface),
        // a method the judge dispatched but the fixture does not implement (an unadvertised
        // capability): -32601, the answer AMB-24 prefers
        _ => Response::json(
            404,
            error_body(Some(&call.id), -32601, "Method not found", None),
        ),
    }
}

pub(super) fn invalid(id: &Value, message: &str) -> Response {
    Response::json(200, error_body(Some(id), -32602, message, None))
}

pub(super) fn cached(mut v: Value) -> Value {
    v["ttlMs"] = json!(TTL_MS);
    v["cacheScope"] = json!("public");
    v
}

fn discover(surface: &Surface) -> Value {
    let c = surface.capabilities;
    let mut caps = Map::new();
    if c.tools {
        caps.insert("tools".into(), json!({"listChanged": true}));
    }
    if c.resources {
        caps.insert("resources".into(), json!({"listChanged": true}));
    }
    if c.prompts {
        caps.insert("prompts".into(), json!({"listChanged": true}));
    }
    if c.completions {
        caps.insert("completions".into(), json!({}));
    }
    if c.logging {
        caps.insert("logging".into(), json!({}));
    }
    if c.extensions {
        // an extension the reference supports only by reverting to core behaviour: what it
        // answers is the same whether the client declares it or not (VER-EXT-FALLBACK)
        caps.insert(
            "extensions".into(),
            json!({ crate::fixture::FIXTURE_EXTENSION: {} }),
        );
    }
    cached(json!({
        "supportedVersions": surface.supported_versions,
        "capabilities": caps,
        "instructions": "mcpdiff reference server: a fixed fixture for conformance testing.",
    }))
}

fn tools(surface: &Surface) -> Vec<Value> {
    surface
        .tools
        .iter()
        .map(|t| {
            let description = match t.name.as_str() {
                PLAIN_TOOL => "Get current weather information for a location",
                HEADER_TOOL => "Echo a query and its routing parameters",
                MENU_TOOL => "Show the café menu",
                STREAM_TOOL => "Count to `to`, reporting progress",
                _ => "Echo the arguments (a generated tool)",
            };
            let mut tool = json!({
                "name": t.name,
                "description": description,
                "inputSchema": t.input_schema,
                "annotations": {"readOnlyHint": t.read_only},
            });
            if let Some(schema) = &t.output_schema {
                tool["outputSchema"] = (*schema.0).clone();
            }
            tool
        })
        .collect()
}

/// The `code_review` prompt: the code to review, the project's configuration as an
/// embedded resource and its logo as an image (prompts.mdx § PromptMessage).
fn review_prompt(code: &str) -> Value {
    let config = json!({"name": "myapp", "debug": false}).to_string();
    json!({
        "description": "Code review prompt",
        "messages": [
            {"role": "user", "content": {
                "type": "text", "text": format!("Please review this code:\n{code}")}},
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": RESOURCE, "mimeType": "application/json", "text": config}}},
            {"role": "user", "content": {
                "type": "image", "data": LOGO_PNG_BASE64, "mimeType": "image/png"}}
        ]
    })
}

fn tools_call(call: &Call, surface: &Surface, validate: bool) -> Response {
    let ok = |r: Value| Response::json(200, result_body(&call.id, r));
    let text = |s: String| json!({"content": [{"type": "text", "text": s}], "isError": false});
    let args = call.params.get("arguments").cloned().unwrap_or(json!({}));
    let name = call
        .params
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some(tool) = surface.tool(name) else {
        return invalid(&call.id, &format!("Unknown tool: {name}"));
    };
    if validate
        && crate::content::tool_inputs_invalid(call.params.get("arguments"), &tool.input_schema)
    {
        // «Input validation errors … are reported in tool results with `isError: true`»
        return ok(json!({"content": [{"type": "text",
            "text": format!("Invalid arguments for {name}: they do not match its inputSchema")}],
            "isError": true}));
    }
    match name {
        PLAIN_TOOL => {
            let loc = args
                .get("location")
                .and_then(Value::as_str)
                .unwrap_or("nowhere");
            ok(text(format!(
                "Current weather in {loc}: 18°C, partly cloudy"
            )))
        }
        MENU_TOOL => ok(text("Menu: espresso, croissant, crème brûlée".to_string())),
        STREAM_TOOL => slow_count(call, &args),
        // the header tool and every loaded tool (`serve --tools`) answer with their
        // arguments, so a run can see what the server understood
        // tools.mdx: "a tool that returns structured content SHOULD also return the
        // serialized JSON in a TextContent block", so the text is the structured content
        _ => {
            let structured = json!({ "arguments": args });
            let mut r = text(structured.to_string());
            r["structuredContent"] = structured;
            ok(r)
        }
    }
}

/// `slow_count` answers on an SSE stream: one `notifications/progress` per step when the
/// request asked for progress (progress.mdx: only tokens the request gave), then the result.
fn slow_count(call: &Call, args: &Value) -> Response {
    let to = args
        .get("to")
        .and_then(Value::as_u64)
        .unwrap_or(3)
        .clamp(1, 5);
    let token = call
        .params
        .get("_meta")
        .and_then(|m| m.get("progressToken"))
        .filter(|t| t.is_string() || t.is_i64() || t.is_u64())
        .cloned();
    let mut events = Vec::new();
    if let Some(token) = token {
        for i in 1..=to {
            events.push(json!({
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": token, "progress": i, "total": to,
                           "message": format!("counted {i} of {to}")}
            }));
        }
    }
    let result = json!({"content": [{"type": "text", "text": format!("counted to {to}")}],
                        "isError": false});
    events.push(result_body(&call.id, result));
    Response::sse(events, false)
}

fn resources(surface: &Surface) -> Vec<Value> {
    surface
        .resources
        .iter()
        .map(|uri| {
            let name = uri.rsplit('/').next().unwrap_or(uri);
            json!({"uri": uri, "name": name, "mimeType": mime_of(uri)})
        })
        .collect()
}

fn templates(surface: &Surface) -> Vec<Value> {
    surface
        .resource_templates
        .iter()
        .map(|t| json!({"uriTemplate": t, "name": "Daily logs", "mimeType": "text/plain"}))
        .collect()
}

/// Why a completion request's `ref` names nothing the fixture has, if it does not.
fn unknown_completion_ref(p: &Map<String, Value>, surface: &Surface) -> Option<&'static str> {
    let r = p.get("ref");
    match r.and_then(|r| r.get("type")).and_then(Value::as_str) {
        Some("ref/prompt") => {
            let name = r.and_then(|r| r.get("name")).and_then(Value::as_str);
            match name {
                Some(n) if surface.prompts.iter().any(|x| x == n) => None,
                _ => Some("Invalid params: unknown prompt"),
            }
        }
        Some("ref/resource") => {
            let uri = r.and_then(|r| r.get("uri")).and_then(Value::as_str);
            match uri {
                Some(u)
                    if surface.resources.iter().any(|x| x == u)
                        || surface.resource_templates.iter().any(|t| t == u) =>
                {
                    None
                }
                _ => Some("Invalid params: unknown resource"),
            }
        }
        _ => Some("Invalid params: ref is required"),
    }
}

/// The MIME type of a fixture resource, by its name.
fn mime_of(uri: &str) -> &'static str {
    if uri.ends_with(".png") {
        "image/png"
    } else {
        "application/json"
    }
}

fn read(uri: &str, surface: &Surface) -> Option<Vec<Value>> {
    if uri == BINARY_RESOURCE && surface.resources.iter().any(|r| r == uri) {
        // resources.mdx § Binary Content: binary data as a Base64 `blob`
        return Some(vec![
            json!({"uri": uri, "mimeType": "image/png", "blob": LOGO_PNG_BASE64}),
        ]);
    }
    if surface.resources.iter().any(|r| r == uri) {
        let text = json!({"name": "myapp", "debug": false}).to_string();
        return Some(vec![
            json!({"uri": uri, "mimeType": "application/json", "text": text}),
        ]);
    }
    if surface
        .resource_templates
        .iter()
        .any(|t| template_matches(t, uri))
    {
        let text = format!("log lines of {uri}\n");
        return Some(vec![
            json!({"uri": uri, "mimeType": "text/plain", "text": text}),
        ]);
    }
    None
}

fn prompts(surface: &Surface) -> Vec<Value> {
    surface
        .prompts
        .iter()
        .map(|p| {
            json!({"name": p, "description": "Ask for a code review",
                   "arguments": [{"name": "code", "description": "The code", "required": false}]})
        })
        .collect()
}

/// `subscriptions/listen`: the acknowledgment first (subscriptions.mdx: MUST be the first
/// message, carrying the subscription id = the request id), echoing the subset of the filter
/// the fixture honours; then the stream stays open (the fixture never changes).
fn listen(call: &Call, surface: &Surface) -> Response {
    let requested = call.params.get("notifications").and_then(Value::as_object);
    let mut agreed = Map::new();
    if let Some(req) = requested {
        for key in [
            "toolsListChanged",
            "promptsListChanged",
            "resourcesListChanged",
        ] {
            if req.get(key) == Some(&json!(true)) {
                agreed.insert(key.into(), json!(true));
            }
        }
        if let Some(uris) = req.get("resourceSubscriptions").and_then(Value::as_array) {
            let known: Vec<&Value> = uris
                .iter()
                .filter(|u| u.as_str().is_some_and(|u| surface.knows_resource(u)))
                .collect();
            agreed.insert("resourceSubscriptions".into(), json!(known));
        }
    }
    let ack = json!({
        "jsonrpc": "2.0",
        "method": "notifications/subscriptions/acknowledged",
        "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": call.id},
            "notifications": agreed,
        }
    });
    Response::sse(vec![ack], true)
}
