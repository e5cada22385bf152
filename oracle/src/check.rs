//! `check(verdict, observation) -> Vec<Finding>`: where what a target did leaves what the
//! spec allows. Every expectation of the Verdict is tested on its own, so one bad answer can
//! yield several findings, each naming the rule it breaks.

use crate::observation::{Body, HttpAnswer, Observation};
use crate::rules::{level_of, Level, RuleId};
use crate::shape;
use crate::verdict::{Answer, DataRule, Demand, Lint, Named, NamedVersions, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One observation outside one rule's allowed set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub rule: String,
    pub level: String,
    /// What the rule allows, in words.
    pub expected: String,
    /// What the target did, in words.
    pub observed: String,
    /// Other rules of the same verdict that demanded exactly the same answers and failed
    /// with this one: the case does not tell which of them the target broke (a benign input
    /// beside another one, say). Empty when the case isolates the rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub co_failing: Vec<String>,
}

/// Judge an observation against a verdict.
pub fn check(verdict: &Verdict, obs: &Observation) -> Vec<Finding> {
    let mut out = Vec::new();
    // what the answer carries, read once for every expectation
    let facts = obs.http().map(Facts::of);
    for e in verdict.expectations() {
        let ok = match (&e.demand, &facts) {
            (Demand::OneOf(set), Some(a)) => set.iter().any(|x| a.matches(x, verdict.versions())),
            (Demand::OneOf(_), None) => false,
            (Demand::Lint(l), Some(a)) => a.lint_holds(l),
            (Demand::Lint(_), None) => true,
        };
        if !ok && !out.iter().any(|f: &Finding| f.rule == e.rule.0) {
            out.push(finding(
                e.rule,
                describe(verdict.named(&e.demand)),
                obs.summary(),
            ));
        }
    }
    // rules whose failed expectations have an answer in common share the blame: the one
    // answer that would have satisfied both was not given (identical demands included), so
    // the report can name the rule that fails alone elsewhere instead of each of them
    for i in 0..out.len() {
        let demand_of = |rule: &str| {
            verdict
                .answer_sets()
                .find(|(r, _)| r.0 == rule)
                .map(|(_, set)| set)
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

/// Whether two answer sets have an answer in common.
fn share(x: &[Answer], y: &[Answer]) -> bool {
    x.iter().any(|ax| y.contains(ax))
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

/// Whether answer pattern `x` (read with its Verdict's versions) describes `a`.
pub fn matches(x: Named<'_, Answer>, a: &HttpAnswer) -> bool {
    Facts::of(a).matches(x.item, x.versions)
}

/// An answer with the parts every expectation looks at read once: the JSON-RPC response
/// (`HttpAnswer::rpc_response`), its `result`, `error` and `id`, and the error's integer
/// code (each a map lookup, asked by several lints).
struct Facts<'a> {
    a: &'a HttpAnswer,
    resp: Option<&'a Value>,
    result: Option<&'a Value>,
    error: Option<&'a Value>,
    id: Option<&'a Value>,
    /// `HttpAnswer::error_code`.
    code: Option<i64>,
}

impl<'a> Facts<'a> {
    fn of(a: &'a HttpAnswer) -> Facts<'a> {
        let resp = a.rpc_response();
        let result = resp.and_then(|r| r.get("result"));
        let error = resp.and_then(|r| r.get("error"));
        let id = resp.and_then(|r| r.get("id"));
        let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
        Facts {
            a,
            resp,
            result,
            error,
            id,
            code,
        }
    }

    /// `HttpAnswer::is_result`.
    fn is_result(&self) -> bool {
        self.result.is_some()
    }

    fn matches(&self, x: &Answer, versions: Option<&NamedVersions>) -> bool {
        let a = self.a;
        let ok2xx = (200..300).contains(&a.status);
        match x {
            Answer::RpcError { status, code, data } => {
                status.contains(a.status)
                    && self.code == Some(i64::from(*code))
                    && data_holds(data, versions, self.resp)
            }
            // a success response without its `result` member still signals success: the
            // missing member is BASE-RESULT-FIELD's finding alone (DEVIATIONS.md D-170)
            Answer::RpcResult => {
                ok2xx && (self.is_result() || shape::result_field::has_bare_response(a))
            }
            Answer::OpenStream => ok2xx && a.is_sse() && self.code.is_none(),
            Answer::Accepted => a.status == 202 && a.body == Body::Empty,
            Answer::HttpStatus { status } => status.contains(a.status),
            Answer::AnyError => a.status >= 400 || self.error.is_some(),
            Answer::NotAnError => a.status < 400 && self.error.is_none(),
            Answer::EmptyContents => {
                ok2xx
                    && self
                        .result
                        .and_then(|r| r.get("contents"))
                        .and_then(Value::as_array)
                        .is_some_and(Vec::is_empty)
            }
        }
    }
}

fn data_holds(rule: &DataRule, versions: Option<&NamedVersions>, resp: Option<&Value>) -> bool {
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
                    requested.texts(versions).any(|x| x == r)
                        && list.iter().all(Value::is_string)
                        && !list.iter().any(|v| v.as_str() == Some(r))
                }
                _ => false,
            }
        }
    }
}

