//! The client capabilities a request declares, as far as the shape rules read them: the three
//! a server's input requests need (`elicitation`, `sampling`, `roots`; basic/patterns/mrtr.mdx
//! § Server Requirements), one bit each. A capability is declared when its member of
//! `_meta`'s `io.modelcontextprotocol/clientCapabilities` is an object (schema.json
//! `ClientCapabilities` defines each as one); sub-capabilities (elicitation modes, sampling
//! `tools` and `context`) are not read (DEVIATIONS.md D-172, D-174).
//!
//! Read by MRTR-NO-UNDECLARED (an input request for a capability not declared) and
//! BASE-ERRCODE-MEANING (a -32021 refusal naming only capabilities that were declared).

use serde_json::{Map, Value};

/// `elicitation` is declared.
pub const ELICITATION: u8 = 1;
/// `sampling` is declared.
pub const SAMPLING: u8 = 2;
/// `roots` is declared.
pub const ROOTS: u8 = 4;

/// The capability names with their bits.
const NAMES: [(&str, u8); 3] = [
    ("elicitation", ELICITATION),
    ("sampling", SAMPLING),
    ("roots", ROOTS),
];

/// The bit of capability `name`, if it is one of the three.
pub fn bit_of(name: &str) -> Option<u8> {
    NAMES.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// The three capabilities declared by a `clientCapabilities` object.
pub fn declared(caps: &Map<String, Value>) -> u8 {
    NAMES
        .iter()
        .filter(|(n, _)| caps.get(*n).is_some_and(Value::is_object))
        .fold(0, |m, (_, b)| m | b)
}

/// [`declared`] of a `clientCapabilities` object's JSON text (the fast judge keeps the text);
/// text with no escape that names none of the three is not parsed (an escaped name, such as
/// `"\u0072oots"`, is still the name).
pub fn declared_text(text: &str) -> u8 {
    // the shortest object declaring one is `{"roots":{}}`: the usual `{}` is settled by its
    // length, without the four searches below
    if text.len() < r#"{"roots":{}}"#.len() {
        return 0;
    }
    if !text.contains('\\') && !NAMES.iter().any(|(n, _)| text.contains(n)) {
        return 0;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => declared(&m),
        _ => 0,
    }
}

/// The capability an input request's `method` needs: `elicitation/create`, then
/// `sampling/createMessage`, then `roots/list` (the methods of the three request types).
pub fn needed_by(method: &str) -> Option<u8> {
    match method {
        "elicitation/create" => Some(ELICITATION),
        "sampling/createMessage" => Some(SAMPLING),
        "roots/list" => Some(ROOTS),
        _ => None,
    }
}

/// Whether a non-empty `requiredCapabilities` names only capabilities the request declared
/// (`declared` bits), each asking for no sub-capability (an empty object): no capability it
/// names is missing. An empty one names none (BASE-MISSING-CAP-32021 judges it).
pub fn none_missing(required: &Map<String, Value>, declared: u8) -> bool {
    !required.is_empty()
        && required.iter().all(|(name, v)| {
            bit_of(name).is_some_and(|b| declared & b != 0)
                && v.as_object().is_some_and(Map::is_empty)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_object_members_declare() {
        let caps = json!({"elicitation": {"form": {}}, "sampling": true, "roots": {}, "x": {}});
        let m = caps.as_object().expect("an object");
        assert_eq!(declared(m), ELICITATION | ROOTS);
        assert_eq!(declared_text(&caps.to_string()), ELICITATION | ROOTS);
        assert_eq!(declared_text("{}"), 0);
        assert_eq!(declared_text("{\"roots\": "), 0);
        assert_eq!(declared_text(r#"{"\u0072oots": {}}"#), ROOTS);
        assert_eq!(bit_of("sampling"), Some(SAMPLING));
        assert_eq!(needed_by("roots/list"), Some(ROOTS));
        assert_eq!(needed_by("ping"), None);
        let req = |v: serde_json::Value| v.as_object().cloned().unwrap_or_default();
        assert!(none_missing(&req(json!({"roots": {}})), ROOTS));
        assert!(!none_missing(&req(json!({"roots": {}})), SAMPLING));
        assert!(!none_missing(
            &req(json!({"roots": {"listChanged": true}})),
            ROOTS
        ));
        assert!(!none_missing(&req(json!({"experimental": {}})), ROOTS));
        assert!(!none_missing(&req(json!({})), ROOTS));
    }
}
