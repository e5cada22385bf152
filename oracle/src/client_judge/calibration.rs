//! A hand-written tool set that exercises every client rule: valid tools with string,
//! integer, boolean and nested annotations, a tool whose name needs the sentinel, invalid
//! tools of several kinds, and calls with provided, null, absent, non-ASCII, padded and
//! sentinel-looking values. The reference client scores clean on it and each mutant breaks
//! exactly its rule (tests in reference.rs); mcpdiff serves it to client SDKs when no
//! generated set is given.

use crate::toolset::{GeneratedTool, ToolCall, ToolSet};
use serde_json::{json, Value};

fn call(arguments: Option<Value>, note: &str) -> ToolCall {
    ToolCall {
        arguments,
        note: Some(note.to_string()),
    }
}

fn tool(name: &str, properties: Value, calls: Vec<ToolCall>, note: &str) -> GeneratedTool {
    GeneratedTool::labelled(
        json!({"name": name, "description": note,
               "inputSchema": {"type": "object", "properties": properties}}),
        calls,
        Some(note.to_string()),
    )
}

/// The calibration tool set.
pub fn calibration_set() -> ToolSet {
    let strings = tool(
        "echo_region",
        json!({"region": {"type": "string", "x-mcp-header": "Region"},
               "query": {"type": "string"}}),
        vec![
            call(
                Some(json!({"region": "us-west1", "query": "q"})),
                "plain ASCII",
            ),
            call(Some(json!({"region": "Hello, 世界"})), "non-ASCII"),
            call(Some(json!({"region": "é"})), "non-ASCII, padded Base64"),
            call(
                Some(json!({"region": " padded "})),
                "leading/trailing spaces",
            ),
            call(Some(json!({"region": "line1\nline2"})), "newline"),
            call(
                Some(json!({"region": "=?base64?literal?="})),
                "looks like a sentinel",
            ),
            call(Some(json!({"region": null, "query": "q"})), "null"),
            call(Some(json!({"query": "q"})), "absent"),
            call(None, "no arguments member"),
        ],
        "string parameter",
    );
    let typed = tool(
        "typed_params",
        json!({"count": {"type": "integer", "x-mcp-header": "Count"},
               "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
               "target": {"type": "object", "properties": {
                   "zone": {"type": "string", "x-mcp-header": "Zone"}}}}),
        vec![
            call(
                Some(json!({"count": 42, "dry": true, "target": {"zone": "a"}})),
                "integer, boolean, nested string",
            ),
            call(
                Some(json!({"count": -9007199254740991_i64, "dry": false})),
                "negative safe-integer bound",
            ),
            call(Some(json!({"target": {}})), "nested absent"),
        ],
        "integer, boolean and nested parameters",
    );
    let unsafe_name = tool(
        "café",
        json!({"x": {"type": "string", "x-mcp-header": "X"}}),
        vec![call(
            Some(json!({"x": "y"})),
            "tool name needs the sentinel",
        )],
        "non-ASCII tool name",
    );
    let invalid = [
        (
            "bad_empty",
            json!({"a": {"type": "string", "x-mcp-header": ""}}),
            "empty",
        ),
        (
            "bad_space",
            json!({"a": {"type": "string", "x-mcp-header": "Has Space"}}),
            "not a token",
        ),
        (
            "bad_number",
            json!({"a": {"type": "number", "x-mcp-header": "N"}}),
            "number",
        ),
        (
            "bad_dup",
            json!({"a": {"type": "string", "x-mcp-header": "Dup"},
                   "b": {"type": "string", "x-mcp-header": "dUP"}}),
            "case-insensitive duplicate",
        ),
        (
            "bad_items",
            json!({"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "I"}}}),
            "reached through items",
        ),
    ]
    .into_iter()
    .map(|(name, props, note)| {
        tool(
            name,
            props,
            vec![call(Some(json!({"a": "v"})), "call of an invalid tool")],
            note,
        )
    });
    let mut tools = vec![strings, typed, unsafe_name];
    tools.extend(invalid);
    ToolSet::new(None, tools)
}
