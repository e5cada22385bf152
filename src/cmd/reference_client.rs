//! `mcpdiff reference-client URL CALLS [--mutant NAME]`: the oracle's reference client (or
//! one of its client mutants) as a client driver over real HTTP, speaking the same driver
//! protocol as `targets/*-client/` (prints `{"kept": [...]}`, then `{"done", "errors"}`).
//! It calibrates the client pipeline end to end: the reference scores clean through the
//! recording server and each mutant is caught by its rule (tests/clients_pipeline.rs).

use super::exit::{self, fail};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::case::MODERN_VERSION;
use mcpdiff_oracle::client::request_body;
use mcpdiff_oracle::client_judge::{ClientMutant, RecordedRequest, ReferenceClient, MUTANTS};
use mcpdiff_oracle::encoding::encode_header_value;
use mcpdiff_oracle::toolset::{GeneratedTool, ToolCall, ToolSet};
use mcpdiff_oracle::{rules, Body, Case, Observation};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ReferenceClientArgs {
    /// The MCP endpoint (a loopback URL, e.g. the recording server's).
    url: String,
    /// The calls file (`{"calls": [{"tool", "arguments"?}]}`).
    calls: PathBuf,
    /// Plant one client defect (`--mutant list` names them; `no-retry` skips the
    /// tools/list + retry after a HeaderMismatch refusal).
    #[arg(long)]
    mutant: Option<String>,
}

fn case(endpoint: &Endpoint, r: RecordedRequest) -> Case {
    Case {
        method: r.method,
        path: endpoint.path.clone(),
        headers: r
            .headers
            .into_iter()
            .map(|(n, v)| (n.into_bytes(), v))
            .collect(),
        body: r.body,
        labels: Vec::new(),
    }
}

/// A conforming request for a method with no mirrored name or parameters.
fn plain(id: u64, method: &str) -> RecordedRequest {
    with_params(id, method, &json!({}))
}

/// A conforming request for `method` with `params` (standard headers only).
fn with_params(id: u64, method: &str, params: &Value) -> RecordedRequest {
    let body = request_body(&json!(id), method, params);
    RecordedRequest {
        method: "POST".into(),
        headers: vec![
            ("Content-Type".into(), b"application/json".to_vec()),
            (
                "Accept".into(),
                b"application/json, text/event-stream".to_vec(),
            ),
            (
                "MCP-Protocol-Version".into(),
                MODERN_VERSION.as_bytes().to_vec(),
            ),
            ("Mcp-Method".into(), method.as_bytes().to_vec()),
        ],
        // serializing a Value cannot fail
        body: serde_json::to_vec(&body).unwrap_or_default(),
    }
}

fn result(o: &Observation) -> Option<&Value> {
    match o {
        Observation::Http(a) => match &a.body {
            Body::Json { value } => value.get("result"),
            _ => None,
        },
        Observation::Transport { .. } => None,
    }
}

pub fn run(args: ReferenceClientArgs) -> ExitCode {
    if args.mutant.as_deref() == Some("list") {
        for (m, rule) in MUTANTS {
            println!("{:<24} breaks {rule}", m.name());
        }
        println!("{:<24} breaks {}", NO_RETRY, rules::client::MISMATCH_RETRY);
        println!(
            "{:<24} breaks {}",
            STALE_RETRY,
            rules::client::MISMATCH_RETRY
        );
        return ExitCode::SUCCESS;
    }
    let retry = match args.mutant.as_deref() {
        Some(NO_RETRY) => Retry::No,
        Some(STALE_RETRY) => Retry::Stale,
        _ => Retry::Fresh,
    };
    let named = args
        .mutant
        .as_deref()
        .filter(|m| *m != NO_RETRY && *m != STALE_RETRY);
    let mutant = match named.map(ClientMutant::by_name) {
        Some(None) => return fail("unknown client mutant; `--mutant list` names them"),
        Some(m) => m,
        None => None,
    };
    let endpoint = match Endpoint::parse(&args.url) {
        Ok(e) => e,
        Err(e) => return fail(&format!("bad URL {}: {e}", args.url)),
    };
    let plan: Value = match std::fs::read_to_string(&args.calls)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()))
    {
        Ok(v) => v,
        Err(e) => {
            return fail(&format!(
                "cannot read calls file {}: {e}",
                args.calls.display()
            ))
        }
    };
    let rt = match exit::runtime() {
        Ok(rt) => rt,
        Err(e) => return fail(&e),
    };
    rt.block_on(drive(ReferenceClient { mutant }, retry, &endpoint, &plan))
}

