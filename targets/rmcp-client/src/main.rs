//! mcpdiff client driver for rmcp: `mcpdiff-target-rmcp-client <url> <calls.json>`.
//!
//! Connects to the mcpdiff recording server with the SDK's streamable HTTP client (2026-07-28
//! lifecycle: `serve_with_lifecycle` with `ClientLifecycleMode::Discover`), lists every
//! tool, prints `{"kept": [names]}` as one JSON line on stdout, then calls each kept tool with
//! each argument object the calls file gives for it (`{"calls": [{"tool", "arguments"?}]}`)
//! (then reads each of `reads` and gets each of `prompts`, the `Mcp-Name` probes) and prints
//! `{"done": n, "errors": [...]}`. What the client sent is recorded by mcpdiff, not
//! here: the driver only does what an application using the SDK would do.

use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, ProtocolVersion, ReadResourceRequestParams,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{json, Value};

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: mcpdiff-target-rmcp-client <url> <calls.json>");
        std::process::exit(2);
    }
    let calls: Value = match std::fs::read_to_string(&args[2])
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(v) => v,
        Err(e) => {
            eprintln!("cannot read calls file {}: {e}", args[2]);
            std::process::exit(2);
        }
    };
    let transport = StreamableHttpClientTransport::from_uri(args[1].as_str());
    // `serve` alone runs the legacy initialize handshake; this revision's stateless lifecycle
    // is opted into with `serve_with_lifecycle` (server/discover, per-request _meta).
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = match ().serve_with_lifecycle(transport, lifecycle).await {
        Ok(c) => c,
        Err(e) => {
            println!("{}", json!({"error": format!("connect: {e}")}));
            std::process::exit(1);
        }
    };
    let tools = match client.list_all_tools().await {
        Ok(t) => t,
        Err(e) => {
            println!("{}", json!({"error": format!("tools/list: {e}")}));
            std::process::exit(1);
        }
    };
    let kept: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    println!("{}", json!({ "kept": kept }));
    let mut errors = Vec::new();
    let mut done = 0;
    for call in calls["calls"].as_array().into_iter().flatten() {
        let Some(name) = call["tool"].as_str() else {
            continue;
        };
        if !kept.iter().any(|k| k == name) {
            continue;
        }
        let mut params = CallToolRequestParams::new(name.to_string());
        params.arguments = call.get("arguments").and_then(Value::as_object).cloned();
        match client.call_tool(params).await {
            Ok(_) => done += 1,
            Err(e) => errors.push(format!("{name}: {e}")),
        }
    }
    for uri in calls["reads"].as_array().into_iter().flatten() {
        let Some(uri) = uri.as_str() else { continue };
        match client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
        {
            Ok(_) => done += 1,
            Err(e) => errors.push(format!("read {uri}: {e}")),
        }
    }
    for name in calls["prompts"].as_array().into_iter().flatten() {
        let Some(name) = name.as_str() else { continue };
        match client.get_prompt(GetPromptRequestParams::new(name)).await {
            Ok(_) => done += 1,
            Err(e) => errors.push(format!("prompt {name}: {e}")),
        }
    }
    println!("{}", json!({"done": done, "errors": errors}));
    let _ = client.cancel().await;
}
