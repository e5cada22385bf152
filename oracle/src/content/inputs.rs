//! Inputs a server must validate: the arguments of a `tools/call` against the tool's
//! `inputSchema` (server/tools.mdx § Security Considerations: «Servers MUST: - Validate all
//! tool inputs», TOOLS-VALIDATE-INPUTS) and the arguments of a `prompts/get`
//! (server/prompts.mdx: «Servers SHOULD validate prompt arguments before processing»,
//! PROMPTS-VALIDATE-ARGS).
//!
//! The tool arguments are judged by the validator of `output.rs`, which is sound for what it
//! checks (it never fails a value a full JSON Schema validator would pass): a call it calls
//! invalid is invalid. A call the server validated and refused is an execution error
//! («Input validation errors … are reported in tool results with `isError: true`») or a
//! protocol error; a result that is not an execution error served the invalid input
//! (DEVIATIONS.md D-120).

use serde_json::Value;

/// Whether the arguments of a call (`None`: no `arguments` member, read as `{}`) break the
/// tool's `inputSchema`, by the keywords the validator implements.
pub fn tool_inputs_invalid(args: Option<&Value>, input_schema: &Value) -> bool {
    let empty = Value::Object(serde_json::Map::new());
    let args = args.unwrap_or(&empty);
    !args.is_object() || !super::output::valid(args, input_schema, 0)
}

/// A result to an invalid call is an execution error (`isError: true`); a JSON-RPC error
/// is no result and passes (the answer sets judge it).
pub(super) fn refused_holds(result: &Value) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
}

/// Whether `prompts/get` arguments break GetPromptRequestParams (schema.json: `arguments`
/// an object whose values are strings, `additionalProperties: {"type": "string"}`).
pub fn prompt_args_invalid(args: Option<&Value>) -> bool {
    match args {
        None => false,
        Some(Value::Object(m)) => m.values().any(|v| !v.is_string()),
        Some(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tool_inputs_against_the_input_schema() {
        let schema = json!({"type": "object",
            "properties": {"location": {"type": "string"}}, "required": ["location"]});
        assert!(!tool_inputs_invalid(
            Some(&json!({"location": "x"})),
            &schema
        ));
        assert!(tool_inputs_invalid(Some(&json!({})), &schema));
        assert!(tool_inputs_invalid(None, &schema));
        assert!(tool_inputs_invalid(Some(&json!({"location": 7})), &schema));
        assert!(tool_inputs_invalid(Some(&json!([1])), &schema));
        // keywords the validator leaves alone never make a call invalid
        let pattern = json!({"type": "object", "properties": {"d": {"pattern": "^[0-9]+$"}}});
        assert!(!tool_inputs_invalid(Some(&json!({"d": "x"})), &pattern));
        assert!(refused_holds(&json!({"content": [], "isError": true})));
        assert!(!refused_holds(&json!({"content": []})));
    }

    #[test]
    fn prompt_arguments_are_strings() {
        assert!(!prompt_args_invalid(None));
        assert!(!prompt_args_invalid(Some(&json!({"code": "x"}))));
        assert!(prompt_args_invalid(Some(&json!({"code": 7}))));
        assert!(prompt_args_invalid(Some(&json!({"code": null}))));
        assert!(prompt_args_invalid(Some(&json!("code"))));
    }
}