/// The mutant that does not retry after a HeaderMismatch (a conversation, not a request).
const NO_RETRY: &str = "no-retry";
/// The mutant that retries with the headers of the tool definition it had before.
const STALE_RETRY: &str = "stale-retry";

/// Whether an answer is a JSON-RPC error with code -32020.
fn is_mismatch(o: &Observation) -> bool {
    match o {
        Observation::Http(a) => match &a.body {
            Body::Json { value } => value.pointer("/error/code") == Some(&json!(-32020)),
            _ => false,
        },
        Observation::Transport { .. } => false,
    }
}

/// What the client does after a HeaderMismatch refusal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Retry {
    /// tools/list, then the call again with the re-listed definition's headers (the SHOULD).
    Fresh,
    /// tools/list, then the call again with the old headers.
    Stale,
    /// Nothing.
    No,
}

async fn drive(
    client: ReferenceClient,
    retry: Retry,
    endpoint: &Endpoint,
    plan: &Value,
) -> ExitCode {
    let calls: &[Value] = plan["calls"].as_array().map_or(&[], Vec::as_slice);
    let http = Client::new(Limits::default());
    let _ = http
        .send(&case(endpoint, plain(1, "server/discover")), endpoint)
        .await;
    let listed = http
        .send(&case(endpoint, plain(2, "tools/list")), endpoint)
        .await;
    let Some(tools) = result(&listed)
        .and_then(|r| r.get("tools"))
        .and_then(Value::as_array)
    else {
        println!("{}", json!({"error": "tools/list: no tools in the answer"}));
        return exit::findings(true);
    };
    let set = ToolSet::new(
        None,
        tools
            .iter()
            .map(|def| {
                let name = def.get("name").cloned().unwrap_or(Value::Null);
                let mine = calls.iter().filter(|c| c.get("tool") == Some(&name));
                let calls = mine
                    .map(|c| ToolCall {
                        arguments: c.get("arguments").cloned(),
                        note: None,
                    })
                    .collect();
                GeneratedTool::labelled(def.clone(), calls, None)
            })
            .collect(),
    );
    let kept = client.kept(&set);
    println!("{}", json!({ "kept": kept }));
    let (mut done, mut errors, mut id) = (0, Vec::new(), 3);
    for tool in set
        .tools
        .iter()
        .filter(|t| kept.iter().any(|k| k == t.name()))
    {
        for call in &tool.calls {
            let req = client.request(tool, call.arguments.as_ref(), id);
            id += 1;
            let mut answer = http.send(&case(endpoint, req), endpoint).await;
            if retry != Retry::No && is_mismatch(&answer) {
                // the spec's SHOULD: list the tools again, then retry the original request
                // with the headers the (possibly changed) inputSchema asks for
                let relisted = http
                    .send(&case(endpoint, plain(id, "tools/list")), endpoint)
                    .await;
                id += 1;
                let fresh = result(&relisted)
                    .and_then(|r| r.get("tools"))
                    .and_then(Value::as_array)
                    .and_then(|ts| {
                        ts.iter()
                            .find(|d| d.get("name") == tool.definition.get("name"))
                    })
                    .map(|d| GeneratedTool::labelled(d.clone(), Vec::new(), None))
                    .filter(|_| retry == Retry::Fresh);
                let again =
                    client.request(fresh.as_ref().unwrap_or(tool), call.arguments.as_ref(), id);
                id += 1;
                answer = http.send(&case(endpoint, again), endpoint).await;
            }
            match result(&answer) {
                Some(_) => done += 1,
                None => errors.push(format!("{}: no result", tool.name())),
            }
        }
    }
    // the Mcp-Name probes: resources/read by URI, prompts/get by name
    let names = |key: &str| -> Vec<String> {
        plan.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    };
    let probes = names("reads")
        .into_iter()
        .map(|u| ("resources/read", "uri", u))
        .chain(
            names("prompts")
                .into_iter()
                .map(|n| ("prompts/get", "name", n)),
        );
    for (method, field, value) in probes {
        let mut req = with_params(id, method, &json!({ field: value }));
        id += 1;
        let name = match client.mutant {
            Some(ClientMutant::NoMcpName) => None,
            Some(ClientMutant::NamePlain) => Some(value.clone()),
            _ => Some(encode_header_value(&value)),
        };
        if let Some(n) = name {
            req.headers.push(("Mcp-Name".into(), n.into_bytes()));
        }
        match result(&http.send(&case(endpoint, req), endpoint).await) {
            Some(_) => done += 1,
            None => errors.push(format!("{method} {value}: no result")),
        }
    }
    println!("{}", json!({"done": done, "errors": errors}));
    ExitCode::SUCCESS
}
