//! The rare `params` members (`judge::rare`) read off the validated text with serde visitors
//! that keep only what the views hold, strings borrowed from the body (no tree, no
//! allocation for a usual request): a `completion/complete`'s `ref` and `argument` (the twin
//! of `CompletionView::of`), the shape of `inputResponses` (of `InputResponsesView::of`) and
//! a `subscriptions/listen`'s filter (of `listen_filter::filter_of`), each read from a parsed
//! tree by the simple reader.

use crate::judge::view::{CompletionView, InputResponsesView};
use serde::de::{Deserialize, Deserializer, Error, IgnoredAny, MapAccess, SeqAccess, Visitor};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::fmt;

/// Implements the visits of a value that is not what a visitor reads (`$out`: its answer).
macro_rules! other_kinds {
    ($out:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
            while s.next_element::<IgnoredAny>()?.is_some() {}
            Ok($out)
        }
    };
}

/// The view of a present `inputResponses` value (its text), as `InputResponsesView::of`
/// reads the tree; an object of more than four entries is parsed into one (rare).
pub(crate) fn input_responses_of(text: &str) -> InputResponsesView {
    match serde_json::from_str::<Shape>(text) {
        Ok(Shape(v)) => v,
        Err(_) => serde_json::from_str::<serde_json::Value>(text)
            .map_or(InputResponsesView::NotObject, |v| {
                InputResponsesView::of(&v)
            }),
    }
}

/// The shape of an `inputResponses` value.
struct Shape(InputResponsesView);

/// Any JSON value: whether it is a declined or cancelled elicitation
/// (`InputResponsesView::of`'s test of an entry).
struct Settled(bool);

struct ShapeVisitor;

impl<'de> Visitor<'de> for ShapeVisitor {
    type Value = Shape;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Shape, A::Error> {
        // (the last entry of a repeated key counts, as in a tree's map)
        let mut entries: SmallVec<[(Cow<'de, str>, bool); 4]> = SmallVec::new();
        while let Some(Text(key)) = m.next_key::<Text<'de>>()? {
            let Settled(object) = m.next_value()?;
            let key = key.unwrap_or_default();
            if let Some(e) = entries.iter_mut().find(|(k, _)| *k == key) {
                e.1 = object;
            } else if entries.len() == 4 {
                return Err(A::Error::custom("many entries"));
            } else {
                entries.push((key, object));
            }
        }
        Ok(Shape(if entries.is_empty() {
            InputResponsesView::Empty
        } else if entries.iter().all(|(_, o)| *o) {
            InputResponsesView::Entries
        } else {
            InputResponsesView::OddEntries
        }))
    }
    fn visit_unit<E>(self) -> Result<Shape, E> {
        Ok(Shape(InputResponsesView::Null))
    }
    fn visit_str<E>(self, _: &str) -> Result<Shape, E> {
        Ok(Shape(InputResponsesView::NotObject))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Shape, E> {
        Ok(Shape(InputResponsesView::NotObject))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Shape, E> {
        Ok(Shape(InputResponsesView::NotObject))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Shape, E> {
        Ok(Shape(InputResponsesView::NotObject))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Shape, E> {
        Ok(Shape(InputResponsesView::NotObject))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Shape, A::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Shape(InputResponsesView::NotObject))
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ShapeVisitor)
    }
}

struct SettledVisitor;

impl<'de> Visitor<'de> for SettledVisitor {
    type Value = Settled;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Settled, A::Error> {
        // (the last of a repeated key counts, as in a tree's map)
        let (mut settled_action, mut meta_ok, mut only_known) = (false, true, true);
        while let Some(Text(key)) = m.next_key::<Text<'de>>()? {
            match key.as_deref() {
                Some("action") => {
                    let Text(action) = m.next_value()?;
                    settled_action = matches!(action.as_deref(), Some("decline" | "cancel"));
                }
                Some("_meta") => {
                    let IsObject(object) = m.next_value()?;
                    meta_ok = object;
                }
                _ => {
                    m.next_value::<IgnoredAny>()?;
                    only_known = false;
                }
            }
        }
        Ok(Settled(settled_action && meta_ok && only_known))
    }
    fn visit_str<E>(self, _: &str) -> Result<Settled, E> {
        Ok(Settled(false))
    }
    other_kinds!(Settled(false));
}

impl<'de> Deserialize<'de> for Settled {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SettledVisitor)
    }
}

