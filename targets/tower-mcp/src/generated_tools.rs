//! Generated tools: the `mcpdiff-toolset/1` file named by `MCPDIFF_TOOLS` (written by
//! `mcpdiff toolset generate`; the format is oracle/src/toolset.rs), registered beside the
//! fixture tools. Every tool's `definition` is handed to tower-mcp as given, valid or not (the
//! file's `valid`/`reason` labels are not consulted): `name` through `ToolBuilder::try_new`,
//! `inputSchema` verbatim through `input_schema`, and `title`, `description`, `outputSchema`,
//! `annotations` (with `readOnlyHint` forced on), `icons` and `_meta` through their setters.
//! A tool tower-mcp refuses is named on stderr and left out. Each tool answers with the
//! arguments it received: a text content holding their JSON and the structured content
//! `{"arguments": ...}`.

use serde_json::{json, Value};
use tower_mcp::extract::RawArgs;
use tower_mcp::protocol::{ToolAnnotations, ToolIcon};
use tower_mcp::{CallToolResult, Tool, ToolBuilder};

/// The `format` of a tool set file.
const FORMAT: &str = "mcpdiff-toolset/1";

/// The environment variable naming the tool set file.
pub const ENV: &str = "MCPDIFF_TOOLS";

/// The `definition`s of the tool set named by `MCPDIFF_TOOLS` (none when it is unset or empty,
/// as the Python and TypeScript targets read it), or why the file cannot be used.
pub fn definitions_from_env() -> Result<Vec<Value>, String> {
    let Some(path) = std::env::var_os(ENV).filter(|p| !p.is_empty()) else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{ENV}={}: cannot read: {e}", path.to_string_lossy()))?;
    definitions(&text).map_err(|e| format!("{ENV}={}: {e}", path.to_string_lossy()))
}

/// The `definition` of every tool of a tool set file's text.
fn definitions(text: &str) -> Result<Vec<Value>, String> {
    let set: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let format = set.get("format").unwrap_or(&Value::Null);
    if format != FORMAT {
        return Err(format!("`format` is {format}, expected {FORMAT:?}"));
    }
    let tools = set
        .get("tools")
        .and_then(Value::as_array)
        .ok_or("no `tools` array")?;
    tools
        .iter()
        .enumerate()
        .map(|(i, t)| match t.get("definition") {
            Some(d @ Value::Object(_)) => Ok(d.clone()),
            _ => Err(format!("tools[{i}] has no `definition` object")),
        })
        .collect()
}

/// The tools tower-mcp accepts among `definitions`, skipping (and naming on stderr) the ones
/// it refuses and the ones whose name a fixture tool already has (`taken`): the router keeps
/// one tool per name and the fixture must stay as it is.
pub fn tools(definitions: &[Value], taken: &[&str]) -> Vec<Tool> {
    let mut out = Vec::new();
    for definition in definitions {
        let name = definition.get("name").and_then(Value::as_str);
        if let Some(name) = name.filter(|n| taken.contains(n)) {
            eprintln!(
                "mcpdiff: generated tool {name:?} not registered: a fixture tool has that name"
            );
            continue;
        }
        match tool(definition) {
            Ok(t) => out.push(t),
            Err(e) => eprintln!(
                "mcpdiff: generated tool {} not registered: {e}",
                definition.get("name").unwrap_or(&Value::Null)
            ),
        }
    }
    out
}

/// One generated tool from its `definition`, or tower-mcp's reason for refusing it.
fn tool(definition: &Value) -> Result<Tool, String> {
    let name = definition
        .get("name")
        .and_then(Value::as_str)
        .ok_or("no string `name`")?;
    let mut builder = ToolBuilder::try_new(name).map_err(|e| e.to_string())?;
    if let Some(title) = definition.get("title").and_then(Value::as_str) {
        builder = builder.title(title);
    }
    if let Some(description) = definition.get("description").and_then(Value::as_str) {
        builder = builder.description(description);
    }
    if let Some(schema) = definition.get("inputSchema") {
        builder = builder.input_schema(schema.clone());
    }
    if let Some(schema) = definition.get("outputSchema") {
        builder = builder.output_schema(schema.clone());
    }
    let mut annotations = match definition.get("annotations") {
        Some(a) => serde_json::from_value::<ToolAnnotations>(a.clone())
            .map_err(|e| format!("annotations: {e}"))?,
        None => ToolAnnotations::default(),
    };
    annotations.read_only_hint = true;
    let mut tool = builder
        .annotations(annotations)
        .extractor_handler((), |RawArgs(args): RawArgs| async move {
            let mut result = CallToolResult::text(args.to_string());
            result.structured_content = Some(json!({ "arguments": args }));
            Ok(result)
        })
        .build();
    if let Some(icons) = definition.get("icons") {
        let icons = serde_json::from_value::<Vec<ToolIcon>>(icons.clone())
            .map_err(|e| format!("icons: {e}"))?;
        tool.icons = Some(icons);
    }
    if let Some(meta) = definition.get("_meta") {
        tool = tool
            .with_meta(meta.clone())
            .map_err(|e| format!("_meta: {e}"))?;
    }
    Ok(tool)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(tools: Value) -> String {
        json!({"format": FORMAT, "seed": 1, "tools": tools}).to_string()
    }

    #[test]
    fn reads_every_definition_valid_or_not() {
        let text = set(json!([
            {"definition": {"name": "a", "inputSchema": {"type": "object"}}, "valid": true,
             "reason": null, "calls": []},
            {"definition": {"name": "b", "inputSchema": {"type": "object", "properties": {
                "r": {"type": "string", "x-mcp-header": ""}}}}, "valid": false,
             "reason": {"kind": "empty"}, "calls": []}
        ]));
        let defs = definitions(&text).expect("a well-formed set");
        assert_eq!(defs.len(), 2);
        assert_eq!(defs[1]["name"], "b");
    }

    #[test]
    fn refuses_what_is_not_a_tool_set() {
        assert!(definitions("{").is_err());
        assert!(definitions(r#"{"format":"other/1","tools":[]}"#).is_err());
        assert!(definitions(&set(json!([{"valid": true}]))).is_err());
    }

    #[test]
    fn keeps_the_schema_verbatim_and_marks_read_only() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"}}});
        let t = tool(&json!({"name": "gen_0000", "description": "d", "inputSchema": schema}))
            .expect("a valid name");
        let d = t.definition();
        assert_eq!(d.input_schema, schema);
        assert_eq!(d.description.as_deref(), Some("d"));
        assert!(d.annotations.expect("annotations set").read_only_hint);
    }

    #[test]
    fn skips_refused_names_and_fixture_names() {
        let defs = [
            json!({"name": "café", "inputSchema": {"type": "object"}}),
            json!({"name": "get_weather", "inputSchema": {"type": "object"}}),
            json!({"name": "ok", "inputSchema": {"type": "object"}}),
        ];
        let names: Vec<_> = tools(&defs, &["get_weather"])
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["ok"]);
    }

    #[tokio::test]
    async fn answers_with_its_arguments() {
        let t = tool(&json!({"name": "echo", "inputSchema": {"type": "object"}}))
            .expect("a valid name");
        let r = t.call(json!({"region": "us-west1"})).await;
        assert_eq!(
            r.structured_content,
            Some(json!({"arguments": {"region": "us-west1"}}))
        );
        assert_eq!(r.first_text(), Some(r#"{"region":"us-west1"}"#));
    }
}
