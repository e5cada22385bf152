//! What the recording server answers (pure): enough of a 2026-07-28 server for a client SDK
//! to discover it, list the served tool set and call each tool. A call answers with its own
//! arguments as text, whatever headers came with it: the recording server never refuses, so
//! a client defect shows up in what was recorded, not as a retry loop.

use mcpdiff_oracle::case::MODERN_VERSION;
use mcpdiff_oracle::toolset::ToolSet;
use serde_json::{json, Value};

/// The legacy version the recording server names when a client insists on `initialize`.
pub const LEGACY_VERSION: &str = "2025-11-25";

/// An HTTP answer: status and JSON body (`None`: empty body, for notifications).
#[derive(Clone, Debug, PartialEq)]
pub struct RecorderAnswer {
    pub status: u16,
    pub body: Option<Value>,
}

fn result(id: &Value, mut result: Value) -> RecorderAnswer {
    result["resultType"] = json!("complete");
    result["_meta"] = json!({"io.modelcontextprotocol/serverInfo":
        {"name": "mcpdiff-recorder", "version": env!("CARGO_PKG_VERSION")}});
    RecorderAnswer {
        status: 200,
        body: Some(json!({"jsonrpc": "2.0", "id": id, "result": result})),
    }
}

fn error(status: u16, id: Option<&Value>, code: i64, message: &str) -> RecorderAnswer {
    RecorderAnswer {
        status,
        body: Some(
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
        ),
    }
}

/// A 400 / -32020 HeaderMismatch refusal of one request (the retry probe).
pub fn header_mismatch(body: &[u8]) -> RecorderAnswer {
    let id = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|b| b.get("id").cloned());
    error(
        400,
        id.as_ref(),
        -32020,
        "HeaderMismatch: required Mcp-Param headers are missing or do not match the body",
    )
}

/// The answer to one POST body.
pub fn answer(set: &ToolSet, body: &[u8]) -> RecorderAnswer {
    let Ok(msg) = serde_json::from_slice::<Value>(body) else {
        return error(400, None, -32700, "Parse error");
    };
    let Some(method) = msg.get("method").and_then(Value::as_str) else {
        return error(400, None, -32600, "Invalid Request");
    };
    let Some(id) = msg.get("id") else {
        return RecorderAnswer {
            status: 202,
            body: None,
        };
    };
    match method {
        "server/discover" => result(
            id,
            json!({"supportedVersions": [MODERN_VERSION],
                   "capabilities": {"tools": {"listChanged": false},
                                    "resources": {"listChanged": false},
                                    "prompts": {"listChanged": false}},
                   "instructions": "mcpdiff recording server",
                   "ttlMs": 0, "cacheScope": "private"}),
        ),
        "initialize" => result(
            id,
            json!({"protocolVersion": LEGACY_VERSION,
                   "capabilities": {"tools": {"listChanged": false}},
                   "serverInfo": {"name": "mcpdiff-recorder", "version": env!("CARGO_PKG_VERSION")}}),
        ),
        "tools/list" => {
            let tools: Vec<&Value> = set.tools.iter().map(|t| &t.definition).collect();
            result(
                id,
                json!({ "tools": tools, "ttlMs": 0, "cacheScope": "private" }),
            )
        }
        "tools/call" => {
            let args = msg
                .pointer("/params/arguments")
                .cloned()
                .unwrap_or(Value::Null);
            result(
                id,
                json!({"content": [{"type": "text", "text": args.to_string()}], "isError": false}),
            )
        }
        "resources/read" => {
            let uri = msg.pointer("/params/uri").cloned().unwrap_or(Value::Null);
            result(
                id,
                json!({"contents": [{"uri": uri, "mimeType": "text/plain", "text": "mcpdiff"}],
                       "ttlMs": 0, "cacheScope": "private"}),
            )
        }
        "prompts/get" => result(
            id,
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "mcpdiff"}}]}),
        ),
        "resources/list" => result(
            id,
            json!({"resources": [], "ttlMs": 0, "cacheScope": "private"}),
        ),
        "prompts/list" => result(
            id,
            json!({"prompts": [], "ttlMs": 0, "cacheScope": "private"}),
        ),
        "ping" => result(id, json!({})),
        _ => error(404, Some(id), -32601, "Method not found"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::client_judge::calibration_set;

    #[test]
    fn lists_the_set_and_echoes_arguments() {
        let set = calibration_set();
        let a = answer(
            &set,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
        );
        let tools = a.body.expect("body")["result"]["tools"].clone();
        assert_eq!(tools.as_array().map(Vec::len), Some(set.tools.len()));
        let a = answer(
            &set,
            br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{"a":1}}}"#,
        );
        assert_eq!(
            a.body.expect("body")["result"]["content"][0]["text"],
            "{\"a\":1}"
        );
        let n = answer(
            &set,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        assert_eq!((n.status, n.body), (202, None));
    }
}
