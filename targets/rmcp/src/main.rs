//! rmcp fixture server: the mcpdiff fixture surface (see oracle/src/fixture.rs) on rmcp's
//! Streamable HTTP server. Results are built from JSON so the fixture reads like the
//! reference server's and survives the SDK's `#[non_exhaustive]` model types.
//!
//! Usage: mcpdiff-target-rmcp PORT
//!
//! With MCPDIFF_TOOLS=/abs/tools.json (a `mcpdiff toolset generate` file) every tool of the set
//! is listed too and answers with its arguments. `get_tool` serves every tool's definition:
//! rmcp's Streamable HTTP service validates `Mcp-Param-*` headers only for tools `get_tool`
//! returns (its default `None` "bypasses validation"; `#[tool_handler]` implements it).

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, ServerHandler};
use serde_json::{json, Value};
use std::sync::Arc;

/// The fixture: its tool list (the fixture's four tools, then the loaded tool set's).
#[derive(Clone)]
struct Fixture {
    tools: Arc<Vec<Value>>,
    /// How many of `tools` are the fixture's own (the rest echo their arguments).
    own: usize,
}

fn fixture_tools() -> Vec<Value> {
    let ro = json!({"readOnlyHint": true});
    vec![
        json!({"name": "get_weather", "annotations": ro, "inputSchema": {
            "type": "object", "properties": {"location": {"type": "string"}},
            "required": ["location"]}}),
        json!({"name": "execute_sql", "annotations": ro, "inputSchema": {
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
            "required": ["region", "query"]}}),
        json!({"name": "café_menu", "annotations": ro,
         "inputSchema": {"type": "object", "properties": {}}}),
        json!({"name": "slow_count", "annotations": ro, "inputSchema": {
            "type": "object",
            "properties": {"to": {"type": "integer", "minimum": 1, "maximum": 5}}}}),
    ]
}

/// The `definition`s of the tool set named by MCPDIFF_TOOLS (none when unset).
fn loaded_tools() -> Result<Vec<Value>, String> {
    let Some(path) = std::env::var_os("MCPDIFF_TOOLS") else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path:?}: {e}"))?;
    let set: Value = serde_json::from_str(&text).map_err(|e| format!("{path:?}: {e}"))?;
    let tools = set["tools"].as_array().cloned().unwrap_or_default();
    Ok(tools
        .into_iter()
        .map(|t| {
            let mut d = t["definition"].clone();
            d["annotations"] = json!({"readOnlyHint": true});
            d
        })
        .collect())
}

/// Deserialize an SDK model type from the fixture's JSON (a bug here is a bug in this file).
fn from<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, McpError> {
    serde_json::from_value(v).map_err(|e| McpError::internal_error(e.to_string(), None))
}

fn text(t: &str) -> Value {
    json!({"content": [{"type": "text", "text": t}]})
}

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

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        // a tool the SDK cannot represent is skipped (and named on stderr) rather than
        // failing the whole list
        let mut tools = Vec::new();
        for t in self.tools.iter() {
            match serde_json::from_value::<rmcp::model::Tool>(t.clone()) {
                Ok(tool) => tools.push(tool),
                Err(e) => eprintln!("mcpdiff: tool {} not listed: {e}", t["name"]),
            }
        }
        from(json!({ "tools": tools }))
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        let t = self.tools.iter().find(|t| t["name"] == name)?;
        serde_json::from_value(t.clone()).ok()
    }

    async fn call_tool(
        &self,
        req: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = Value::Object(req.arguments.clone().unwrap_or_default());
        let out = match req.name.as_ref() {
            "get_weather" => text(&format!("sunny in {}", args["location"])),
            "execute_sql" => text(&args.to_string()),
            "café_menu" => text("espresso, croissant"),
            "slow_count" => text(&args["to"].as_u64().unwrap_or(3).to_string()),
            name if self.tools[self.own..].iter().any(|t| t["name"] == name) => {
                let mut r = text(&args.to_string());
                r["structuredContent"] = json!({ "arguments": args });
                r
            }
            other => {
                return Err(McpError::invalid_params(
                    format!("unknown tool {other}"),
                    None,
                ))
            }
        };
        Ok(CallToolResponse::Complete(from(out)?))
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        from(json!({"resources": [{"uri": "file:///projects/myapp/config.json",
            "name": "config", "mimeType": "application/json"}]}))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        from(json!({"resourceTemplates": [{"uriTemplate": "file:///logs/{day}.log",
            "name": "log", "mimeType": "text/plain"}]}))
    }

    async fn read_resource(
        &self,
        req: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = req.uri.clone();
        let body = if uri == "file:///projects/myapp/config.json" {
            r#"{"name":"myapp","debug":false}"#.to_string()
        } else if let Some(day) = uri
            .strip_prefix("file:///logs/")
            .and_then(|r| r.strip_suffix(".log"))
        {
            format!("log of {day}\n")
        } else {
            return Err(McpError::resource_not_found(
                "Resource not found",
                Some(json!({"uri": uri})),
            ));
        };
        Ok(ReadResourceResponse::Complete(from(
            json!({"contents": [{"uri": uri, "text": body}]}),
        )?))
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        from(json!({"prompts": [{"name": "code_review", "description": "Review some code"}]}))
    }

    async fn get_prompt(
        &self,
        req: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        if req.name != "code_review" {
            return Err(McpError::invalid_params("unknown prompt", None));
        }
        Ok(GetPromptResponse::Complete(from(json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Please review this code."}}
        ]}))?))
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(8000);
    let mut tools = fixture_tools();
    let own = tools.len();
    match loaded_tools() {
        Ok(extra) => tools.extend(extra),
        Err(e) => {
            eprintln!("mcpdiff: cannot load MCPDIFF_TOOLS: {e}");
            std::process::exit(2);
        }
    }
    let fixture = Fixture {
        tools: Arc::new(tools),
        own,
    };
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
