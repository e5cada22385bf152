//! The `server/discover` result (server/discover.mdx § Response, § Data Types ›
//! DiscoverResult).

use serde_json::Value;

/// "The server replies with its supported protocol versions, capabilities, and identity.":
/// `supportedVersions` a non-empty array of strings (a server that answered supports at
/// least one version) and `capabilities` an object (schema.json `DiscoverResult`). Identity
/// is DISC-SERVERINFO's, `resultType` BASE-RESULTTYPE's, the caching hints CACHE-HINTS's
/// (DEVIATIONS.md D-81).
pub(super) fn shape_holds(result: &Value) -> bool {
    let versions = result.get("supportedVersions").and_then(Value::as_array);
    versions.is_some_and(|v| !v.is_empty() && v.iter().all(Value::is_string))
        && result.get("capabilities").is_some_and(Value::is_object)
}

/// "`_meta['io.modelcontextprotocol/serverInfo']`: Name and version of the server software.
/// Servers SHOULD include this field.": an `Implementation` (schema.json: `name` and
/// `version` required strings).
pub(super) fn server_info_holds(result: &Value) -> bool {
    result
        .get("_meta")
        .and_then(|m| m.get("io.modelcontextprotocol/serverInfo"))
        .is_some_and(|i| {
            i.get("name").is_some_and(Value::is_string)
                && i.get("version").is_some_and(Value::is_string)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shape_needs_versions_and_capabilities() {
        let ok = json!({"supportedVersions": ["2026-07-28"], "capabilities": {}});
        assert!(shape_holds(&ok));
        for bad in [
            json!({"capabilities": {}}),
            json!({"supportedVersions": [], "capabilities": {}}),
            json!({"supportedVersions": "2026-07-28", "capabilities": {}}),
            json!({"supportedVersions": [20260728], "capabilities": {}}),
            json!({"supportedVersions": ["2026-07-28"]}),
            json!({"supportedVersions": ["2026-07-28"], "capabilities": []}),
        ] {
            assert!(!shape_holds(&bad), "{bad}");
        }
    }

    #[test]
    fn server_info_needs_name_and_version() {
        let info = |i: Value| json!({"_meta": {"io.modelcontextprotocol/serverInfo": i}});
        assert!(server_info_holds(&info(
            json!({"name": "s", "version": "1"})
        )));
        assert!(!server_info_holds(&info(json!({"name": "s"}))));
        assert!(!server_info_holds(&json!({})));
    }
}