/// Any JSON value: whether it is an object.
struct IsObject(bool);

struct IsObjectVisitor;

impl<'de> Visitor<'de> for IsObjectVisitor {
    type Value = IsObject;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<IsObject, A::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(IsObject(true))
    }
    fn visit_str<E>(self, _: &str) -> Result<IsObject, E> {
        Ok(IsObject(false))
    }
    other_kinds!(IsObject(false));
}

impl<'de> Deserialize<'de> for IsObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IsObjectVisitor)
    }
}

/// The filter bits of a `subscriptions/listen`'s `params` (an object's text), as
/// `listen_filter::filter_of` reads `params.notifications` in the tree. Keys are compared as
/// written, so text holding any escape is parsed into a tree instead (rare: a key may be
/// spelled with escapes).
pub(crate) fn listen_filter_of(params: &str) -> u8 {
    use super::validated::{get, kind, Kind};
    use crate::listen_filter as lf;
    if params.contains('\\') {
        let tree = serde_json::from_str::<serde_json::Value>(params).ok();
        return lf::filter_of(tree.as_ref().and_then(|v| v.get("notifications")));
    }
    let Some(n) = get(params, "notifications").filter(|n| kind(n) == Kind::Object) else {
        return 0;
    };
    let mut bits = 0;
    let mut flags_ok = true;
    for (key, bit) in lf::FLAGS {
        let v = get(n, key);
        if v == Some("true") {
            bits |= bit;
        }
        flags_ok &= v.is_none_or(|v| v == "true" || v == "false");
    }
    // a non-empty array: a byte other than whitespace after its `[` that is not its `]`
    let uris = get(n, "resourceSubscriptions");
    let ws = [' ', '\t', '\n', '\r'];
    let listed = uris.filter(|u| kind(u) == Kind::Array);
    if listed.is_some_and(|u| !u[1..].trim_start_matches(ws).starts_with(']')) {
        bits |= lf::FILTER_UPDATED;
    }
    // (the array's items read as a tree: rare within a rare request)
    let uris_ok = uris.is_none_or(|u| {
        serde_json::from_str::<Vec<serde_json::Value>>(u)
            .is_ok_and(|a| a.iter().all(serde_json::Value::is_string))
    });
    if flags_ok && uris_ok {
        bits |= lf::FILTER_VALID;
    }
    bits
}

/// The view of `params` (an object's text), as `CompletionView::of` reads the tree.
pub(crate) fn completion_of(params: &str) -> Option<CompletionView<'_>> {
    let p: Params<'_> = serde_json::from_str(params).ok()?;
    let (r, a) = (
        p.reference.unwrap_or_default(),
        p.argument.unwrap_or_default(),
    );
    let kind = r.kind.filter(|_| r.object);
    let prompt_ref = kind.as_deref() == Some("ref/prompt");
    Some(CompletionView {
        prompt_ref,
        prompt: if prompt_ref { r.name } else { None },
        required_present: kind.is_some() && a.object && a.name.is_some() && a.value.is_some(),
    })
}

/// `params`: the last `ref` and `argument` (as a tree's map keeps the last of a key).
#[derive(Default)]
struct Params<'a> {
    reference: Option<Obj<'a>>,
    argument: Option<Obj<'a>>,
}

