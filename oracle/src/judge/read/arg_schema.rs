//! Tool arguments against the tool's compiled `inputSchema` (`input_check`), read in the
//! validated text the scanner kept (TOOLS-VALIDATE-INPUTS): the judge asks on every
//! `tools/call`, and building a tree of the arguments cost it more allocations than all its
//! rules. This reads the keywords `content`'s validator implements the way it does, and gives
//! up (`None`: the caller parses and asks `content::tool_inputs_invalid`) where the compiled
//! schema holds one it does not read here (`Node::Unread`: `enum`, `const`, `allOf`,
//! `anyOf`), on an array under `items`, and on escaped or repeated keys, so both readings
//! agree.

use super::arg_members::ArgMembers;
use super::validated::{kind, members, Kind};
use crate::encoding::field_words::same_bytes;
use crate::input_check::{types, Keywords, Node};
use smallvec::SmallVec;

/// Whether the arguments (validated JSON text and the members the scanner noted; `None`: no
/// `arguments`, read as `{}`) break the compiled schema `root`; `None` when something it
/// does not read here decides.
pub(crate) fn inputs_invalid(args: Option<(&str, &ArgMembers)>, root: &Node) -> Option<bool> {
    let Some((text, noted)) = args else {
        return valid("{}", root, None).map(|ok| !ok);
    };
    if kind(text) != Kind::Object {
        return Some(true);
    }
    valid(text, root, Some(noted)).map(|ok| !ok)
}

/// Whether a validated number's text is an integer (`content::output::type_matches`).
fn integral(v: &str) -> bool {
    // (a byte scan: a `char` set pattern decodes the text a `char` at a time)
    !v.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
        || v.parse::<f64>().is_ok_and(|f| f.fract() == 0.0)
}

/// Whether the value's type is one `types` admits.
fn type_ok(v: &str, k: Kind, types: u8) -> bool {
    let bit = match k {
        Kind::Null => types::NULL,
        Kind::Bool => types::BOOLEAN,
        Kind::Object => types::OBJECT,
        Kind::Array => types::ARRAY,
        Kind::String => types::STRING,
        Kind::Number => types::NUMBER,
    };
    types & (bit | types::ANY) != 0
        || (k == Kind::Number && types & types::INTEGER != 0 && integral(v))
}

/// `v` (validated text) against `node`; `noted`: the scanner's members of `v` when `v` is the
/// top-level arguments object.
fn valid(v: &str, node: &Node, noted: Option<&ArgMembers>) -> Option<bool> {
    let s = match node {
        Node::Always(ok) => return Some(*ok),
        Node::Unread => return None,
        Node::Keywords(s) => s,
    };
    let k = kind(v);
    let type_ok = type_ok(v, k, s.types);
    let object_ok = match k {
        Kind::Object => object_valid(v, s, noted)?,
        Kind::Array if s.items_unread => return None,
        _ => true,
    };
    // (a validated number always parses: only a bound needs its value)
    let number_ok = k != Kind::Number || (s.minimum.is_none() && s.maximum.is_none()) || {
        let n = v.parse::<f64>().ok()?;
        s.minimum.is_none_or(|m| n >= m) && s.maximum.is_none_or(|m| n <= m)
    };
    Some(type_ok && object_ok && number_ok)
}

/// `required`, `properties` and `additionalProperties` on an object's text, its members read
/// once: each one's property found (looked for first right after the previous member's: a
/// client writes them in the schema's order), the properties met noted as bits, so a repeated
/// key and the `required` ones are settled by the bits (`Keywords::required_properties`).
fn object_valid(v: &str, s: &Keywords, noted: Option<&ArgMembers>) -> Option<bool> {
    // (the scanner's own notes of the top-level object when it kept them all: its keys hold
    // no escape, the scanner's subset)
    let noted = noted.and_then(|m| m.all(v));
    let plain_keys = noted.is_some();
    let walked = match noted {
        Some(_) => None,
        None => Some(members(v)),
    };
    // the first 64 properties met, as bits; the keys of every other member
    let mut seen = 0u64;
    // (on the stack for the usual few; an object with more spills to the heap)
    let mut others: SmallVec<[&str; 16]> = SmallVec::new();
    let mut next = 0;
    let mut members_ok = true;
    for (k, x) in noted
        .into_iter()
        .flatten()
        .chain(walked.into_iter().flatten())
    {
        // a key with an escape, or a key given twice (a tree keeps the last), is read by the tree
        if !plain_keys && k.contains('\\') {
            return None;
        }
        let property = property_of(s, k, next);
        let sub = match property {
            Some(p) if p < 64 => {
                if seen & (1 << p) != 0 {
                    return None;
                }
                seen |= 1 << p;
                s.properties.get(p).map(|(_, sub)| sub)
            }
            _ => {
                if others
                    .iter()
                    .any(|o| same_bytes(o.as_bytes(), k.as_bytes()))
                {
                    return None;
                }
                others.push(k);
                property
                    .and_then(|p| s.properties.get(p))
                    .map(|(_, sub)| sub)
            }
        };
        next = property.map_or(next, |p| p + 1);
        members_ok &= match sub {
            Some(sub) => valid(x, sub, None)?,
            None if s.pattern_properties => true,
            None => match &s.additional {
                Some(a) => valid(x, a, None)?,
                None => true,
            },
        };
    }
    let required_ok = seen & s.required_properties == s.required_properties
        && s.required_others.iter().all(|r| {
            others
                .iter()
                .any(|o| same_bytes(o.as_bytes(), r.as_bytes()))
        });
    Some(required_ok && members_ok)
}

