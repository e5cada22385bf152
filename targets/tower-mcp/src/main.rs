//! tower-mcp fixture server: the mcpdiff fixture surface (see oracle/src/fixture.rs) on
//! tower-mcp's `HttpTransport`, mounted the way its HTTP deployment guide shows
//! (`into_router_at("/mcp")` merged into an axum app, `axum::serve`), default transport
//! settings. Tools are written as tower-mcp's README writes them: `ToolBuilder::handler` on a
//! typed input deriving `JsonSchema` (the `x-mcp-header` annotations added with schemars'
//! `extend`), results from the SDK's constructors (`CallToolResult::text`,
//! `ReadResourceResult::text`, `GetPromptResult::user_message`).
//!
//! Usage: mcpdiff-target-tower-mcp PORT
//!
//! With MCPDIFF_TOOLS=/abs/tools.json (a `mcpdiff toolset generate` file) every tool of the set
//! that tower-mcp accepts is registered too and answers with its arguments (generated_tools.rs).
//! `tools/list` and the transport's `Mcp-Param-*` validation (which looks the tool's schema up
//! in the router) see them like the fixture tools.

mod generated_tools;

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tower_mcp::extract::{Context, Json};
use tower_mcp::protocol::{CompleteParams, GetPromptResult};
use tower_mcp::schemars::JsonSchema;
use tower_mcp::{
    BoxError, CallToolResult, CompleteResult, HttpTransport, McpRouter, PromptBuilder,
    ReadResourceResult, ResourceBuilder, ResourceTemplateBuilder, Tool, ToolBuilder,
};

// Tool inputs derive their schemas (the README's `GreetInput` pattern). Plain comments, not
// doc comments, on these types: schemars publishes doc comments as `description`.

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "tower_mcp::schemars")]
struct WeatherInput {
    location: String,
}

/// An optional argument that is present has a value: `null` is refused, as the published
/// schema (`#[schemars(with = "T")]`, no `null`) says, where `Option<T>` alone would read it
/// as absent and serve a call its own inputSchema refuses.
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

// `execute_sql`'s arguments. The optional ones are `Option<T>` declared with
// `#[schemars(with = "T")]`: schemars derives `Option<T>` as `"type": [T, "null"]`, which is
// not one of the primitive types `x-mcp-header` may annotate (tower-mcp's own client drops
// such a tool). `x-mcp-header` itself goes in with schemars' `extend`, the way the SDKs' tests
// and docs add schema keywords.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(crate = "tower_mcp::schemars")]
struct SqlInput {
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64", extend("x-mcp-header" = "Count"))]
    count: Option<i64>,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "bool", extend("x-mcp-header" = "Flag"))]
    flag: Option<bool>,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", extend("x-mcp-header" = "Opt"))]
    opt: Option<String>,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Target")]
    target: Option<Target>,
    query: String,
}

// Inlined (not a `$ref` into `$defs`) so `target.region`'s annotation stays on the
// `properties` chain.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(crate = "tower_mcp::schemars", inline)]
struct Target {
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", extend("x-mcp-header" = "TargetRegion"))]
    region: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(crate = "tower_mcp::schemars")]
struct SlowInput {
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64", range(min = 1, max = 5))]
    to: Option<i64>,
}

fn get_weather() -> Tool {
    ToolBuilder::new("get_weather")
        .description("Get current weather information for a location")
        .read_only()
        .handler(|input: WeatherInput| async move {
            Ok(CallToolResult::text(format!(
                "Current weather in {}: 18°C, partly cloudy",
                input.location
            )))
        })
        .build()
}

fn execute_sql() -> Tool {
    ToolBuilder::new("execute_sql")
        .description("Echo a query and its routing parameters")
        .read_only()
        .handler(|input: SqlInput| async move {
            let echo = serde_json::to_string(&input)
                .map_err(|e| tower_mcp::Error::internal(e.to_string()))?;
            Ok(CallToolResult::text(echo))
        })
        .build()
}

// `cafe_menu`'s input: no parameters (a plain comment: schemars publishes doc comments).
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "tower_mcp::schemars")]
struct NoInput {}

fn cafe_menu() -> Tool {
    ToolBuilder::new("cafe_menu")
        .description("A tool without parameters")
        .read_only()
        .handler(|_: NoInput| async move { Ok(CallToolResult::text("espresso, croissant")) })
        .build()
}

fn slow_count() -> Tool {
    ToolBuilder::new("slow_count")
        .description("Count to `to`, reporting progress")
        .read_only()
        .extractor_handler(
            (),
            |ctx: Context, Json(input): Json<SlowInput>| async move {
                let to = input.to.unwrap_or(3).clamp(1, 5);
                for i in 1..=to {
                    // a no-op unless the request carried a progressToken
                    let msg = format!("counted {i} of {to}");
                    ctx.report_progress(i as f64, Some(to as f64), Some(&msg))
                        .await;
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                }
                Ok(CallToolResult::text(format!("counted to {to}")))
            },
        )
        .build()
}

/// The names of the fixture's tools (a generated tool may not replace one).
const FIXTURE_TOOLS: [&str; 4] = ["get_weather", "execute_sql", "cafe_menu", "slow_count"];

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
            Ok(GetPromptResult::user_message("Please review this code."))
        })
        .build();
    McpRouter::new()
        .server_info("mcpdiff-tower-mcp-fixture", "0.0.0")
        .instructions("mcpdiff fixture on tower-mcp")
        .tool(get_weather())
        .tool(execute_sql())
        .tool(cafe_menu())
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
