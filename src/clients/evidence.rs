//! What a client finding rests on, kept for the regression corpus: the tool served (the
//! shrunk definition plus the offending call's arguments, or the original tool when the
//! finding was not shrunk), the names the client kept, and the one request that broke the
//! rule. Built from what a driver run recorded and judged again here, purely: evidence that
//! does not reproduce its finding under the client judge is never built.
//! `mcpdiff::corpus::client` turns it into a `mcpdiff-client-corpus/1` entry.

pub use crate::report::clients::Evidence;
use mcpdiff_oracle::client_judge::{judge_kept, judge_request, ClientFinding, RecordedRequest};
use mcpdiff_oracle::rules::{client, RuleId};
use mcpdiff_oracle::toolset::{GeneratedTool, ToolCall, ToolSet};
use serde_json::Value;

/// The client judge over a stored recording: the kept names (when given) against `set`,
/// then every request. What `run_once` does for one driver run, minus the I/O.
pub fn judge_recording(
    set: &ToolSet,
    kept: Option<&[String]>,
    requests: &[RecordedRequest],
) -> Vec<ClientFinding> {
    let mut out = kept.map(|k| judge_kept(set, k)).unwrap_or_default();
    for r in requests {
        out.extend(judge_request(set, r));
    }
    out
}

/// The tools/list rules: judged on the kept names, not on a request.
fn is_list_rule(rule: RuleId) -> bool {
    rule == client::TOOL_EXCLUDE || rule == client::TOOL_KEEP_VALID
}

/// Evidence for the finding `f` of a driver run that served `set` and recorded `kept`
/// (present only when the client spoke 2026-07-28) and `requests`. `None` when the run's
/// recording does not reproduce the finding on its own (the retry probe's conversation).
pub fn from_run(
    set: &ToolSet,
    kept: Option<&[String]>,
    requests: &[RecordedRequest],
    f: &ClientFinding,
    shrunk: bool,
) -> Option<Evidence> {
    let tool = f.tool.as_deref();
    let served = tool.and_then(|n| set.tools.iter().find(|t| t.name() == n));
    if tool.is_some() && served.is_none() {
        return None;
    }
    let alone = ToolSet::new(None, served.cloned().into_iter().collect());
    let same = |g: &ClientFinding| g.rule == f.rule && g.tool == f.tool && g.header == f.header;
    let evidence = if is_list_rule(f.rule) {
        let name = tool?;
        let kept: Vec<String> = kept?.iter().filter(|k| *k == name).cloned().collect();
        Evidence {
            tools: with_calls(&alone, &[]),
            kept: Some(kept),
            requests: Vec::new(),
            shrunk,
        }
    } else {
        let request = requests
            .iter()
            .find(|r| judge_request(&alone, r).iter().any(same))?
            .clone();
        let arguments: Vec<Option<Value>> = request
            .json()
            .filter(|b| b.get("method").and_then(Value::as_str) == Some("tools/call"))
            .map(|b| b.pointer("/params/arguments").cloned())
            .into_iter()
            .collect();
        Evidence {
            tools: with_calls(&alone, &arguments),
            kept: None,
            requests: vec![request],
            shrunk,
        }
    };
    let set = ToolSet::new(None, evidence.tools.clone());
    judge_recording(&set, evidence.kept.as_deref(), &evidence.requests)
        .iter()
        .any(same)
        .then_some(evidence)
}

/// The tools of `set` with their calls replaced by `arguments` (the offending call only).
fn with_calls(set: &ToolSet, arguments: &[Option<Value>]) -> Vec<GeneratedTool> {
    set.tools
        .iter()
        .map(|t| {
            let calls = arguments
                .iter()
                .map(|a| ToolCall {
                    arguments: a.clone(),
                    note: None,
                })
                .collect();
            GeneratedTool::labelled(t.definition.clone(), calls, None)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::client_judge::calibration_set;
    use serde_json::json;

    fn call(name: &str, args: Value, headers: &[(&str, &str)]) -> RecordedRequest {
        let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": name, "arguments": args,
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        let mut h: Vec<(String, Vec<u8>)> = vec![
            (
                "accept".into(),
                b"application/json, text/event-stream".to_vec(),
            ),
            ("mcp-protocol-version".into(), b"2026-07-28".to_vec()),
            ("mcp-method".into(), b"tools/call".to_vec()),
            ("mcp-name".into(), name.as_bytes().to_vec()),
        ];
        h.extend(
            headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.as_bytes().to_vec())),
        );
        RecordedRequest {
            method: "POST".into(),
            headers: h,
            body: body.to_string().into_bytes(),
        }
    }

    #[test]
    fn a_request_finding_keeps_one_tool_one_call_and_one_request() {
        let set = calibration_set();
        let ok = call(
            "echo_region",
            json!({"region": "a"}),
            &[("mcp-param-region", "a")],
        );
        let bad = call(
            "echo_region",
            json!({"region": null}),
            &[("mcp-param-region", "")],
        );
        let findings = judge_recording(&set, None, &[ok.clone(), bad.clone()]);
        let f = findings
            .iter()
            .find(|f| f.rule == client::PARAM_NULL_OMIT)
            .expect("null sent");
        let e = from_run(&set, None, &[ok, bad.clone()], f, false).expect("evidence");
        assert_eq!(e.tools.len(), 1);
        assert_eq!(e.tools[0].name(), "echo_region");
        assert_eq!(e.tools[0].calls.len(), 1);
        assert_eq!(e.tools[0].calls[0].arguments, Some(json!({"region": null})));
        assert_eq!(e.requests, vec![bad]);
        assert_eq!(e.kept, None);
    }

    #[test]
    fn a_list_finding_keeps_the_tool_and_the_kept_names_only() {
        let set = calibration_set();
        let invalid = set
            .tools
            .iter()
            .find(|t| !t.valid)
            .expect("an invalid tool");
        let kept: Vec<String> = set.tools.iter().map(|t| t.name().to_string()).collect();
        let f = judge_kept(&set, &kept)
            .into_iter()
            .find(|f| f.tool.as_deref() == Some(invalid.name()))
            .expect("kept invalid");
        let e = from_run(&set, Some(&kept), &[], &f, true).expect("evidence");
        assert_eq!(e.kept, Some(vec![invalid.name().to_string()]));
        assert!(e.requests.is_empty() && e.shrunk);
        // without the kept names (a legacy-era client) there is nothing to stand on
        assert_eq!(from_run(&set, None, &[], &f, true), None);
    }
}
