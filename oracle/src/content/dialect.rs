//! The JSON Schema dialect a listed tool's schemas declare (basic/index.mdx § JSON Schema
//! Usage › Schema Dialect: «Implementors are RECOMMENDED to use JSON Schema 2020-12.»;
//! BASE-SCHEMA-2020-12, DEVIATIONS.md D-190).
//!
//! A schema without `$schema` is 2020-12 («When a schema does not include a `$schema` field,
//! it defaults to JSON Schema 2020-12»). A `$schema` that names one of the other published
//! JSON Schema dialects (drafts 03, 04, 06, 07 and 2019-09, by their meta-schema URIs) is
//! the SHOULD finding; any other URI is not judged (a custom meta-schema may build on
//! 2020-12, and the oracle cannot fetch it), nor is a `$schema` that is no string.

use serde_json::Value;

/// The meta-schema paths of the JSON Schema dialects other than 2020-12, after
/// `json-schema.org/` (the scheme and a trailing `#` or `/` are not compared).
const OTHER_DIALECTS: [&str; 5] = [
    "draft-03/schema",
    "draft-04/schema",
    "draft-06/schema",
    "draft-07/schema",
    "draft/2019-09/schema",
];

/// Whether `uri` is the meta-schema URI of a published dialect other than 2020-12.
pub(super) fn names_other_dialect(uri: &str) -> bool {
    let rest = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))
        .unwrap_or(uri);
    let Some(path) = rest.strip_prefix("json-schema.org/") else {
        return false;
    };
    let path = path.trim_end_matches(['#', '/']);
    OTHER_DIALECTS.contains(&path)
}

/// Whether a schema (any JSON value) declares another dialect at its root.
fn declares_other(schema: Option<&Value>) -> bool {
    schema
        .and_then(|s| s.get("$schema"))
        .and_then(Value::as_str)
        .is_some_and(names_other_dialect)
}

/// Every tool a `tools/list` result lists declares, at the root of its `inputSchema` and
/// `outputSchema`, no dialect other than 2020-12.
pub(super) fn dialects_hold(result: &Value) -> bool {
    let tools = result.get("tools").and_then(Value::as_array);
    !tools
        .into_iter()
        .flatten()
        .any(|t| declares_other(t.get("inputSchema")) || declares_other(t.get("outputSchema")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn other_published_dialects_are_named_and_2020_12_is_not() {
        for uri in [
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft-07/schema",
            "http://json-schema.org/draft-04/schema#",
            "http://json-schema.org/draft-03/schema#",
            "http://json-schema.org/draft-06/schema#",
            "https://json-schema.org/draft/2019-09/schema",
        ] {
            assert!(names_other_dialect(uri), "{uri}");
        }
        for uri in [
            "https://json-schema.org/draft/2020-12/schema",
            "https://json-schema.org/draft/2020-12/schema#",
            "https://example.com/my-dialect",
            "http://json-schema.org/schema#",
            "draft-07",
            "",
        ] {
            assert!(!names_other_dialect(uri), "{uri}");
        }
    }

    #[test]
    fn every_schema_of_every_tool_is_read() {
        let d7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"});
        let plain = json!({"type": "object"});
        let list = |i: &Value, o: Option<&Value>| {
            let mut t = json!({"name": "t", "inputSchema": i});
            if let Some(o) = o {
                t["outputSchema"] = o.clone();
            }
            json!({"tools": [{"name": "a", "inputSchema": plain}, t]})
        };
        assert!(dialects_hold(&list(&plain, None)));
        assert!(dialects_hold(&list(&plain, Some(&plain))));
        assert!(!dialects_hold(&list(&d7, None)));
        assert!(!dialects_hold(&list(&plain, Some(&d7))));
        // not a string, not an object, no tools: nothing this rule reads
        assert!(dialects_hold(&list(&json!({"$schema": 7}), None)));
        assert!(dialects_hold(&list(&json!(true), None)));
        assert!(dialects_hold(&json!({})));
    }
}
