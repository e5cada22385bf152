//! One recorded request from a client: the standard headers it must carry, and the
//! `Mcp-Param-*` headers of a `tools/call` (streamable-http.mdx § Request Metadata).

use super::expect::{param_expectations, Presence};
use super::value::{judge_value, ValueKind};
use super::{show_bytes, ClientFinding};
use crate::case::META_PROTOCOL_VERSION;
use crate::rules::client::{
    ACCEPT, HDR_METHOD, HDR_NAME, PARAM_ABSENT_OMIT, PARAM_INCLUDE, PARAM_NULL_OMIT, PV_MATCH,
    PV_PRESENT,
};
use crate::toolset::ToolSet;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A request as the recording server received it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    /// The HTTP method (`POST`, `GET`, ...).
    pub method: String,
    /// Header fields in arrival order, names as sent, values as raw bytes.
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

impl RecordedRequest {
    /// Every value of the header `name` (case-insensitive), in order.
    pub fn values(&self, name: &str) -> Vec<&[u8]> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
            .collect()
    }

    /// The field value of `name`: several lines joined with ", " (RFC 9110 § 5.3).
    pub fn value(&self, name: &str) -> Option<Vec<u8>> {
        let vs = self.values(name);
        (!vs.is_empty()).then(|| vs.join(&b", "[..]))
    }

    /// The JSON body, when it is one.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// Whether a request speaks this revision: its body carries
/// `params._meta["io.modelcontextprotocol/protocolVersion"]` and it is not `initialize`.
/// Legacy-era requests (a client's fallback) are not judged by the header rules (D-43).
pub fn is_modern(body: &Value) -> bool {
    body.get("method").and_then(Value::as_str) != Some("initialize")
        && body
            .pointer("/params/_meta")
            .and_then(|m| m.get(META_PROTOCOL_VERSION))
            .is_some()
}

/// Findings on one recorded request, judged against the served `set`.
pub fn judge_request(set: &ToolSet, req: &RecordedRequest) -> Vec<ClientFinding> {
    let mut out = Vec::new();
    if req.method != "POST" {
        return out;
    }
    accept(req, &mut out);
    let Some(body) = req.json() else {
        return out;
    };
    let Some(method) = body.get("method").and_then(Value::as_str) else {
        return out;
    };
    // Notifications are not requests: the metadata headers bind requests (D-25 for servers).
    if body.get("id").is_none() || !is_modern(&body) {
        return out;
    }
    let tool_name = body.pointer("/params/name").and_then(Value::as_str);
    let arguments = body.pointer("/params/arguments").cloned();
    let tool_tag = |f: ClientFinding| match tool_name {
        Some(n) if method == "tools/call" => ClientFinding {
            arguments: arguments.clone(),
            ..f.tool(n)
        },
        _ => f,
    };
    protocol_version(req, &body, &mut out);
    match req.value("Mcp-Method") {
        Some(v) if v == method.as_bytes() => {}
        sent => out.push(tool_tag(
            ClientFinding::new(HDR_METHOD, format!("Mcp-Method does not carry {method:?}"))
                .header("Mcp-Method")
                .sent(sent.map(|v| show_bytes(&v)))
                .allowed(vec![method.to_string()]),
        )),
    }
    let name_field = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    };
    if let Some(src) = name_field.and_then(|f| body.get("params")?.get(f)?.as_str()) {
        let found = match req.value("Mcp-Name") {
            None => Err((
                HDR_NAME,
                vec![crate::encoding::encode_header_value(src)],
                None,
            )),
            Some(raw) => judge_value(ValueKind::Name, src, &Value::from(src), &raw)
                .map_err(|(r, a)| (r, a, Some(show_bytes(&raw)))),
        };
        if let Err((rule, allowed, sent)) = found {
            out.push(tool_tag(
                ClientFinding::new(rule, format!("Mcp-Name does not carry {src:?} as encoded"))
                    .header("Mcp-Name")
                    .sent(sent)
                    .allowed(allowed),
            ));
        }
    }
    if method == "tools/call" {
        if let Some(name) = tool_name {
            let start = out.len();
            params(set, name, &body, req, &mut out);
            for f in &mut out[start..] {
                f.arguments.clone_from(&arguments);
            }
        }
    }
    out
}