/// Any JSON value, as far as a `ref` or `argument` is read: whether it is an object, and its
/// members `type`, `name` and `value` when they are strings.
#[derive(Default)]
struct Obj<'a> {
    object: bool,
    kind: Option<Cow<'a, str>>,
    name: Option<Cow<'a, str>>,
    value: Option<Cow<'a, str>>,
}

/// Any JSON value: the string, when it is one.
struct Text<'a>(Option<Cow<'a, str>>);

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'de>, E> {
        Ok(Text(Some(Cow::Borrowed(s))))
    }
    fn visit_str<E>(self, s: &str) -> Result<Text<'de>, E> {
        Ok(Text(Some(Cow::Owned(s.to_string()))))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Text<'de>, A::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Text(None))
    }
    other_kinds!(Text(None));
}

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

struct ObjVisitor;

impl<'de> Visitor<'de> for ObjVisitor {
    type Value = Obj<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Obj<'de>, A::Error> {
        let mut o = Obj {
            object: true,
            ..Obj::default()
        };
        while let Some(Text(key)) = m.next_key::<Text<'de>>()? {
            let slot = match key.as_deref() {
                Some("type") => &mut o.kind,
                Some("name") => &mut o.name,
                Some("value") => &mut o.value,
                _ => {
                    m.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = m.next_value::<Text<'de>>()?.0;
        }
        Ok(o)
    }
    fn visit_str<E>(self, _: &str) -> Result<Obj<'de>, E> {
        Ok(Obj::default())
    }
    other_kinds!(Obj::default());
}

impl<'de> Deserialize<'de> for Obj<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ObjVisitor)
    }
}

struct ParamsVisitor;

impl<'de> Visitor<'de> for ParamsVisitor {
    type Value = Params<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Params<'de>, A::Error> {
        let mut p = Params::default();
        while let Some(Text(key)) = m.next_key::<Text<'de>>()? {
            match key.as_deref() {
                Some("ref") => p.reference = Some(m.next_value()?),
                Some("argument") => p.argument = Some(m.next_value()?),
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(p)
    }
}

impl<'de> Deserialize<'de> for Params<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ParamsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text reading of a listen filter agrees with the tree reading.
    #[test]
    fn listen_filter_text_agrees_with_the_tree() {
        let params = [
            r#"{}"#,
            r#"{"notifications":{}}"#,
            r#"{"notifications":{"toolsListChanged":true}}"#,
            r#"{"notifications":{"toolsListChanged":false,"promptsListChanged":true}}"#,
            r#"{"notifications":{"resourcesListChanged":true,"resourcesListChanged":false}}"#,
            r#"{"notifications":{"resourcesListChanged":false,"resourcesListChanged":true}}"#,
            r#"{"notifications":{"resourceSubscriptions":[]}}"#,
            r#"{"notifications":{"resourceSubscriptions":[ ]}}"#,
            r#"{"notifications":{"resourceSubscriptions":["file:///a"]}}"#,
            r#"{"notifications":{"resourceSubscriptions":{}}}"#,
            r#"{"notifications":{"toolsListChanged":"true"}}"#,
            r#"{"notifications":[],"x":1}"#,
            r#"{"notifications":{"toolsListChanged":true},"notifications":{}}"#,
            r#"{"notif\u0069cations":{"tools\u004cistChanged":true}}"#,
            r#"{ "notifications" : { "toolsListChanged" : true , "resourceSubscriptions" : [ 1 ] } }"#,
            r#"{"notifications":{"resourcesListChanged":1}}"#,
            r#"{"notifications":{"toolsListChanged":null}}"#,
            r#"{"notifications":{"resourceSubscriptions":["file:///a",2]}}"#,
            r#"{"notifications":{"resourceSubscriptions":["file:///\u0061"],"x":[]}}"#,
        ];
        for p in params {
            let tree: serde_json::Value = serde_json::from_str(p).expect("test JSON");
            let by_tree = crate::listen_filter::filter_of(tree.get("notifications"));
            assert_eq!(listen_filter_of(p), by_tree, "{p}");
        }
    }
}
