//! What the oracle expects and what a target did, in words for people: `Display` for the
//! Verdict's parts (`Demand`, `Answer` and `DataRule` as `Named`, read with the Verdict's
//! versions; `StatusSet`, `Lint`) and for `TransportFailure`. Every report (terminal, `--json` `expected`, Markdown, HTML, JUnit)
//! shows these strings, so none of them may read like Rust debug output ("an error echoing
//! id 23", never `ErrorIdEcho { id: Number(23), may_omit: false }`).

use crate::observation::TransportFailure;
use crate::request_id::RequestId;
use crate::stream::{StreamLint, StreamRule};
use crate::verdict::{Answer, DataRule, Demand, Lint, Named, StatusSet};
use std::fmt;

impl fmt::Display for StatusSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StatusSet::Exact(x) => write!(f, "{x}"),
            StatusSet::Range(100, 599) => f.write_str("any status"),
            StatusSet::Range(400, 599) => f.write_str("4xx/5xx"),
            StatusSet::Range(lo, hi) if lo % 100 == 0 && hi == lo + 99 => {
                write!(f, "{}xx", lo / 100)
            }
            StatusSet::Range(lo, hi) => write!(f, "{lo}-{hi}"),
        }
    }
}

impl fmt::Display for Named<'_, DataRule> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.item {
            DataRule::None => Ok(()),
            DataRule::UnsupportedVersion { requested } => {
                let mut shown: Vec<String> = requested
                    .texts(self.versions)
                    .map(|r| format!("\"{r}\""))
                    .collect();
                // header and body may name the same version (AMB-06)
                shown.dedup();
                write!(
                    f,
                    "data.requested {} and data.supported listing the supported versions",
                    shown.join(" or ")
                )
            }
            DataRule::RequiredCapabilities => f.write_str("data.requiredCapabilities an object"),
        }
    }
}

impl fmt::Display for Named<'_, Answer> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.item {
            Answer::RpcError { status, code, data } => {
                match status {
                    StatusSet::Range(100, 599) => write!(f, "JSON-RPC error {code} (any status)")?,
                    s if matches!(s, StatusSet::Exact(x) if *x < 400) => {
                        write!(f, "{s} with JSON-RPC error {code}")?
                    }
                    s => write!(f, "a refusal: {s} with JSON-RPC error {code}")?,
                }
                if *data != DataRule::None {
                    write!(f, ", {}", self.with(data))?;
                }
                Ok(())
            }
            Answer::RpcResult => f.write_str("a result (2xx)"),
            Answer::OpenStream => f.write_str("an open SSE stream (2xx, no JSON-RPC error)"),
            Answer::Accepted => f.write_str("202 Accepted with an empty body"),
            Answer::HttpStatus { status } => match status {
                StatusSet::Exact(x) if *x >= 400 => write!(f, "a refusal: {x}"),
                StatusSet::Exact(x) => write!(f, "status {x}"),
                s => write!(f, "a {s} status"),
            },
            Answer::AnyError => f.write_str("a refusal (4xx/5xx or JSON-RPC error)"),
            Answer::NotAnError => {
                f.write_str("not a refusal (status below 400, no JSON-RPC error)")
            }
            Answer::EmptyContents => {
                f.write_str("a result with empty contents (judged by RES-NO-EMPTY-CONTENTS)")
            }
        }
    }
}

