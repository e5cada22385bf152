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

/// Hand-written edge cases beyond the calibration: JavaScript prototype names as property
/// names, empty and control-character values, the sentinel overlap, upper-case markers,
/// integral floats, annotations under keywords other than `properties`, unusual tool names.
/// Served with the calibration set; their expected behaviour is the client judge's.
pub fn edge_set() -> ToolSet {
    let s = |h: &str| json!({"type": "string", "x-mcp-header": h});
    let proto = tool(
        "edge_proto_names",
        json!({"constructor": s("Ctor"), "toString": s("ToStr"), "__proto__": s("Proto"),
               "hasOwnProperty": s("Hop")}),
        vec![
            call(
                Some(json!({})),
                "all absent: a JS lookup may find Object.prototype members",
            ),
            call(
                Some(json!({"constructor": "c", "toString": "t"})),
                "two provided",
            ),
        ],
        "property names of Object.prototype",
    );
    let values = tool(
        "edge_values",
        json!({"v": s("V"), "n": {"type": "integer", "x-mcp-header": "N"},
               "b": {"type": "boolean", "x-mcp-header": "B"}}),
        vec![
            call(Some(json!({"v": ""})), "empty string"),
            call(Some(json!({"v": "a\tb"})), "internal HTAB"),
            call(Some(json!({"v": "del\u{7f}"})), "DEL"),
            call(Some(json!({"v": "\u{0}nul"})), "NUL"),
            call(Some(json!({"v": "=?base64?="})), "prefix/suffix overlap"),
            call(
                Some(json!({"v": "=?BASE64?SGVsbG8=?="})),
                "upper-case markers: plain",
            ),
            call(
                Some(json!({"v": "=?base64?SGVsbG8=?="})),
                "a real sentinel as the value",
            ),
            call(Some(json!({"v": "us west 1"})), "internal spaces: plain"),
            call(Some(json!({"v": "x".repeat(4000)})), "4000-character value"),
            call(Some(json!({"n": 42.0})), "integral float for an integer"),
            call(Some(json!({"n": 0, "b": false})), "zero and false"),
            call(Some(json!({"v": 7})), "integer where a string is declared"),
            call(
                Some(json!({"b": "true"})),
                "string where a boolean is declared",
            ),
        ],
        "edge values",
    );
    let mut tools = vec![proto, values];
    for (name, note) in [
        ("edge name", "space inside a tool name"),
        (" edge_lead", "leading space in a tool name"),
        ("=?base64?edge?=", "tool name that looks like a sentinel"),
        ("édge", "non-ASCII tool name"),
    ] {
        tools.push(tool(
            name,
            json!({"q": s("Q")}),
            vec![call(Some(json!({"q": "v"})), note)],
            note,
        ));
    }
    for (name, schema, note) in [
        (
            "edge_bad_additional",
            json!({"type": "object", "additionalProperties": s("A")}),
            "under additionalProperties",
        ),
        (
            "edge_bad_pattern",
            json!({"type": "object", "patternProperties": {"^x": s("P")}}),
            "under patternProperties",
        ),
        (
            "edge_bad_dependent",
            json!({"type": "object", "dependentSchemas": {"a": {"properties": {"z": s("Z")}}}}),
            "under dependentSchemas",
        ),
        (
            "edge_bad_prefix",
            json!({"type": "object", "properties": {"l": {"type": "array", "prefixItems": [s("Pi")]}}}),
            "under prefixItems",
        ),
        (
            "edge_bad_else",
            json!({"type": "object", "if": {}, "then": {}, "else": {"properties": {"e": s("E")}}}),
            "under else",
        ),
        (
            "edge_bad_nullable",
            json!({"type": "object", "properties": {"v": {"type": ["string", "null"], "x-mcp-header": "V"}}}),
            "type [string, null]",
        ),
        (
            "edge_bad_nonascii",
            json!({"type": "object", "properties": {"v": s("Région")}}),
            "non-ASCII header name",
        ),
        (
            "edge_bad_colon",
            json!({"type": "object", "properties": {"v": s("A:B")}}),
            "colon in header name",
        ),
        (
            "edge_bad_object",
            json!({"type": "object", "properties": {"o": {"type": "object", "x-mcp-header": "O"}}}),
            "on an object",
        ),
        (
            "edge_bad_notype",
            json!({"type": "object", "properties": {"v": {"x-mcp-header": "V"}}}),
            "no type",
        ),
    ] {
        tools.push(GeneratedTool::labelled(
            json!({"name": name, "description": note, "inputSchema": schema}),
            vec![call(Some(json!({"v": "x"})), note)],
            Some(note.to_string()),
        ));
    }
    ToolSet::new(None, tools)
}

/// Resource URIs a driver reads and prompt names it gets, for the `Mcp-Name` rules on
/// `resources/read` and `prompts/get`: plain, with an inner space, non-ASCII, and
/// sentinel-looking (streamable-http.mdx § Standard Request Headers).
pub const NAME_PROBE_URIS: &[&str] = &[
    "file:///projects/myapp/config.json",
    "file:///tmp/r\u{e9}sum\u{e9}.txt",
    "mem://a b",
    "=?base64?uri?=",
];
/// See [`NAME_PROBE_URIS`].
pub const NAME_PROBE_PROMPTS: &[&str] = &["code_review", "r\u{e9}sum\u{e9}", "=?base64?p?="];
