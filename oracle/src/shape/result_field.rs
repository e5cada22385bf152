//! «Result responses MUST include a `result` field.» (basic/index.mdx § Result Responses;
//! BASE-RESULT-FIELD), read as DEVIATIONS.md D-170 says: a JSON-RPC response that is not an
//! error response is a result response, so a message of a 2xx answer that answers a request
//! (it carries an `id` and no `method`) with neither `result` nor `error` is a result response
//! without its `result` (a refusal's status already says the operation failed). The answer sets read such an answer as the success it signals (check.rs), so
//! the missing member is blamed on this rule alone.

use crate::observation::{Body, HttpAnswer, SseMessage};
use serde_json::Value;

/// Whether `v` is a response to a request that carries neither `result` nor `error`.
pub fn is_bare_response(v: &Value) -> bool {
    v.as_object().is_some_and(|o| {
        o.contains_key("id")
            && !o.contains_key("method")
            && !o.contains_key("result")
            && !o.contains_key("error")
    })
}

/// Whether the answer carries a response with neither `result` nor `error`: the JSON body,
/// or a message of an SSE body.
pub fn has_bare_response(a: &HttpAnswer) -> bool {
    match &a.body {
        Body::Json { value } => is_bare_response(value),
        Body::Sse { messages, .. } => messages.iter().any(|m| match m {
            SseMessage::Json(v) => is_bare_response(v),
            SseMessage::NotJson(_) => false,
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_response_without_result_or_error_is_bare() {
        assert!(is_bare_response(&json!({"jsonrpc": "2.0", "id": 1})));
        assert!(is_bare_response(
            &json!({"jsonrpc": "2.0", "id": null, "value": {}})
        ));
        for ok in [
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "m"}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            json!({"jsonrpc": "2.0", "method": "notifications/progress"}),
            json!([{"jsonrpc": "2.0", "id": 1}]),
        ] {
            assert!(!is_bare_response(&ok), "{ok}");
        }
    }
}
