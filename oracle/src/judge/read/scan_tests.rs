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

/// A `_meta` that begins the usual way is read at once (`Reader::usual_meta`): every slot
/// holds the text, and the scan the depth and the answer, that reading it member by member
/// gives (the same body with a space after `_meta`'s brace, which the shortcut does not
/// take).
#[test]
fn the_usual_meta_reads_as_its_members_do() {
    const USUAL: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpdiff","version":"0.1.0"}"#;
    let rests = [
        "}",
        r#","progressToken":0}"#,
        r#","io.modelcontextprotocol/logLevel":"debug"}"#,
        r#","io.modelcontextprotocol/clientInfo":{"name":"other","version":"1"}}"#,
        r#" ,"a":[1,{"b":2}] }"#,
        ",}",
        "]",
        r#","x":"#,
    ];
    let versions = [r#""2026-07-28""#, r#""latest""#, r#""a\"b""#, r#""é""#, "7"];
    let mut fast = 0;
    for rest in rests {
        for version in versions {
            let meta = USUAL.replacen(r#""2026-07-28""#, version, 1);
            let body = |pad: &str| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"_meta":{{{pad}{meta}{rest},"name":"n"}},"_meta":{{}}}}"#
                )
            };
            let (usual, padded) = (body(""), body(" "));
            let read = read_alike(&usual, &padded, &META_SLOTS);
            fast += usize::from(read && version == r#""latest""#);
        }
    }
    assert!(fast >= 4, "{fast}");
}

/// A usual `_meta` read at once: the members land in their slots.
#[test]
fn the_usual_meta_fills_its_slots() {
    let body = br#"{"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpdiff","version":"0.1.0"}}}}"#;
    let top = scanned(body).expect("in the subset");
    let text = |slot| top.val(slot).map(|v| v.text);
    assert_eq!(text(Slot::Version), Some(r#""2026-07-28""#));
    assert_eq!(text(Slot::Capabilities), Some("{}"));
    assert_eq!(
        text(Slot::ClientInfo),
        Some(r#"{"name":"mcpdiff","version":"0.1.0"}"#)
    );
    assert_eq!(text(Slot::InfoName), Some(r#""mcpdiff""#));
    assert_eq!(text(Slot::InfoVersion), Some(r#""0.1.0""#));
    assert_eq!(top.depth, 4);
    assert_eq!(top.client_info(), Some(true));
}

/// A body that begins the usual way has its `jsonrpc`, id and method read at once
/// (`Reader::usual_top`), with the slots, depth and answer that reading them member by
/// member gives (the same body with a space after its brace, which the shortcut does not
/// take).
#[test]
fn the_usual_top_reads_as_its_members_do() {
    let ids = [
        "1",
        "-7",
        "1e+300",
        r#""s""#,
        r#""a\"b""#,
        "null",
        "[1,[2]]",
        r#"{"a":{}}"#,
        "tru",
        "01",
    ];
    let methods = [r#""tools/call""#, r#""a\u0041""#, "7", r#""x"#];
    let rests = [
        r#","params":{"name":"n"}}"#,
        "}",
        r#","id":"again"}"#,
        r#","method":"other","jsonrpc":"1.0"}"#,
        " ]",
    ];
    let mut compared = 0;
    for id in ids {
        for method in methods {
            for rest in rests {
                let body = |pad: &str| {
                    format!(r#"{{{pad}"jsonrpc":"2.0","id":{id},"method":{method}{rest}"#)
                };
                let (usual, padded) = (body(""), body(" "));
                compared += usize::from(read_alike(&usual, &padded, &TOP_SLOTS));
            }
        }
    }
    assert!(compared >= 60, "{compared}");
}

/// The slots a `_meta` shortcut fills, and those around it.
const META_SLOTS: [Slot; 9] = [
    Slot::Name,
    Slot::Meta,
    Slot::Version,
    Slot::Capabilities,
    Slot::ClientInfo,
    Slot::InfoName,
    Slot::InfoVersion,
    Slot::LogLevel,
    Slot::ProgressToken,
];

/// The slots the top-level shortcut fills, and those after it.
const TOP_SLOTS: [Slot; 5] = [
    Slot::Jsonrpc,
    Slot::Id,
    Slot::Method,
    Slot::Params,
    Slot::Name,
];

/// `usual` and `padded` (the same body with a space the shortcuts do not take) read alike:
/// the same refusal, or the same depth and the same text in each of `slots` (the space taken
/// out of a text that holds it); whether both were read.
fn read_alike(usual: &str, padded: &str, slots: &[Slot]) -> bool {
    let (a, b) = match (scanned(usual.as_bytes()), scanned(padded.as_bytes())) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            assert_eq!(a.err(), b.err(), "{usual}");
            return false;
        }
    };
    assert_eq!(a.depth, b.depth, "{usual}");
    for &slot in slots {
        let text = |t: &Top<'_>| {
            t.val(slot)
                .map(|v| (v.text.replacen("{ ", "{", 1), v.escaped))
        };
        assert_eq!(text(&a), text(&b), "{slot:?} in {usual}");
    }
    true
}
