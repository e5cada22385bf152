//! The fixture `Surface` the generators target: one plain tool, one tool with every kind of
//! `x-mcp-header` annotation (string, integer, boolean, optional, nested), one tool whose
//! name needs the Base64 sentinel in `Mcp-Name`, a resource, a template and a prompt.

use mcpdiff_oracle::{Capabilities, Surface, ToolDecl};
use serde_json::{json, Value};

/// The endpoint path of the fixture.
pub const ENDPOINT: &str = "/mcp";
/// The plain tool.
pub const GET_WEATHER: &str = "get_weather";
/// The annotated tool.
pub const EXECUTE_SQL: &str = "execute_sql";
/// The tool whose name is not header-safe.
pub const CAFE_TOOL: &str = "café_tool";
/// The concrete resource.
pub const CONFIG_URI: &str = "file:///projects/myapp/config.json";
/// The resource template.
pub const LOG_TEMPLATE: &str = "file:///logs/{day}.log";
/// The prompt.
pub const CODE_REVIEW: &str = "code_review";

/// The `inputSchema` of `execute_sql`: `region` (string, `Region`), `count` (integer,
/// `Count`), `flag` (boolean, `Flag`), optional `opt` (string, `Opt`) and nested
/// `target.region` (string, `TargetRegion`), plus the unannotated `query`.
pub fn execute_sql_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "query": {"type": "string"},
            "count": {"type": "integer", "x-mcp-header": "Count"},
            "flag": {"type": "boolean", "x-mcp-header": "Flag"},
            "opt": {"type": "string", "x-mcp-header": "Opt"},
            "target": {
                "type": "object",
                "properties": {
                    "region": {"type": "string", "x-mcp-header": "TargetRegion"}
                }
            }
        },
        "required": ["region", "query", "count", "flag"]
    })
}

/// The fixture surface (all capabilities on, only the modern version).
pub fn fixture_surface() -> Surface {
    Surface {
        endpoint: ENDPOINT.to_string(),
        supported_versions: vec![mcpdiff_oracle::case::MODERN_VERSION.to_string()],
        capabilities: Capabilities {
            tools: true,
            resources: true,
            prompts: true,
            completions: true,
            logging: true,
        },
        tools: vec![
            ToolDecl::new(
                GET_WEATHER,
                json!({
                    "type": "object",
                    "properties": {"location": {"type": "string"}},
                    "required": ["location"]
                }),
                true,
            ),
            ToolDecl::new(EXECUTE_SQL, execute_sql_schema(), false),
            ToolDecl::new(CAFE_TOOL, json!({"type": "object", "properties": {}}), true),
        ],
        resources: vec![CONFIG_URI.to_string()],
        resource_templates: vec![LOG_TEMPLATE.to_string()],
        prompts: vec![CODE_REVIEW.to_string()],
        allowed_origins: Vec::new(),
        legacy_era: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_annotations_are_valid() {
        let s = fixture_surface();
        let sql = s.tool(EXECUTE_SQL).expect("declared");
        let params = sql.header_params.as_ref().expect("valid annotations");
        let mut names: Vec<&str> = params.iter().map(|p| p.header.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["Count", "Flag", "Opt", "Region", "TargetRegion"]);
        assert!(s.tools.iter().all(|t| t.header_params.is_ok()));
        assert!(mcpdiff_oracle::encoding::needs_encoding(CAFE_TOOL));
        assert!(s.knows_resource("file:///logs/mon.log"));
    }
}