fn accept(req: &RecordedRequest, out: &mut Vec<ClientFinding>) {
    let raw = req.value("Accept");
    let text = raw
        .as_deref()
        .map(show_bytes)
        .unwrap_or_default()
        .to_ascii_lowercase();
    let types: Vec<&str> = text
        .split(',')
        .map(|t| t.split(';').next().unwrap_or("").trim())
        .collect();
    if !(types.contains(&"application/json") && types.contains(&"text/event-stream")) {
        out.push(
            ClientFinding::new(ACCEPT, "Accept does not list both media types")
                .header("Accept")
                .sent(raw.map(|v| show_bytes(&v)))
                .allowed(vec!["application/json, text/event-stream".into()]),
        );
    }
}

fn protocol_version(req: &RecordedRequest, body: &Value, out: &mut Vec<ClientFinding>) {
    let want = body
        .pointer("/params/_meta")
        .and_then(|m| m.get(META_PROTOCOL_VERSION))
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        .unwrap_or_default();
    match req.value("MCP-Protocol-Version") {
        None => out.push(
            ClientFinding::new(PV_PRESENT, "no MCP-Protocol-Version header")
                .header("MCP-Protocol-Version")
                .allowed(vec![want]),
        ),
        Some(v) if v != want.as_bytes() => out.push(
            ClientFinding::new(
                PV_MATCH,
                "MCP-Protocol-Version differs from the body's _meta",
            )
            .header("MCP-Protocol-Version")
            .sent(Some(show_bytes(&v)))
            .allowed(vec![want]),
        ),
        Some(_) => {}
    }
}

/// The `Mcp-Param-*` headers of a call of `name`. Unknown and invalid tools are not judged
/// here: keeping an invalid tool is already CLIENT-TOOL-EXCLUDE (D-43).
fn params(
    set: &ToolSet,
    name: &str,
    body: &Value,
    req: &RecordedRequest,
    out: &mut Vec<ClientFinding>,
) {
    let Some(tool) = set.tools.iter().find(|t| t.name() == name && t.valid) else {
        return;
    };
    let Ok(annotated) = crate::toolset::label(tool.input_schema()) else {
        return;
    };
    let arguments = body.pointer("/params/arguments");
    for e in param_expectations(&annotated, arguments) {
        let sent = req.value(&e.header);
        let shown = sent.as_deref().map(show_bytes);
        let finding = |rule, detail: String, allowed: Vec<String>| {
            ClientFinding::new(rule, detail)
                .tool(name)
                .header(&e.header)
                .sent(shown.clone())
                .allowed(allowed)
        };
        match (&e.presence, &sent) {
            (Presence::Absent, Some(_)) => out.push(finding(
                PARAM_ABSENT_OMIT,
                "header sent for an argument that is not in the arguments".into(),
                vec!["omit".into()],
            )),
            (Presence::Null, Some(_)) => out.push(finding(
                PARAM_NULL_OMIT,
                "header sent for a null argument".into(),
                vec!["omit".into()],
            )),
            (Presence::Value { text, .. }, None) => out.push(finding(
                PARAM_INCLUDE,
                format!("no header for the provided value {text:?}"),
                vec![crate::encoding::encode_header_value(text)],
            )),
            (Presence::Value { text, body }, Some(raw)) => {
                if let Err((rule, allowed)) = judge_value(ValueKind::Param(e.kind), text, body, raw)
                {
                    out.push(finding(
                        rule,
                        format!("value {text:?} sent wrongly"),
                        allowed,
                    ));
                }
            }
            _ => {}
        }
    }
}
