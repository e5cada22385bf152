//! `_meta` key names (basic/index.mdx § General fields › `_meta`, «Key name format»): an
//! optional prefix (dot-separated labels, then `/`) and a name. Judged on what a server
//! sends (BASE-META-KEYS) and on the extension identifiers it advertises (VER-EXT-IDS:
//! «Extension identifiers MUST follow the `_meta` key naming rules, with a mandatory
//! prefix»); DEVIATIONS.md D-162 says which characters count as letters.

use serde_json::Value;

/// Whether `key` is a valid `_meta` key name; with `prefix_required`, it must also have a
/// prefix.
pub fn key_ok(key: &str, prefix_required: bool) -> bool {
    match key.split_once('/') {
        Some((prefix, name)) => prefix.split('.').all(label_ok) && name_ok(name),
        None => !prefix_required && name_ok(key),
    }
}

/// «Labels MUST start with a letter and end with a letter or digit; interior characters can
/// be letters, digits, or hyphens (`-`).»
fn label_ok(label: &str) -> bool {
    let mut chars = label.chars();
    let (Some(first), last) = (chars.next(), label.chars().last()) else {
        return false;
    };
    first.is_alphabetic()
        && last.is_some_and(char::is_alphanumeric)
        && label.chars().all(|c| c.is_alphanumeric() || c == '-')
}

/// «Unless empty, MUST begin and end with an alphanumeric character (`[a-z0-9A-Z]`). MAY
/// contain hyphens (`-`), underscores (`_`), dots (`.`), and alphanumerics in between.»
fn name_ok(name: &str) -> bool {
    let bytes = name.as_bytes();
    let (Some(first), Some(last)) = (bytes.first(), bytes.last()) else {
        return true;
    };
    first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Whether every key of a `_meta` value (when it is an object) is well-formed. A `_meta`
/// that is no object has no keys to judge here.
pub fn meta_ok(meta: Option<&Value>) -> bool {
    meta.and_then(Value::as_object)
        .is_none_or(|m| m.keys().all(|k| key_ok(k, false)))
}

/// Whether the extension identifiers a `server/discover` result advertises
/// (`capabilities.extensions`, a map keyed by identifier) are prefixed `_meta` key names.
pub fn extension_ids_ok(result: &Value) -> bool {
    result
        .get("capabilities")
        .and_then(|c| c.get("extensions"))
        .and_then(Value::as_object)
        .is_none_or(|m| m.keys().all(|k| key_ok(k, true)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_pages_examples_and_edges() {
        for ok in [
            "progressToken",
            "io.modelcontextprotocol/serverInfo",
            "com.example/x",
            "dev.mcp/a-b_c.d",
            "traceparent",
            "a/b",
            "com.example/",
            "",
            "x1.y-2/z",
        ] {
            assert!(key_ok(ok, false), "{ok:?}");
        }
        for bad in [
            "example..com/x",
            "1com/x",
            "com-/x",
            "com.example/-x",
            "com.example/x-",
            "com.example/a/b",
            "/x",
            "-name",
            "name ",
            "com.ex ample/x",
        ] {
            assert!(!key_ok(bad, false), "{bad:?}");
        }
        assert!(!key_ok("tasks", true));
        assert!(key_ok("io.modelcontextprotocol/tasks", true));
    }

    #[test]
    fn meta_and_extensions() {
        assert!(meta_ok(Some(
            &json!({"io.modelcontextprotocol/serverInfo": {}})
        )));
        assert!(!meta_ok(Some(&json!({"bad key": 1}))));
        assert!(meta_ok(None));
        assert!(extension_ids_ok(&json!({"capabilities": {}})));
        assert!(extension_ids_ok(
            &json!({"capabilities": {"extensions": {"io.modelcontextprotocol/ui": {}}}})
        ));
        assert!(!extension_ids_ok(
            &json!({"capabilities": {"extensions": {"ui": {}}}})
        ));
    }
}