/// A request id as JSON, so its type shows: `23`, `"23"`.
fn id_text(id: &RequestId) -> String {
    id.to_string()
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lint::NoSessionId => f.write_str("no Mcp-Session-Id header"),
            Lint::RequestContentType => {
                f.write_str("a 2xx answer typed application/json or text/event-stream")
            }
            Lint::SseXAccel => f.write_str("an SSE answer carrying X-Accel-Buffering: no"),
            Lint::SseNoRequests => f.write_str("no JSON-RPC request on the response stream"),
            Lint::NoUndefinedReservedCode => {
                f.write_str("no error code in -32099..-32020 other than -32020, -32021 and -32022")
            }
            Lint::NoRetiredCode => f.write_str("neither error code -32002 nor -32042"),
            Lint::NoLegacyRangeCode => f.write_str("no error code in -32019..-32000"),
            Lint::ResultType => f.write_str("every result carrying a string resultType"),
            Lint::ErrorShape => f.write_str("every error carrying a code and a string message"),
            Lint::ResultIdEcho(id) => write!(f, "a result echoing id {}", id_text(id)),
            Lint::ErrorIdEcho { id, may_omit } => {
                write!(f, "an error echoing id {}", id_text(id))?;
                if *may_omit {
                    f.write_str(", or carrying no id")
                } else {
                    f.write_str(" (a 403 may carry no id)")
                }
            }
            Lint::ServerInfo => {
                f.write_str("every result's _meta naming serverInfo with name and version")
            }
            Lint::AllowOn405 => f.write_str("a 405 carrying an Allow header"),
            Lint::NoResponseToNotification => f.write_str("no JSON-RPC response to a notification"),
            Lint::Content(c) => f.write_str(c.describe()),
            Lint::ToolOrder(_) => {
                f.write_str("the tools in the order discovery saw them, while the set is the same")
            }
            Lint::OutputConforms(_) => f.write_str(
                "a tool result (unless isError) whose structuredContent conforms to the tool's \
                 outputSchema",
            ),
            Lint::ToolAnnotationsValid => {
                f.write_str("every listed tool's x-mcp-header annotations meeting the constraints")
            }
            Lint::NamesVersions(versions) => write!(
                f,
                "an error naming every supported protocol version ({})",
                versions.join(", ")
            ),
            Lint::Stream(s) => stream_text(f, s),
            Lint::ErrorInt => f.write_str("every error code an integer"),
            Lint::NoNewReservedCode => {
                f.write_str("no error code in -32768..-32100 other than -32700 and -32600..-32603")
            }
            Lint::MetaKeys => f.write_str("every _meta key a valid prefix/name key name"),
            Lint::TraceContext => {
                f.write_str("traceparent, tracestate and baggage in _meta in the W3C formats")
            }
            Lint::KnownResultType => {
                f.write_str("every resultType \"complete\" or \"input_required\"")
            }
            Lint::ExtensionFallback => f.write_str(
                "core behaviour for a client that declared no extension: every resultType \
                 \"complete\" or \"input_required\"",
            ),
            Lint::InputRequiredUnsupported => f.write_str(
                "no InputRequiredResult (only tools/call, resources/read and prompts/get may \
                 get one)",
            ),
            Lint::InputRequiredCarries => {
                f.write_str("an InputRequiredResult carrying inputRequests or requestState")
            }
            Lint::InputRequestTypes => f.write_str(
                "inputRequests holding only elicitation/create, sampling/createMessage and \
                 roots/list requests",
            ),
            Lint::NotificationNoId => f.write_str("no notification carrying an id"),
            Lint::JsonRpcVersion => {
                f.write_str("every JSON-RPC message carrying \"jsonrpc\": \"2.0\"")
            }
            Lint::ExtensionIds => {
                f.write_str("every advertised extension identifier a prefixed _meta key name")
            }
            Lint::ResultField => {
                f.write_str("every response carrying a `result` or an `error` member")
            }
            Lint::InputKeysUnique => f.write_str("no inputRequests naming one key twice"),
            Lint::NoUndeclaredInput { .. } => {
                f.write_str("inputRequests asking only for capabilities the request declared")
            }
            Lint::MissingCapabilityShape => f.write_str(
                "every -32021 refusal with status 400 and data.requiredCapabilities a non-empty \
                 object",
            ),
            Lint::CapabilityCodeMeaning { .. } => f.write_str(
                "no -32021 whose requiredCapabilities names only capabilities the request \
                 declared",
            ),
            Lint::NoUndeclaredLog => f.write_str(
                "no notifications/message (the target did not declare the logging capability)",
            ),
            Lint::PageScope(first) => write!(
                f,
                "a later page carrying the cacheScope of the list's first page ({first})"
            ),
        }
    }
}

