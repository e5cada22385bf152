//! The scanner's own cases; its agreement with serde_json over generated bodies is
//! `props/tests/judge_differential.rs`.

use super::*;
use crate::judge::read::validated::{get, members};
use crate::swar::skip_plain;
use serde_json::Value;

/// `read` into a fresh `Top`.
fn scanned(body: &[u8]) -> Result<Top<'_>, Outside> {
    let mut top = Top::default();
    read(body, &mut top).map(|()| top)
}

#[test]
fn reads_the_common_subset_like_serde() {
    let body = br#" {"id": 1, "params": {"name": "a\"b", "x": [1, -2.5, {"b": null}],
        "_meta": {"io.modelcontextprotocol/protocolVersion": "v"}, "name": "n2"},
        "method": "m", "result": 0, "id": "s"} "#;
    let top = scanned(body).expect("in the subset");
    let full: Value = serde_json::from_slice(body).expect("valid JSON");
    assert!(top.is_object && top.kind(Slot::Response).is_some());
    let str_of = |slot| top.val(slot).and_then(Val::as_str);
    assert_eq!(str_of(Slot::Id).as_deref(), full["id"].as_str());
    assert_eq!(str_of(Slot::Name).as_deref(), Some("n2"));
    assert_eq!(str_of(Slot::Version).as_deref(), Some("v"));
    assert_eq!(Val::read(r#""a\"b""#).as_str().as_deref(), Some("a\"b"));
    let params = r#"{"name": "a\"b", "x": [1, -2.5, {"b": null}],
        "_meta": {"io.modelcontextprotocol/protocolVersion": "v"}, "name": "n2"}"#;
    for key in ["x", "name", "zz"] {
        let mine = get(params, key).map(|v| serde_json::from_str::<Value>(v).expect("value"));
        assert_eq!(mine.as_ref(), full["params"].get(key), "{key}");
    }
}

#[test]
fn a_later_params_replaces_the_members_of_an_earlier_one() {
    let top = scanned(br#"{"params": {"name": "a", "_meta": {}}, "params": {"uri": "u"}}"#)
        .expect("in the subset");
    assert!(top.val(Slot::Name).is_none());
    assert_eq!(top.kind(Slot::Meta), None);
    assert_eq!(top.val(Slot::Uri).map(|v| v.text), Some("\"u\""));
}

#[test]
fn falls_back_on_what_it_does_not_model() {
    for body in [
        &br#"{"a\n": 1}"#[..],
        br#"{"a": "\ud83d\ude00"}"#,
        br#"{"a": "\x"}"#,
        b"{\"a\": \"\x01\"}",
        br#"{"a": 1e-281}"#,
        br#"{"a": 1e305}"#,
        br#"{"a": 12e304}"#,
        br#"{"a": 1e0001}"#,
        br#"{"a": 1e}"#,
        br#"{"a": 123456789012345678901}"#,
        br#"{"a": 01}"#,
        br#"{"a": 1.}"#,
        br#"{"a": -}"#,
        br#"{"a": 1,}"#,
        br#"{"a" 1}"#,
        br#"[1 2]"#,
        br#"{} {}"#,
        b"",
        b"\xff",
        b"tru",
    ] {
        assert!(
            validate(body).is_none(),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    assert!(validate(deep.as_bytes()).is_none());
    assert_eq!(scanned(deep.as_bytes()).err(), Some(Outside::TooDeep));
    // a refusal before the depth is reached is not a depth refusal
    let broken = format!("[x{}", "[".repeat(MAX_DEPTH + 1));
    assert_eq!(scanned(broken.as_bytes()).err(), Some(Outside::Other));
    let in_string = format!("[\"{}\"]", "[".repeat(MAX_DEPTH + 1));
    assert!(validate(in_string.as_bytes()).is_some());
    let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(validate(ok.as_bytes()).is_some());
    assert!(validate(br#"{"a": "\u00e9\n\/"}"#).is_some());
    assert!(validate(br#"{"a": [1e3, -2.5E+280, 3e-280, 1e+300, 1e304]}"#).is_some());
}

#[test]
fn members_of_non_objects_are_empty() {
    assert_eq!(members("[1]").count(), 0);
    assert_eq!(get("\"s\"", "s"), None);
    assert_eq!(members("{ }").count(), 0);
}

#[test]
fn skip_plain_stops_at_the_first_stop_byte_wherever_it_is() {
    for stop in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
        for at in 0..20 {
            let mut text = vec![b'a'; 20];
            text[at] = stop;
            // non-ASCII bytes around it must not hide it
            if at > 0 {
                text[at - 1] = 0xc3;
            }
            assert_eq!(skip_plain(&text, 0), at, "{stop:#x} at {at}");
        }
    }
    assert_eq!(skip_plain(&[0x7f, 0xff, b' ', b'~'], 0), 4);
}