/// The index of the property named `key`, looked for at `hint` first.
fn property_of(s: &Keywords, key: &str, hint: usize) -> Option<usize> {
    let named = |p: &(Box<str>, _)| same_bytes(p.0.as_bytes(), key.as_bytes());
    if s.properties.get(hint).is_some_and(named) {
        return Some(hint);
    }
    s.properties.iter().position(named)
}

/// `content::prompt_args_invalid` on the validated text of `arguments`: no object, or a
/// member whose value is not a string.
pub(crate) fn prompt_args_invalid(text: &str) -> bool {
    kind(text) != Kind::Object || members(text).any(|(_, v)| kind(v) != Kind::String)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The members of arguments `a` as the scanner notes them in a body.
    fn noted(a: &str) -> Option<ArgMembers> {
        let body = format!(r#"{{"params":{{"arguments":{a}}}}}"#);
        let mut top = super::super::scan::Top::default();
        super::super::scan::read(body.as_bytes(), &mut top).ok()?;
        Some(top.args)
    }

    /// Where the text reading decides, it agrees with the tree reading.
    #[test]
    fn the_text_reading_agrees_with_the_tree_reading() {
        let schemas = [
            json!({"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}),
            json!({"type": "object", "properties": {"to": {"type": "integer", "minimum": 1, "maximum": 5}}}),
            json!({"type": "object", "properties": {"t": {"type": "object", "properties": {"r": {"type": "string"}}}}, "additionalProperties": false}),
            json!({"type": "object", "properties": {"e": {"enum": [1, 2]}}}),
            json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}}),
            json!({"type": ["object", "null"], "properties": {"n": {"type": ["number", "boolean", 3]}}, "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "patternProperties": {"^x": {}}, "additionalProperties": false, "required": ["x1", 2]}),
            json!({"type": "object", "properties": {"q": {"type": []}}}),
            json!(true),
            json!(false),
        ];
        let args = [
            "{}",
            r#"{"location":"x"}"#,
            r#"{"location":7}"#,
            r#"{"to":3}"#,
            r#"{"to":3.0}"#,
            r#"{"to":9}"#,
            r#"{"to":"3"}"#,
            r#"{"t":{"r":"x"}}"#,
            r#"{"t":{"r":1}}"#,
            r#"{"x":1}"#,
            r#"{"x1":"a","n":true}"#,
            r#"{"n":null,"q":1}"#,
            r#"{"e":3}"#,
            r#"{"a":["x"]}"#,
            r#"{"a":[1]}"#,
            r#"{"k":1,"k":"x"}"#,
            r#"{"location":"x","location":"y"}"#,
            r#"{"query":"q","region":"r","count":1,"target":{"region":"t","region":"u"}}"#,
            r#"{"l\u006fcation":"x"}"#,
            r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17}"#,
            "[]",
            "null",
            r#"{"to":1e0}"#,
            r#"{"to":1.5}"#,
        ];
        let mut decided = 0;
        for s in &schemas {
            let root = crate::input_check::InputCheck::of(s).0.expect("compiled");
            for a in args {
                let tree: Value = serde_json::from_str(a).expect("test JSON");
                let by_tree = crate::content::tool_inputs_invalid(Some(&tree), s);
                // the members walked in the text, and as the scanner notes them
                let walked = inputs_invalid(Some((a, &ArgMembers::overflowed())), &root);
                if let Some(by_text) = walked {
                    assert_eq!(by_text, by_tree, "{a} against {s}");
                    decided += 1;
                }
                if let Some(noted) = noted(a) {
                    assert_eq!(inputs_invalid(Some((a, &noted)), &root), walked, "{a}");
                }
            }
            let none = crate::content::tool_inputs_invalid(None, s);
            assert_eq!(
                inputs_invalid(None, &root),
                Some(none),
                "no arguments against {s}"
            );
        }
        assert!(decided > 150, "{decided}");
        // more properties than the bits hold: the later ones are read as the others are
        let mut many = serde_json::Map::new();
        for n in 0..70 {
            many.insert(format!("p{n}"), json!({"type": "integer"}));
        }
        let many = json!({"type": "object", "properties": many, "required": ["p1", "p66", "q"]});
        let root = crate::input_check::InputCheck::of(&many)
            .0
            .expect("compiled");
        let mut many_decided = 0;
        for a in [
            r#"{"p1":1,"p66":2,"q":3}"#,
            r#"{"p66":2,"q":3}"#,
            r#"{"p1":1,"p66":"x","q":3}"#,
            r#"{"p1":1,"q":3}"#,
            r#"{"q":3,"p66":2,"p66":2,"p1":1}"#,
            r#"{"p0":0,"p1":1,"p2":"no","p66":2,"p69":6,"q":null}"#,
        ] {
            let tree: Value = serde_json::from_str(a).expect("test JSON");
            let by_tree = crate::content::tool_inputs_invalid(Some(&tree), &many);
            let walked = inputs_invalid(Some((a, &ArgMembers::overflowed())), &root);
            assert!(walked.is_none_or(|w| w == by_tree), "{a}");
            many_decided += usize::from(walked.is_some());
            let noted = noted(a).expect("in the subset");
            assert_eq!(inputs_invalid(Some((a, &noted)), &root), walked, "{a}");
        }
        // (every one but the repeated key is decided by the text)
        assert_eq!(many_decided, 5);
        let enum_schema = crate::input_check::InputCheck::of(&schemas[3])
            .0
            .expect("compiled");
        assert_eq!(
            inputs_invalid(
                Some((r#"{"e":3}"#, &ArgMembers::overflowed())),
                &enum_schema
            ),
            None
        );
    }
}