impl Facts<'_> {
    fn lint_holds(&self, l: &Lint) -> bool {
        lint_holds(l, self)
    }
}

fn lint_holds(l: &Lint, facts: &Facts<'_>) -> bool {
    let Facts {
        a,
        resp,
        result,
        error,
        id: resp_id,
        code,
    } = *facts;
    match l {
        Lint::NoSessionId => a.session_id.is_none(),
        // "If the body is a JSON-RPC request, the server MUST return either `Content-Type:
        // application/json` ... or `Content-Type: text/event-stream`": any answer that
        // carries a JSON-RPC response, and every 2xx; a bare HTTP refusal with no JSON-RPC
        // body is admitted by the entries that admit it (DEVIATIONS.md D-28, narrowed)
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
        // a `notifications/*` message carrying an id is a notification that breaks
        // BASE-NOTIF-NO-ID, not a request (DEVIATIONS.md D-166)
        Lint::SseNoRequests => !a.sse_json().any(|m| {
            m.get("id").is_some()
                && m.get("method")
                    .and_then(Value::as_str)
                    .is_some_and(|m| !m.starts_with("notifications/"))
        }),
        Lint::NoUndefinedReservedCode => {
            !code.is_some_and(|c| (-32099..=-32020).contains(&c) && c < -32022)
        }
        Lint::NoRetiredCode => !matches!(code, Some(-32002) | Some(-32042)),
        Lint::NoLegacyRangeCode => !code.is_some_and(|c| (-32019..=-32000).contains(&c)),
        Lint::ResultType => {
            result.is_none_or(|r| r.get("resultType").is_some_and(Value::is_string))
        }
        // «an `error` field with a `code` and `message`»: a code of another type than an
        // integer is BASE-ERROR-INT's (DEVIATIONS.md D-160)
        Lint::ErrorShape => error.is_none_or(|e| {
            e.get("code").is_some_and(|c| !c.is_null())
                && e.get("message").is_some_and(Value::is_string)
        }),
        Lint::ResultIdEcho(id) => match result {
            Some(_) => resp_id.is_some_and(|r| id.is(r)),
            None => true,
        },
        Lint::ErrorIdEcho { id, may_omit } => match error {
            Some(_) => {
                let unread = resp_id.is_none_or(Value::is_null);
                resp_id.is_some_and(|r| id.is(r)) || (unread && (*may_omit || a.status == 403))
            }
            None => true,
        },
        Lint::ServerInfo => result.is_none_or(|r| {
            r.get("_meta")
                .and_then(|m| m.get("io.modelcontextprotocol/serverInfo"))
                .is_some_and(|i| {
                    i.get("name").is_some_and(Value::is_string)
                        && i.get("version").is_some_and(Value::is_string)
                })
        }),
        Lint::AllowOn405 => a.status != 405 || a.allow.is_some(),
        Lint::NamesVersions(versions) => {
            !(a.status >= 400 || error.is_some()) || names_all(&a.body, versions)
        }
        Lint::ToolAnnotationsValid => result
            .and_then(|r| r.get("tools"))
            .and_then(Value::as_array)
            .is_none_or(|tools| tools.iter().all(tool_publishable)),
        Lint::NoResponseToNotification => match resp {
            Some(_) => result.is_none() && resp_id.is_none_or(Value::is_null),
            None => true,
        },
        Lint::Stream(s) => !crate::stream::offends(s, a),
        Lint::Content(c) => result.is_none_or(|r| c.holds(r)),
        Lint::OutputConforms(s) => result.is_none_or(|r| crate::content::output_conforms(r, s)),
        Lint::ToolOrder(o) => result.is_none_or(|r| crate::content::order_holds(r, *o)),
        // base-protocol shape and multi-round requests (`crate::shape`)
        Lint::ErrorInt => error.is_none_or(|e| shape::codes::code_is_integer(e.get("code"))),
        Lint::NoNewReservedCode => code.is_none_or(shape::codes::outside_reserved_for_new),
        Lint::MetaKeys => each_meta(a, result, shape::meta_keys::meta_ok),
        Lint::TraceContext => each_meta(a, result, shape::trace_context::trace_ok),
        Lint::KnownResultType | Lint::ExtensionFallback => result.is_none_or(|r| {
            r.get("resultType")
                .and_then(Value::as_str)
                .is_none_or(|t| matches!(t, "complete" | "input_required"))
        }),
        Lint::InputRequiredUnsupported => {
            result.is_none_or(|r| !shape::input_required::is_input_required(r))
        }
        Lint::InputRequiredCarries => {
            result.is_none_or(shape::input_required::has_requests_or_state)
        }
        Lint::InputRequestTypes => result.is_none_or(shape::input_required::input_request_types_ok),
        Lint::NotificationNoId => !a.sse_json().any(|m| {
            m.get("id").is_some()
                && m.get("method")
                    .and_then(Value::as_str)
                    .is_some_and(|m| m.starts_with("notifications/"))
        }),
        Lint::ExtensionIds => result.is_none_or(shape::meta_keys::extension_ids_ok),
        Lint::ResultField => {
            !((200..300).contains(&a.status) && shape::result_field::has_bare_response(a))
        }
        Lint::InputKeysUnique => !a.wire.duplicate_input_keys,
        Lint::NoUndeclaredInput { declared } => {
            result.is_none_or(|r| !shape::input_required::asks_undeclared(r, *declared))
        }
        // «the server MUST return a `MissingRequiredClientCapabilityError` (`-32021`) whose
        // `data.requiredCapabilities` lists the missing capabilities. On HTTP, the response
        // status MUST be `400 Bad Request`» (DEVIATIONS.md D-173)
        Lint::MissingCapabilityShape => {
            code != Some(-32021)
                || a.status == 400 && required_capabilities(error).is_some_and(|m| !m.is_empty())
        }
        // -32021 «only with its specified meaning»: a refusal naming only capabilities the
        // request declared says none was missing (DEVIATIONS.md D-172)
        Lint::CapabilityCodeMeaning { declared } => {
            code != Some(-32021)
                || !required_capabilities(error)
                    .is_some_and(|m| shape::capabilities::none_missing(m, *declared))
        }
        Lint::NoUndeclaredLog => !a
            .sse_json()
            .any(|m| m.get("method").and_then(Value::as_str) == Some("notifications/message")),
        // an absent or non-string scope is CACHE-HINTS's (D-142)
        Lint::PageScope(first) => result.is_none_or(|r| {
            r.get("cacheScope")
                .and_then(Value::as_str)
                .is_none_or(|s| s == first)
        }),
        Lint::JsonRpcVersion => {
            let v2 = |m: &Value| m.get("jsonrpc").and_then(Value::as_str) == Some("2.0");
            resp.is_none_or(v2) && a.sse_json().filter(|m| m.is_object()).all(v2)
        }
    }
}

