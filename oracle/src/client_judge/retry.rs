//! The HeaderMismatch retry (CLIENT-MISMATCH-RETRY, SHOULD): after a `tools/call` is refused
//! with 400 / -32020, a client calls `tools/list` and then sends the call again.
//!
//! The recording server refuses the first call of one tool on purpose (the retry probe);
//! this judges the log that follows. Only the order matters: a `tools/list` after the
//! refusal, then a `tools/call` of the same tool with the same arguments after that list.

use super::{ClientFinding, RecordedRequest};
use crate::rules::client::MISMATCH_RETRY;
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

/// Findings on a log where the requests at `refused` (indices) were answered 400 / -32020.
pub fn judge_retry(log: &[RecordedRequest], refused: &[usize]) -> Vec<ClientFinding> {
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
        let retried = list.is_some_and(|j| {
            log.iter()
                .skip(j + 1)
                .filter_map(call_of)
                .any(|(n, a)| n == name && a == args)
        });
        if !retried {
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
    use serde_json::json;

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
        assert!(judge_retry(&good, &[0]).is_empty());
        for bad in [
            vec![call.clone()],
            vec![call.clone(), list.clone()],
            vec![call.clone(), call.clone(), list],
        ] {
            let f = judge_retry(&bad, &[0]);
            assert_eq!(f.len(), 1, "{bad:?}");
            assert_eq!(f[0].rule, MISMATCH_RETRY);
        }
    }
}
