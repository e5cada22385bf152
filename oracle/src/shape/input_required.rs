//! The members of an `InputRequiredResult` (basic/patterns/mrtr.mdx § Server Requirements
//! (Basic Workflow), § Supported Requests): which requests may get one (MRTR-ONLY-SUPPORTED),
//! that it carries `inputRequests` or `requestState` (MRTR-ATLEASTONE), and what the
//! `inputRequests` values may be (MRTR-VALUE-TYPES) and which capabilities they may need
//! (MRTR-NO-UNDECLARED, D-174). A result is an `InputRequiredResult` when its `resultType` is
//! `"input_required"` (basic/index.mdx § ResultType); DEVIATIONS.md D-165.

use serde_json::Value;

/// The client requests that «MAY» be answered with an `InputRequiredResult`.
pub const SUPPORTED: [&str; 3] = ["prompts/get", "resources/read", "tools/call"];

/// Whether a result is an `InputRequiredResult`.
pub fn is_input_required(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("input_required")
}

/// «Servers MUST include at least one of `inputRequests` or `requestState` in every
/// `InputRequiredResult` response.»
pub fn has_requests_or_state(result: &Value) -> bool {
    !is_input_required(result)
        || result.get("inputRequests").is_some()
        || result.get("requestState").is_some()
}

/// The methods of the request objects `inputRequests` may hold: «`ElicitRequest`,
/// `CreateMessageRequest`, or `ListRootsRequest`».
const INPUT_METHODS: [&str; 3] = ["elicitation/create", "sampling/createMessage", "roots/list"];

/// Whether every `inputRequests` value is one of the three request objects (an object whose
/// `method` names one of them); an `inputRequests` that is no map holds no such objects.
pub fn input_request_types_ok(result: &Value) -> bool {
    if !is_input_required(result) {
        return true;
    }
    match result.get("inputRequests") {
        None => true,
        Some(Value::Object(m)) => m.values().all(|r| {
            r.get("method")
                .and_then(Value::as_str)
                .is_some_and(|m| INPUT_METHODS.contains(&m))
        }),
        Some(_) => false,
    }
}

/// «Servers MUST NOT send an `inputRequests` that the client has not declared support for
/// in its capabilities.»: whether an `InputRequiredResult` asks, in an object
/// `inputRequests`, for an elicitation, sampling or roots request whose capability is not in
/// `declared` (`shape::capabilities` bits; D-174).
pub fn asks_undeclared(result: &Value, declared: u8) -> bool {
    if !is_input_required(result) {
        return false;
    }
    let Some(Value::Object(m)) = result.get("inputRequests") else {
        return false;
    };
    m.values().any(|r| {
        r.get("method")
            .and_then(Value::as_str)
            .and_then(super::capabilities::needed_by)
            .is_some_and(|b| declared & b == 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn complete_results_pass_everything() {
        let r = json!({"resultType": "complete", "inputRequests": 5});
        assert!(has_requests_or_state(&r) && input_request_types_ok(&r));
    }

    #[test]
    fn input_required_needs_requests_or_state() {
        assert!(!has_requests_or_state(
            &json!({"resultType": "input_required"})
        ));
        assert!(has_requests_or_state(
            &json!({"resultType": "input_required", "requestState": "s"})
        ));
    }

    #[test]
    fn only_declared_capabilities_may_be_asked_for() {
        use super::super::capabilities::{ELICITATION, ROOTS};
        let r = json!({"resultType": "input_required", "inputRequests": {
            "a": {"method": "elicitation/create"}, "b": {"method": "roots/list"}}});
        assert!(!asks_undeclared(&r, ELICITATION | ROOTS));
        assert!(asks_undeclared(&r, ROOTS));
        assert!(asks_undeclared(&r, 0));
        let done = json!({"resultType": "complete", "inputRequests": {
            "a": {"method": "roots/list"}}});
        assert!(!asks_undeclared(&done, 0));
    }

    #[test]
    fn only_the_three_request_objects() {
        let ok = json!({"resultType": "input_required", "inputRequests": {
            "a": {"method": "elicitation/create", "params": {}},
            "b": {"method": "roots/list"}}});
        assert!(input_request_types_ok(&ok));
        let bad = json!({"resultType": "input_required", "inputRequests": {
            "a": {"method": "ping"}}});
        assert!(!input_request_types_ok(&bad));
        let not_map = json!({"resultType": "input_required", "inputRequests": []});
        assert!(!input_request_types_ok(&not_map));
    }
}
