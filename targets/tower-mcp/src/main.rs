//! tower-mcp fixture server: the mcpdiff fixture surface (see oracle/src/fixture.rs) on
//! tower-mcp's `HttpTransport`, mounted the way its HTTP deployment guide shows
//! (`into_router_at("/mcp")` merged into an axum app, `axum::serve`), default transport
//! settings. Tools take raw JSON Schemas (`input_schema`) and raw arguments (`RawArgs`) so the
//! `x-mcp-header` annotations are served exactly as the reference server declares them.
//!
//! Not expressible: `café_menu` (tower-mcp rejects tool names outside ASCII letters, digits and
//! `_-./`, SEP-986), recorded in target.toml.
//!
//! Usage: mcpdiff-target-tower-mcp PORT
//!
//! With MCPDIFF_TOOLS=/abs/tools.json (a `mcpdiff toolset generate` file) every tool of the set
//! that tower-mcp accepts is registered too and answers with its arguments (generated_tools.rs).
//! `tools/list` and the transport's `Mcp-Param-*` validation (which looks the tool's schema up
//! in the router) see them like the fixture tools.

mod generated_tools;

use serde_json::json;
use std::collections::HashMap;
use tower_mcp::extract::{Context, RawArgs};
use tower_mcp::protocol::{CompleteParams, GetPromptResult};
use tower_mcp::{
    BoxError, CallToolResult, CompleteResult, HttpTransport, McpRouter, PromptBuilder,
    ReadResourceResult, ResourceBuilder, ResourceTemplateBuilder, Tool, ToolBuilder,
};

fn get_weather() -> Tool {
    ToolBuilder::new("get_weather")
        .description("Get current weather information for a location")
        .read_only()
        .input_schema(json!({
            "type": "object",
            "properties": {"location": {"type": "string"}},
            "required": ["location"]
        }))
        .extractor_handler((), |RawArgs(args): RawArgs| async move {
            let loc = args["location"].as_str().unwrap_or("nowhere").to_string();
            Ok(CallToolResult::text(format!(
                "Current weather in {loc}: 18°C, partly cloudy"
            )))
        })
        .build()
}

fn execute_sql() -> Tool {
    ToolBuilder::new("execute_sql")
        .description("Echo a query and its routing parameters")
        .read_only()
        .input_schema(json!({
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "count": {"type": "integer", "x-mcp-header": "Count"},
                "flag": {"type": "boolean", "x-mcp-header": "Flag"},
                "opt": {"type": "string", "x-mcp-header": "Opt"},
                "target": {"type": "object", "properties": {
                    "region": {"type": "string", "x-mcp-header": "TargetRegion"}}},
                "query": {"type": "string"}
            },
            "required": ["region", "query"]
        }))
        .extractor_handler((), |RawArgs(args): RawArgs| async move {
            Ok(CallToolResult::text(args.to_string()))
        })
        .build()
}

fn slow_count() -> Tool {
    ToolBuilder::new("slow_count")
        .description("Count to `to`, reporting progress")
        .read_only()
        .input_schema(json!({
            "type": "object",
            "properties": {"to": {"type": "integer", "minimum": 1, "maximum": 5}}
        }))
        .extractor_handler((), |ctx: Context, RawArgs(args): RawArgs| async move {
            let to = args["to"].as_u64().unwrap_or(3).clamp(1, 5);
            for i in 1..=to {
                // a no-op unless the request carried a progressToken
                let msg = format!("counted {i} of {to}");
                ctx.report_progress(i as f64, Some(to as f64), Some(&msg))
                    .await;
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            Ok(CallToolResult::text(format!("counted to {to}")))
        })
        .build()
}

/// The names of the fixture's tools (a generated tool may not replace one).
const FIXTURE_TOOLS: [&str; 3] = ["get_weather", "execute_sql", "slow_count"];

/// The fixture router, plus `extra` tools (the generated ones).
fn router(extra: Vec<Tool>) -> McpRouter {
    let config = ResourceBuilder::new("file:///projects/myapp/config.json")
        .name("config.json")
        .mime_type("application/json")
        .text(r#"{"name":"myapp","debug":false}"#);
    let logs = ResourceTemplateBuilder::new("file:///logs/{day}.log")
        .name("Daily logs")
        .mime_type("text/plain")
        .handler(|uri: String, vars: HashMap<String, String>| async move {
            let day = vars.get("day").cloned().unwrap_or_default();
            Ok(ReadResourceResult::text(uri, format!("log of {day}\n")))
        });
    let review = PromptBuilder::new("code_review")
        .description("Review some code")
        .optional_arg("code", "The code to review")
        .handler(|_args: HashMap<String, String>| async move {
            let r: GetPromptResult = serde_json::from_value(json!({"messages": [
                {"role": "user", "content": {"type": "text", "text": "Please review this code."}}
            ]}))
            // a bug here is a bug in this literal, caught by the first prompts/get
            .map_err(|e| tower_mcp::Error::internal(e.to_string()))?;
            Ok(r)
        })
        .build();
    McpRouter::new()
        .server_info("mcpdiff-tower-mcp-fixture", "0.0.0")
        .instructions("mcpdiff fixture on tower-mcp")
        .tool(get_weather())
        .tool(execute_sql())
        .tool(slow_count())
        .tools(extra)
        .resource(config)
        .resource_template(logs)
        .prompt(review)
        .completion_handler(|_p: CompleteParams| async move { Ok(CompleteResult::new(vec![])) })
}

/// The port from argv[1] (default 8000).
fn port() -> u16 {
    std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(8000)
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let port = port();
    let definitions = match generated_tools::definitions_from_env() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("mcpdiff: cannot load the tool set: {e}");
            std::process::exit(2);
        }
    };
    let extra = generated_tools::tools(&definitions, &FIXTURE_TOOLS);
    if !definitions.is_empty() {
        eprintln!(
            "mcpdiff: registered {} of {} generated tools",
            extra.len(),
            definitions.len()
        );
    }
    let app = axum::Router::new().merge(HttpTransport::new(router(extra)).into_router_at("/mcp"));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!("tower-mcp fixture on http://127.0.0.1:{port}/mcp");
    axum::serve(listener, app).await?;
    Ok(())
}
