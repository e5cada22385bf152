//! The `params` members only rare requests carry, read from a parsed tree when present (a
//! request mcpdiff generates carries none of them, so the judge's usual request pays a
//! compare, not a parse): a `completion/complete`'s `ref` and `argument`
//! (`CompletionView`, COMPL-ERRORS) and a retry's `inputResponses` (`InputResponsesView`,
//! MRTR-VALIDATE-INPUTS and MRTR-IGNORE-EXTRA). Both readers (`read::fast_body`,
//! `read::simple`) build these with the functions here, from the same tree.

use serde_json::{Map, Value};
use std::borrow::Cow;

/// What a `completion/complete` request names (schema.json `CompleteRequestParams`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompletionView<'a> {
    /// `ref` is an object whose `type` is `"ref/prompt"`.
    pub prompt_ref: bool,
    /// That reference's `name`, when it is a string.
    pub prompt: Option<Cow<'a, str>>,
    /// `ref` is an object with a string `type`, and `argument` an object with string `name`
    /// and `value`: the members the schema requires are there.
    pub required_present: bool,
}

impl<'a> CompletionView<'a> {
    /// The view of a `completion/complete`'s `params` (the fast reader's twin:
    /// `read::completion`).
    pub fn of(params: &'a Map<String, Value>) -> CompletionView<'a> {
        let r = params.get("ref").and_then(Value::as_object);
        let kind = r.and_then(|r| r.get("type")).and_then(Value::as_str);
        let prompt_ref = kind == Some("ref/prompt");
        let string = |o: Option<&Map<String, Value>>, k: &str| {
            o.and_then(|o| o.get(k)).is_some_and(Value::is_string)
        };
        let argument = params.get("argument").and_then(Value::as_object);
        CompletionView {
            prompt_ref,
            prompt: prompt_ref
                .then(|| r.and_then(|r| r.get("name")).and_then(Value::as_str))
                .flatten()
                .map(Cow::Borrowed),
            required_present: kind.is_some()
                && string(argument, "name")
                && string(argument, "value"),
        }
    }
}

/// `params.inputResponses` as basic/patterns/mrtr.mdx § Error Handling reads it
/// (DEVIATIONS.md D-192, D-193).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputResponsesView {
    #[default]
    Absent,
    /// `null`: absent to some readers, ill-typed to others (either answer).
    Null,
    /// Not an object: no `InputResponses` at all (MRTR-VALIDATE-INPUTS).
    NotObject,
    /// `{}`: no entry to ignore or to read.
    Empty,
    /// An object whose entries are each a declined or cancelled elicitation (an `ElicitResult`
    /// with `action` `decline` or `cancel`, no `content`, nothing but `action` and an object
    /// `_meta`): a result valid by the schema that no requested schema could refuse, under
    /// keys no `InputRequests` of this exchange assigned (MRTR-IGNORE-EXTRA, D-193).
    Entries,
    /// An object with an entry of any other shape: not an object, or an object no result type
    /// is sure to fit (`{}` fits none of the three: each requires a member), which a server may
    /// refuse as invalid (D-192's «invalid schema»): not judged.
    OddEntries,
}

/// Whether an `inputResponses` entry is a declined or cancelled elicitation
/// (`InputResponsesView::Entries`).
fn settled_elicitation(v: &Value) -> bool {
    let Value::Object(m) = v else { return false };
    matches!(
        m.get("action").and_then(Value::as_str),
        Some("decline" | "cancel")
    ) && m.keys().all(|k| k == "action" || k == "_meta")
        && m.get("_meta").is_none_or(Value::is_object)
}

impl InputResponsesView {
    /// The view of a present `inputResponses` value.
    pub fn of(v: &Value) -> InputResponsesView {
        match v {
            Value::Null => InputResponsesView::Null,
            Value::Object(m) if m.is_empty() => InputResponsesView::Empty,
            Value::Object(m) if m.values().all(settled_elicitation) => InputResponsesView::Entries,
            Value::Object(_) => InputResponsesView::OddEntries,
            _ => InputResponsesView::NotObject,
        }
    }
}

/// The `clientInfo` name the conformant client sends (`client::request_meta`): a well-formed
/// `clientInfo` naming any other client is the stimulus of BASE-INFO-NOT-BEHAVIOR (D-194).
pub const CONFORMANT_CLIENT: &str = "mcpdiff";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn completion_params_are_read_as_the_schema_names_them() {
        fn of(v: Value) -> CompletionView<'static> {
            let m = v.as_object().unwrap();
            let c = CompletionView::of(m);
            CompletionView {
                prompt: c.prompt.map(|p| Cow::Owned(p.into_owned())),
                ..c
            }
        }
        let ok = of(json!({"ref": {"type": "ref/prompt", "name": "p"},
            "argument": {"name": "a", "value": ""}}));
        assert_eq!(
            ok,
            CompletionView {
                prompt_ref: true,
                prompt: Some("p".into()),
                required_present: true
            }
        );
        let res = of(json!({"ref": {"type": "ref/resource", "uri": "u"}}));
        assert!(!res.prompt_ref && res.prompt.is_none() && !res.required_present);
        let unnamed = of(json!({"ref": {"type": "ref/prompt", "name": 7},
            "argument": {"name": "a", "value": "v"}}));
        assert!(unnamed.prompt_ref && unnamed.prompt.is_none() && unnamed.required_present);
        assert!(!of(json!({"argument": {"name": "a", "value": "v"}})).required_present);
    }

    #[test]
    fn input_responses_are_classified() {
        use InputResponsesView as V;
        assert_eq!(V::of(&json!(null)), V::Null);
        assert_eq!(V::of(&json!("yes")), V::NotObject);
        assert_eq!(V::of(&json!([])), V::NotObject);
        assert_eq!(V::of(&json!({})), V::Empty);
        assert_eq!(V::of(&json!({"k": {"action": "decline"}})), V::Entries);
        assert_eq!(
            V::of(&json!({"k": {"action": "cancel", "_meta": {}}, "j": {"action": "decline"}})),
            V::Entries
        );
        assert_eq!(V::of(&json!({"k": {}, "j": 7})), V::OddEntries);
        // objects no result type is sure to fit, or that carry content: not judged
        for entry in [
            json!({}),
            json!({"action": "accept"}),
            json!({"action": "decline", "content": {}}),
            json!({"action": "decline", "_meta": 7}),
            json!({"action": "decline", "other": 1}),
            json!({"action": 7}),
            json!({"roots": []}),
        ] {
            assert_eq!(V::of(&json!({"k": entry})), V::OddEntries, "{entry}");
        }
    }
}
