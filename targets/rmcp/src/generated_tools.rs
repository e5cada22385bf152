//! Generated tools: the `mcpdiff-toolset/1` file named by `MCPDIFF_TOOLS` (written by
//! `mcpdiff toolset generate`; the format is oracle/src/toolset.rs), added to the fixture's
//! `ToolRouter` as dynamic routes (`ToolRoute::new_dyn`, rmcp's route for a tool whose schema
//! is not a Rust type). Each tool is built with `Tool::new(name, description, inputSchema)`
//! and `readOnlyHint` true, valid or not (the file's labels are not consulted), and answers
//! with its arguments: a text content holding their JSON and the structured content
//! `{"arguments": ...}`. A definition rmcp cannot take (no string name, a non-object
//! inputSchema) or named like a fixture tool is named on stderr and left out.

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResult, ContentBlock, Tool, ToolAnnotations};
use serde_json::{json, Value};

/// The `definition`s of the tool set named by MCPDIFF_TOOLS (none when unset or empty).
pub fn definitions_from_env() -> Result<Vec<Value>, String> {
    let Some(path) = std::env::var_os("MCPDIFF_TOOLS").filter(|p| !p.is_empty()) else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path:?}: {e}"))?;
    let set: Value = serde_json::from_str(&text).map_err(|e| format!("{path:?}: {e}"))?;
    let tools = set
        .get("tools")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{path:?}: no `tools` array"))?;
    Ok(tools
        .iter()
        .filter_map(|t| t.get("definition").cloned())
        .collect())
}

/// Add one dynamic route per usable definition to `router`.
pub fn add_routes<S: Send + Sync + 'static>(router: &mut ToolRouter<S>, definitions: &[Value]) {
    for d in definitions {
        let Some(name) = d.get("name").and_then(Value::as_str) else {
            eprintln!("mcpdiff: generated tool without a string name left out");
            continue;
        };
        if router.has_route(name) {
            eprintln!("mcpdiff: generated tool {name:?} left out: a fixture tool has that name");
            continue;
        }
        let Some(schema) = d.get("inputSchema").and_then(Value::as_object) else {
            eprintln!("mcpdiff: generated tool {name:?} left out: inputSchema is not an object");
            continue;
        };
        let description = d
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("A generated tool")
            .to_string();
        let tool = Tool::new(name.to_string(), description, schema.clone())
            .with_annotations(ToolAnnotations::new().read_only(true));
        router.add_route(ToolRoute::new_dyn(tool, |ctx: ToolCallContext<'_, S>| {
            let args = Value::Object(ctx.arguments.unwrap_or_default());
            Box::pin(async move {
                let mut result =
                    CallToolResult::success(vec![ContentBlock::text(args.to_string())]);
                result.structured_content = Some(json!({ "arguments": args }));
                Ok(result.into())
            })
        }));
    }
}