/// A listen filter's types in words.
fn filter_text(filter: u8) -> String {
    use crate::stream::{FILTER_PROMPTS, FILTER_RESOURCES, FILTER_TOOLS, FILTER_UPDATED};
    let names: Vec<&str> = [
        (FILTER_TOOLS, "tools/list_changed"),
        (FILTER_PROMPTS, "prompts/list_changed"),
        (FILTER_RESOURCES, "resources/list_changed"),
        (FILTER_UPDATED, "resources/updated"),
    ]
    .iter()
    .filter(|(bit, _)| filter & bit != 0)
    .map(|(_, n)| *n)
    .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// A stream rule in words, with the part of the request's scope it reads.
fn stream_text(f: &mut fmt::Formatter<'_>, s: &StreamLint) -> fmt::Result {
    let token = |f: &mut fmt::Formatter<'_>| match &s.scope.token {
        Some(t) => write!(f, "progressToken {}", id_text(t)),
        None => f.write_str("no progressToken"),
    };
    match s.rule {
        StreamRule::FinalTerminates => {
            f.write_str("an SSE stream that ends with its final JSON-RPC response (no event after it, closed by the server)")
        }
        StreamRule::NotifRelated => f.write_str(
            "only notifications relating to the request on its stream (no subscription acknowledgement)",
        ),
        StreamRule::ProgressTokenOnly => {
            f.write_str("progress notifications only for the request's token (")?;
            token(f)?;
            f.write_str(")")
        }
        StreamRule::ProgressIncreasing => {
            f.write_str("a progress value that increases with each notification for ")?;
            token(f)
        }
        StreamRule::ProgressStop => {
            f.write_str("no progress notification after the final response, for ")?;
            token(f)
        }
        StreamRule::LogNoLevel => f.write_str(
            "no notifications/message for a request without io.modelcontextprotocol/logLevel",
        ),
        StreamRule::LogNotOnListen => {
            f.write_str("no notifications/message on a subscriptions/listen stream")
        }
        StreamRule::LogThreshold => {
            let level = s
                .scope
                .min_level
                .and_then(crate::soft_params::level_at)
                .unwrap_or("?");
            write!(
                f,
                "no notifications/message below the requested level \"{level}\" before the final response"
            )
        }
        StreamRule::CancelOnlyListen => match (&s.scope.id, s.scope.listen) {
            (Some(id), true) => write!(
                f,
                "notifications/cancelled only naming the listen request {}",
                id_text(id)
            ),
            _ => f.write_str("no notifications/cancelled on a request's stream"),
        },
        StreamRule::AckFirst => f.write_str(
            "notifications/subscriptions/acknowledged first, naming the listen request's id as io.modelcontextprotocol/subscriptionId",
        ),
        StreamRule::NoNotifBeforeAck => {
            f.write_str("no notification on a listen stream before its acknowledgement")
        }
        StreamRule::ListenSubscriptionId => f.write_str(
            "every notification on a listen stream naming the listen request's id as io.modelcontextprotocol/subscriptionId",
        ),
        StreamRule::SubFilter => write!(
            f,
            "on a listen stream, only the notification types its filter asked for ({})",
            filter_text(s.scope.filter)
        ),
        StreamRule::SubGraceful => f.write_str(
            "a listen stream the server closes ends with a completion result for the listen request",
        ),
    }
}

impl fmt::Display for Named<'_, Demand> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.item {
            Demand::Lint(l) => write!(f, "{l}"),
            Demand::OneOf(set) => {
                for (i, a) in set.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", or ")?;
                    }
                    write!(f, "{}", self.with(a))?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for TransportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TransportFailure::Refused => "connection refused",
            TransportFailure::Reset => "connection closed before a complete answer",
            TransportFailure::Timeout => "timeout (no complete answer in time)",
            TransportFailure::Garbage => "not an HTTP response",
            TransportFailure::OversizeHeaders => "response headers over the size limit",
        })
    }
}

#[cfg(test)]
#[path = "describe_tests.rs"]
mod tests;