/// An error's `data.requiredCapabilities`, when it is an object.
fn required_capabilities(error: Option<&Value>) -> Option<&serde_json::Map<String, Value>> {
    error?.get("data")?.get("requiredCapabilities")?.as_object()
}

/// Whether `ok` holds for every `_meta` the server sent in this answer: the result's, and
/// each SSE notification's `params._meta` (a JSON body has no notifications).
fn each_meta(a: &HttpAnswer, result: Option<&Value>, ok: fn(Option<&Value>) -> bool) -> bool {
    result.is_none_or(|r| ok(r.get("_meta")))
        && a.sse_json()
            .filter(|m| m.get("result").is_none() && m.get("error").is_none())
            .all(|m| ok(m.get("params").and_then(|p| p.get("_meta"))))
}

/// Whether a listed tool's `inputSchema` (absent: no annotation) meets the `x-mcp-header`
/// constraints.
fn tool_publishable(tool: &Value) -> bool {
    tool.get("inputSchema")
        .is_none_or(|s| crate::annotations::publishable(&crate::annotations::tool_header_params(s)))
}

/// Whether every version appears in the body's text: "name the protocol versions it
/// supports in any error" leaves the place open (message, `data`, a plain-text body).
fn names_all(body: &Body, versions: &[String]) -> bool {
    let text = match body {
        Body::Json { value } => value.to_string(),
        Body::Sse { messages, .. } => serde_json::to_string(messages).unwrap_or_default(),
        Body::Other { prefix, .. } => prefix.clone(),
        Body::Empty | Body::Oversize { .. } => String::new(),
    };
    versions.iter().all(|v| text.contains(v.as_str()))
}

/// The allowed set in words, for reports (`Display` of the demand read with its Verdict's
/// versions, oracle/src/describe.rs).
pub fn describe(d: Named<'_, Demand>) -> String {
    d.to_string()
}
