//! The HeaderMismatch retry (CLIENT-MISMATCH-RETRY, SHOULD): after a `tools/call` is refused
//! with 400 / -32020, a client calls `tools/list` and then sends the call again.
//!
//! The recording server refuses the first call of one tool on purpose (the retry probe) and
//! from then on publishes a changed `inputSchema` (an annotation added); this judges the log
//! that follows: a `tools/list` after the refusal, then a `tools/call` of the same tool with
//! the same arguments after that list, carrying the headers the changed schema asks for
//! ("retry the original request with the appropriate headers").

use super::{judge_request, ClientFinding, RecordedRequest};
use crate::rules::client::MISMATCH_RETRY;
use crate::toolset::ToolSet;
use serde_json::Value;

fn call_of(r: &RecordedRequest) -> Option<(String, Option<Value>)> {
    let b = r.json()?;
    if b.get("method")?.as_str()? != "tools/call" {
        return None;
    }
    let name = b.pointer("/params/name")?.as_str()?.to_string();
    Some((name, b.pointer("/params/arguments").cloned()))
}

fn is_list(r: &RecordedRequest) -> bool {
    r.json()
        .and_then(|b| {
            b.get("method")
                .and_then(Value::as_str)
                .map(|m| m == "tools/list")
        })
        .unwrap_or(false)
}

/// Findings on a log where the requests at `refused` (indices) were answered 400 / -32020
/// and `changed` was published from then on (`None`: the same set).
pub fn judge_retry(
    log: &[RecordedRequest],
    refused: &[usize],
    changed: Option<&ToolSet>,
) -> Vec<ClientFinding> {
    let mut out = Vec::new();
    for &i in refused {
        let Some((name, args)) = log.get(i).and_then(call_of) else {
            continue;
        };
        let list = log
            .iter()
            .enumerate()
            .skip(i + 1)
            .find(|(_, r)| is_list(r))
            .map(|(j, _)| j);
        let retry = list.and_then(|j| {
            log.iter()
                .skip(j + 1)
                .find(|r| call_of(r).is_some_and(|(n, a)| n == name && a == args))
        });
        if let (Some(r), Some(set)) = (retry, changed) {
            let stale: Vec<String> = judge_request(set, r)
                .into_iter()
                .filter(|f| {
                    f.header
                        .as_deref()
                        .is_some_and(|h| h.starts_with("Mcp-Param-"))
                })
                .map(|f| f.detail)
                .collect();
            if !stale.is_empty() {
                let mut f = ClientFinding::new(
                    MISMATCH_RETRY,
                    format!(
                        "retried without the headers of the re-listed inputSchema: {}",
                        stale.join("; ")
                    ),
                )
                .tool(&name);
                f.arguments = args.clone();
                f.allowed =
                    vec!["the retry carries the re-listed tool's Mcp-Param-* headers".into()];
                out.push(f);
            }
        }
        if retry.is_none() {
            let what = match list {
                None => "no tools/list after the HeaderMismatch refusal",
                Some(_) => "tools/list was called but the call was not retried",
            };
            let mut f = ClientFinding::new(MISMATCH_RETRY, what).tool(&name);
            f.arguments = args;
            f.allowed = vec!["tools/list, then the same tools/call".into()];
            out.push(f);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client_judge::reference_request;
    use crate::toolset::GeneratedTool;
    use serde_json::json;

    #[test]
    fn a_retry_must_carry_the_headers_of_the_changed_schema() {
        let def = |annotated: bool| {
            let mut p = json!({"type": "string"});
            if annotated {
                p["x-mcp-header"] = json!("A");
            }
            GeneratedTool::labelled(
                json!({"name": "t", "inputSchema": {"type": "object", "properties": {"a": p}}}),
                vec![],
                None,
            )
        };
        let (before, after) = (def(false), def(true));
        let changed = ToolSet::new(None, vec![after.clone()]);
        let args = json!({"a": "v"});
        let list = req("tools/list", json!({}));
        let stale = reference_request(&before, Some(&args), 1);
        let fresh = reference_request(&after, Some(&args), 2);
        let good = vec![stale.clone(), list.clone(), fresh];
        assert!(judge_retry(&good, &[0], Some(&changed)).is_empty());
        let bad = vec![stale.clone(), list, stale];
        let f = judge_retry(&bad, &[0], Some(&changed));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].rule, MISMATCH_RETRY);
    }

    fn req(method: &str, params: Value) -> RecordedRequest {
        RecordedRequest {
            method: "POST".into(),
            headers: Vec::new(),
            body: serde_json::to_vec(
                &json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}),
            )
            .unwrap_or_default(),
        }
    }

    #[test]
    fn retry_after_list_is_clean_and_each_omission_is_caught() {
        let call = req("tools/call", json!({"name": "t", "arguments": {"a": 1}}));
        let list = req("tools/list", json!({}));
        let good = vec![call.clone(), list.clone(), call.clone()];
        assert!(judge_retry(&good, &[0], None).is_empty());
        for bad in [
            vec![call.clone()],
            vec![call.clone(), list.clone()],
            vec![call.clone(), call.clone(), list],
        ] {
            let f = judge_retry(&bad, &[0], None);
            assert_eq!(f.len(), 1, "{bad:?}");
            assert_eq!(f[0].rule, MISMATCH_RETRY);
        }
    }
}
