//! rmcp fixture server: the mcpdiff fixture surface (see oracle/src/fixture.rs) on rmcp's
//! Streamable HTTP server, written the way rmcp's README and examples write servers: tools
//! with `#[tool_router]`/`#[tool]` on typed `Parameters<T>` (schemars-derived input schemas),
//! the prompt with `#[prompt_router]`/`#[prompt]`, `#[tool_handler]`/`#[prompt_handler]` on the
//! `ServerHandler`, resources by hand on `ServerHandler` (README § Resources), and every
//! result built by the SDK's constructors (`CallToolResult::success`, `ReadResourceResult::new`,
//! `ListResourcesResult::with_all_items`, `PromptMessage::new_text`, ...).
//!
//! Usage: mcpdiff-target-rmcp PORT
//!
//! `x-mcp-header` is declared as rmcp's own tests declare it:
//! `#[schemars(extend("x-mcp-header" = "Region"))]` on a field, `#[schemars(inline)]` on the
//! nested struct (a `$ref` would put the annotation off the `properties` chain). Where the
//! derived schema would differ from the fixture's, a field attribute keeps it (see `SqlArgs`);
//! what stays different is listed in target.toml (`cannot_express`).
//!
//! With MCPDIFF_TOOLS=/abs/tools.json (a `mcpdiff toolset generate` file) every tool of the set
//! is added to the same `ToolRouter` as a dynamic route (generated_tools.rs), so `tools/list`
//! and the transport's `Mcp-Param-*` validation (through the `get_tool` that `#[tool_handler]`
//! generates) see it like a fixture tool.

mod generated_tools;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ProgressNotificationParam, PromptMessage, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{
    prompt, prompt_handler, prompt_router, schemars, tool, tool_handler, tool_router,
    ErrorData as McpError, ServerHandler,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

const CONFIG_URI: &str = "file:///projects/myapp/config.json";

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct WeatherArgs {
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

// `execute_sql`'s arguments. The optional ones are `Option<T>` in Rust but declared with
// `#[schemars(with = "T")]`: schemars derives `Option<T>` as `"type": [T, "null"]`, which is
// not one of the primitive types `x-mcp-header` may annotate (rmcp's own client would drop
// the tool). Field order is the fixture's (serde_json's `preserve_order` keeps it). Plain
// comments, not doc comments: schemars publishes doc comments as `description`.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
struct SqlArgs {
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

// The nested object of `execute_sql`, inlined so its annotation stays on the `properties`
// chain (rmcp's test `accepts_inlined_nested_struct`).
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[schemars(inline)]
struct Target {
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", extend("x-mcp-header" = "TargetRegion"))]
    region: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
struct SlowArgs {
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64", range(min = 1, max = 5))]
    to: Option<i64>,
}

/// The fixture server: the macro-built tool router (plus the generated tools, if any).
#[derive(Clone)]
struct Fixture {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Fixture {
    #[tool(
        description = "Weather for a location (the plain tool)",
        annotations(read_only_hint = true)
    )]
    fn get_weather(&self, Parameters(args): Parameters<WeatherArgs>) -> String {
        format!("sunny in {}", args.location)
    }

    #[tool(
        description = "Echo the arguments (the tool with x-mcp-header parameters)",
        annotations(read_only_hint = true)
    )]
    fn execute_sql(&self, Parameters(args): Parameters<SqlArgs>) -> Result<String, McpError> {
        serde_json::to_string(&args).map_err(|e| McpError::internal_error(e.to_string(), None))
    }

    #[tool(
        description = "A tool without parameters",
        annotations(read_only_hint = true)
    )]
    fn cafe_menu(&self) -> String {
        "espresso, croissant".to_string()
    }

    /// Progress as the README's "Progress notifications" section sends it, when the request
    /// carries a progressToken.
    #[tool(
        description = "Count to `to`, reporting progress (the streaming tool)",
        annotations(read_only_hint = true)
    )]
    async fn slow_count(
        &self,
        Parameters(args): Parameters<SlowArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<String, McpError> {
        let to = args.to.unwrap_or(3).clamp(1, 5);
        let token = ctx.meta.get_progress_token();
        for i in 1..=to {
            if let Some(token) = token.clone() {
                ctx.peer
                    .notify_progress(
                        ProgressNotificationParam::new(token, i as f64).with_total(to as f64),
                    )
                    .await
                    .map_err(|e| McpError::internal_error(e.to_string(), None))?;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        Ok(to.to_string())
    }
}

#[prompt_router]
impl Fixture {
    #[prompt(name = "code_review", description = "Review some code")]
    async fn code_review(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            "Please review this code.",
        )]
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler]
impl ServerHandler for Fixture {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            CONFIG_URI, "config",
        )
        .with_mime_type("application/json")]))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("file:///logs/{day}.log", "log").with_mime_type("text/plain"),
        ]))
    }

    async fn read_resource(
        &self,
        req: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = req.uri.as_str();
        let body = if uri == CONFIG_URI {
            r#"{"name":"myapp","debug":false}"#.to_string()
        } else if let Some(day) = uri
            .strip_prefix("file:///logs/")
            .and_then(|r| r.strip_suffix(".log"))
        {
            format!("log of {day}\n")
        } else {
            return Err(McpError::resource_not_found(
                "resource_not_found",
                Some(json!({ "uri": uri })),
            ));
        };
        Ok(ReadResourceResult::new(vec![ResourceContents::text(body, uri)]).into())
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(8000);
    let mut tool_router = Fixture::tool_router();
    match generated_tools::definitions_from_env() {
        Ok(definitions) => generated_tools::add_routes(&mut tool_router, &definitions),
        Err(e) => {
            eprintln!("mcpdiff: cannot load MCPDIFF_TOOLS: {e}");
            std::process::exit(2);
        }
    }
    let fixture = Fixture { tool_router };
    let service = StreamableHttpService::new(
        move || Ok(fixture.clone()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!("rmcp fixture on http://127.0.0.1:{port}/mcp");
    axum::serve(listener, router).await
}
