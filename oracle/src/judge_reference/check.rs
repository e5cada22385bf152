//! `check` as it was before the issue-7 speed work (every lint re-read the answer's
//! JSON-RPC response), kept as the differential reference of the new one.

use crate::check::Finding;
use crate::observation::{Body, HttpAnswer, Observation};
use crate::rules::{level_of, Level, RuleId};
use crate::verdict::{Answer, DataRule, Demand, Lint, Verdict};
use serde_json::Value;

/// Judge an observation against a verdict.
pub fn check(verdict: &Verdict, obs: &Observation) -> Vec<Finding> {
    let mut out = Vec::new();
    for e in &verdict.expectations {
        let ok = match (&e.demand, obs) {
            (Demand::OneOf(set), Observation::Http(a)) => set.iter().any(|x| matches(x, a)),
            (Demand::OneOf(_), Observation::Transport { .. }) => false,
            (Demand::Lint(l), Observation::Http(a)) => lint_holds(l, a),
            (Demand::Lint(_), Observation::Transport { .. }) => true,
        };
        if !ok && !out.iter().any(|f: &Finding| f.rule == e.rule.0) {
            out.push(finding(e.rule, describe(&e.demand), obs.summary()));
        }
    }
    // rules whose failed expectations have an answer in common share the blame
    for i in 0..out.len() {
        let demand_of = |rule: &str| {
            verdict
                .expectations
                .iter()
                .find(|e| e.rule.0 == rule && matches!(e.demand, Demand::OneOf(_)))
                .map(|e| &e.demand)
        };
        let Some(mine) = demand_of(&out[i].rule) else {
            continue;
        };
        let co: Vec<String> = out
            .iter()
            .filter(|f| f.rule != out[i].rule && demand_of(&f.rule).is_some_and(|d| share(d, mine)))
            .map(|f| f.rule.clone())
            .collect();
        out[i].co_failing = co;
    }
    out
}

/// Whether two answer sets have an answer in common (written out again: this copy is the
/// differential test's reference).
fn share(a: &Demand, b: &Demand) -> bool {
    match (a, b) {
        (Demand::OneOf(x), Demand::OneOf(y)) => x.iter().any(|ax| y.iter().any(|by| by == ax)),
        _ => a == b,
    }
}

fn finding(rule: RuleId, expected: String, observed: String) -> Finding {
    let level: Level = level_of(rule);
    Finding {
        rule: rule.0.to_string(),
        level: level.as_str().to_string(),
        expected,
        observed,
        co_failing: Vec::new(),
    }
}

/// Whether answer pattern `x` describes `a`.
pub fn matches(x: &Answer, a: &HttpAnswer) -> bool {
    let ok2xx = (200..300).contains(&a.status);
    match x {
        Answer::RpcError { status, code, data } => {
            status.contains(a.status)
                && a.error_code() == Some(*code)
                && data_holds(data, a.rpc_response())
        }
        Answer::RpcResult => ok2xx && a.is_result(),
        Answer::OpenStream => ok2xx && a.is_sse() && a.error_code().is_none(),
        Answer::Accepted => a.status == 202 && a.body == Body::Empty,
        Answer::HttpStatus { status } => status.contains(a.status),
        Answer::AnyError => a.status >= 400 || has_error(a),
        Answer::NotAnError => a.status < 400 && !has_error(a),
    }
}

fn has_error(a: &HttpAnswer) -> bool {
    a.rpc_response().is_some_and(|r| r.get("error").is_some())
}

fn data_holds(rule: &DataRule, resp: Option<&Value>) -> bool {
    let data = resp
        .and_then(|r| r.get("error"))
        .and_then(|e| e.get("data"));
    match rule {
        DataRule::None => true,
        DataRule::RequiredCapabilities => data
            .and_then(|d| d.get("requiredCapabilities"))
            .is_some_and(Value::is_object),
        DataRule::UnsupportedVersion { requested } => {
            let Some(d) = data else { return false };
            let req = d.get("requested").and_then(Value::as_str);
            let supported = d.get("supported").and_then(Value::as_array);
            match (req, supported) {
                (Some(r), Some(list)) => {
                    requested.iter().any(|x| x == r)
                        && list.iter().all(Value::is_string)
                        && !list.iter().any(|v| v.as_str() == Some(r))
                }
                _ => false,
            }
        }
    }
}

fn lint_holds(l: &Lint, a: &HttpAnswer) -> bool {
    let resp = a.rpc_response();
    let error = resp.and_then(|r| r.get("error"));
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
    match l {
        Lint::NoSessionId => a.session_id.is_none(),
        // every 2xx and every JSON-RPC response (DEVIATIONS.md D-28)
        Lint::RequestContentType => {
            !((200..300).contains(&a.status) || resp.is_some())
                || a.status == 202 && a.body == Body::Empty
                || matches!(
                    a.content_type.as_deref(),
                    Some("application/json") | Some("text/event-stream")
                )
        }
        Lint::SseXAccel => {
            !a.is_sse()
                || a.x_accel_buffering
                    .as_deref()
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("no"))
        }
        Lint::SseNoRequests => !a
            .sse_json()
            .any(|m| m.get("method").is_some() && m.get("id").is_some()),
        Lint::NoUndefinedReservedCode => {
            !code.is_some_and(|c| (-32099..=-32020).contains(&c) && c < -32022)
        }
        Lint::NoRetiredCode => !matches!(code, Some(-32002) | Some(-32042)),
        Lint::NoLegacyRangeCode => !code.is_some_and(|c| (-32019..=-32000).contains(&c)),
        Lint::ResultType => resp
            .and_then(|r| r.get("result"))
            .is_none_or(|r| r.get("resultType").is_some_and(Value::is_string)),
        Lint::ErrorShape => error.is_none_or(|e| {
            e.get("code").is_some_and(|c| c.is_i64() || c.is_u64())
                && e.get("message").is_some_and(Value::is_string)
        }),
        Lint::ResultIdEcho(id) => match resp {
            Some(r) if r.get("result").is_some() => r.get("id") == Some(id),
            _ => true,
        },
        Lint::ErrorIdEcho { id, may_omit } => match resp {
            Some(r) if r.get("error").is_some() => {
                let unread = r.get("id").is_none_or(Value::is_null);
                r.get("id") == Some(id) || (unread && (*may_omit || a.status == 403))
            }
            _ => true,
        },
        Lint::ServerInfo => resp.and_then(|r| r.get("result")).is_none_or(|r| {
            r.get("_meta")
                .and_then(|m| m.get("io.modelcontextprotocol/serverInfo"))
                .is_some_and(|i| {
                    i.get("name").is_some_and(Value::is_string)
                        && i.get("version").is_some_and(Value::is_string)
                })
        }),
        Lint::AllowOn405 => a.status != 405 || a.allow.is_some(),
        Lint::NamesVersions(versions) => {
            let text = match &a.body {
                Body::Json { value } => value.to_string(),
                Body::Sse { messages, .. } => serde_json::to_string(messages).unwrap_or_default(),
                Body::Other { prefix, .. } => prefix.clone(),
                Body::Empty | Body::Oversize { .. } => String::new(),
            };
            (a.status < 400 && error.is_none()) || versions.iter().all(|v| text.contains(v))
        }
        Lint::NoResponseToNotification => match resp {
            Some(r) => r.get("result").is_none() && r.get("id").is_none_or(Value::is_null),
            None => true,
        },
    }
}

/// The allowed set in words, for reports (`Display` of the demand, oracle/src/describe.rs).
pub fn describe(d: &Demand) -> String {
    d.to_string()
}
