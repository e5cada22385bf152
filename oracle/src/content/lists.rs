//! The list results and what they publish (server/tools.mdx, server/resources.mdx,
//! server/prompts.mdx § Capabilities, § Data Types), and the capabilities `server/discover`
//! must declare for what the lists publish.

use serde_json::Value;

/// "Servers that declare the `tools` capability MUST respond to `tools/list` requests with
/// the set of tools currently available to the requesting client" (and the same for
/// resources and prompts): the result's `key` is an array of objects, each naming itself by
/// the string member `id` (`name` for tools and prompts, `uri` for resources; schema.json
/// `Tool`, `Prompt`, `Resource`). An empty array is a set ("This set MAY be empty").
pub(super) fn list_holds(result: &Value, key: &str, id: &str) -> bool {
    result
        .get(key)
        .and_then(Value::as_array)
        .is_some_and(|items| {
            items
                .iter()
                .all(|i| i.get(id).is_some_and(Value::is_string))
        })
}

/// "Servers that support tools MUST declare the `tools` capability" (and `resources`,
/// `prompts` "in their `DiscoverResult`"): the discover result's `capabilities` has member
/// `key`. Chosen only when discovery found the target publishing such items
/// (DEVIATIONS.md D-83).
pub(super) fn declares(result: &Value, key: &str) -> bool {
    result
        .get("capabilities")
        .and_then(|c| c.get(key))
        .is_some_and(Value::is_object)
}

/// "`inputSchema` … MUST be a valid JSON Schema object (not `null`)" for every tool the
/// result lists (items that are not objects are TOOLS-LIST-RESPOND's).
pub(super) fn input_schemas_hold(result: &Value) -> bool {
    let Some(tools) = result.get("tools").and_then(Value::as_array) else {
        return true;
    };
    tools.iter().filter(|t| t.is_object()).all(|t| {
        t.get("inputSchema")
            .is_some_and(|s| s.is_object() && (older_draft(s) || super::schema::valid_schema(s, 0)))
    })
}

/// «The following SHOULD be the only allowed characters: uppercase and lowercase ASCII
/// letters (A-Z, a-z), digits (0-9), underscore (\_), hyphen (-), and dot (.)» for every
/// tool the result lists with a string name (the length and uniqueness SHOULDs of the same
/// list are other rules; D-130).
pub(super) fn tool_names_hold(result: &Value) -> bool {
    let tools = result.get("tools").and_then(Value::as_array);
    tools
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .all(|n| {
            n.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        })
}

/// A schema that names draft 3 (boolean `required`, `type: "any"`, …): the 2020-12
/// structure does not bind it, and its own meta-schema is not checked (D-84).
fn older_draft(s: &Value) -> bool {
    s.get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|u| u.contains("draft-03"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_need_an_array_of_named_items() {
        assert!(list_holds(&json!({"tools": []}), "tools", "name"));
        assert!(list_holds(
            &json!({"tools": [{"name": "a"}]}),
            "tools",
            "name"
        ));
        assert!(!list_holds(&json!({}), "tools", "name"));
        assert!(!list_holds(&json!({"tools": null}), "tools", "name"));
        assert!(!list_holds(
            &json!({"tools": [{"title": "a"}]}),
            "tools",
            "name"
        ));
        assert!(!list_holds(&json!({"resources": [7]}), "resources", "uri"));
    }

    #[test]
    fn capabilities_are_declared_as_objects() {
        assert!(declares(&json!({"capabilities": {"tools": {}}}), "tools"));
        assert!(!declares(&json!({"capabilities": {}}), "tools"));
        assert!(!declares(
            &json!({"capabilities": {"tools": true}}),
            "tools"
        ));
    }

    #[test]
    fn tool_names_keep_to_the_allowed_characters() {
        let t = |n: &str| json!({"tools": [{"name": "ok_1.a-B"}, {"name": n}]});
        assert!(tool_names_hold(&t("get_weather")));
        for bad in ["café_menu", "get weather", "a,b", "a/b", "a:b", ""] {
            assert_eq!(tool_names_hold(&t(bad)), bad.is_empty(), "{bad}");
        }
        assert!(tool_names_hold(&json!({"tools": [{"title": "x"}]})));
    }

    #[test]
    fn input_schemas_are_objects() {
        let t = |s: Value| json!({"tools": [{"name": "a", "inputSchema": s}]});
        assert!(input_schemas_hold(&t(json!({"type": "object"}))));
        assert!(!input_schemas_hold(&t(Value::Null)));
        assert!(!input_schemas_hold(&t(json!(true))));
        assert!(!input_schemas_hold(&json!({"tools": [{"name": "a"}]})));
        assert!(input_schemas_hold(&json!({"tools": [7]})));
        let draft3 = json!({"$schema": "http://json-schema.org/draft-03/schema#",
            "properties": {"a": {"type": "any", "required": true}}});
        assert!(input_schemas_hold(&t(draft3)));
    }
}
