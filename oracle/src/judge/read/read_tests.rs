//! The fast reading of a body against the simple one at the scanner's edges: bytes beyond
//! ASCII and invalid UTF-8 in and around strings, word (8-byte) boundaries, keys that
//! almost are the ones the judge reads, integers at the edges of `u64`/`i64`, and
//! `arguments` objects beyond the noted slots. Generated bodies are compared in
//! `props/tests/judge_differential.rs`.

use super::arguments::{ArgumentReader, Arguments};
use super::validated;
use super::{body_read_in_place, read_fast, read_simple};
use crate::case::{
    Case, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION,
};
use crate::judge::view::{BodyView, ParamsView, RequestBody};
use serde_json::Value;

/// Both readings of `body` (in a POST) are the same view; `in_place` says whether the
/// scanner must have read it itself.
fn same_reading(body: &[u8], in_place: Option<bool>) {
    let case = Case::post("/mcp", &[], body);
    let (mut fast_tree, mut simple_tree) = (None, None);
    let shown = String::from_utf8_lossy(body);
    assert_eq!(
        read_fast(&case, &mut fast_tree),
        read_simple(&case, &mut simple_tree),
        "{shown}"
    );
    if let Some(expected) = in_place {
        assert_eq!(body_read_in_place(body), expected, "{shown}");
    }
    // the subset never holds what serde_json refuses
    if body_read_in_place(body) {
        assert!(serde_json::from_slice::<Value>(body).is_ok(), "{shown}");
    }
}

/// A request whose `method`, `params.name` and protocol version are `text` (raw bytes).
fn request_with(text: &[u8]) -> Vec<u8> {
    let mut body = br#"{"jsonrpc":"2.0","id":"#.to_vec();
    body.extend_from_slice(b"\"");
    body.extend_from_slice(text);
    body.extend_from_slice(b"\",\"method\":\"");
    body.extend_from_slice(text);
    body.extend_from_slice(br#"","params":{"name":""#);
    body.extend_from_slice(text);
    body.extend_from_slice(br#"","_meta":{"io.modelcontextprotocol/protocolVersion":""#);
    body.extend_from_slice(text);
    body.extend_from_slice(br#""}}}"#);
    body
}

#[test]
fn bytes_beyond_ascii_read_alike_wherever_they_fall() {
    let samples: [&[u8]; 14] = [
        "é".as_bytes(),
        "世界".as_bytes(),
        "😀".as_bytes(),
        b"\xc3",             // truncated two-byte sequence
        b"\xc0\xaf",         // overlong `/`
        b"\xe0\x80\xaf",     // overlong, three bytes
        b"\xed\xa0\x80",     // a surrogate (U+D800) as raw bytes
        b"\xf4\x90\x80\x80", // beyond U+10FFFF
        b"\x80",             // a lone continuation byte
        b"\xff",
        "\\u00e9é".as_bytes(), // an escape next to non-ASCII
        "é\\n".as_bytes(),
        "\u{7f}\u{80}".as_bytes(),
        "a\u{ffff}".as_bytes(),
    ];
    for sample in samples {
        // every place within an 8-byte word, and across a word's edge
        for pad in 0..17 {
            let mut text = vec![b'a'; pad];
            text.extend_from_slice(sample);
            text.extend_from_slice(b"bc");
            same_reading(&request_with(&text), None);
            let mut tail = vec![b'x'; pad];
            tail.extend_from_slice(sample);
            same_reading(&request_with(&tail), None);
        }
    }
    // outside strings: in a key, a number, whitespace, after the value
    same_reading(
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"m\xc3\xa9thod\":\"x\"}",
        Some(true),
    );
    for body in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":1\xc3\xa9,\"method\":\"x\"}"[..],
        b"{\"jsonrpc\":\"2.0\",\xc2\xa0\"id\":1,\"method\":\"x\"}",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\xc3\xa9",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\xff",
        b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}",
    ] {
        same_reading(body, Some(false));
    }
    same_reading(&request_with("é世😀".as_bytes()), Some(true));
    same_reading(&request_with(b"\xed\xa0\x80"), Some(false));
    // invalid UTF-8 read without a parse: still nested deep or not, as the simple reading says
    for depth in [16, 17, 130] {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let (opens, closes) = (open.repeat(depth), close.repeat(depth));
            let mut body = format!("{opens}\"\\\"[[").into_bytes();
            body.extend_from_slice(b"\xff\"");
            body.extend_from_slice(closes.as_bytes());
            same_reading(&body, Some(false));
            body.truncate(body.len() - closes.len() / 2);
            same_reading(&body, Some(false));
        }
    }
}

#[test]
fn keys_near_the_ones_the_judge_reads_are_other_keys() {
    let meta = "io.modelcontextprotocol/";
    for key in [
        "i", "idx", "Id", "jsonrpc2", "metho", "methods", "param", "params_", "results", "err",
        "_", "_met", "_metas",
    ] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"m","{key}":{{"name":"n"}}}}"#);
        same_reading(body.as_bytes(), Some(true));
    }
    for key in [
        "protocolVersio",
        "protocolVersionX",
        "client",
        "clientC",
        "clientI",
        "clientCapabilitie",
        "clientInfos",
        "logLevel_",
        "",
    ] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{{"nam":1,"names":2,"uri_":3,"cursors":4,"_meta":{{"{meta}{key}":"v","io.model":"w"}}}}}}"#
        );
        same_reading(body.as_bytes(), Some(true));
    }
    // every key the judge reads, with `clientInfo` of each shape
    for info in [
        r#"{"name":"a","version":"1"}"#,
        r#"{"name":"a"}"#,
        r#"{"name":"a","version":1}"#,
        r#"{"name":"a","version":"1","name":null}"#,
        r#"{"name":"mcpdiff","version":"1"}"#,
        r#"{"name":"mcp\u0064iff","version":"1"}"#,
        r#"{"name":"other\n","version":"1"}"#,
        r#"[]"#,
        r#""x""#,
    ] {
        // (spelled from `case`'s names: the scanner's own spellings must agree with them)
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{{"uri":"u","cursor":null,"_meta":{{"{META_PROTOCOL_VERSION}":"v","{META_CLIENT_CAPABILITIES}":{{}},"{META_CLIENT_INFO}":{info},"{META_LOG_LEVEL}":"debug"}}}}}}"#
        );
        same_reading(body.as_bytes(), Some(true));
    }
    // `inputResponses` of each shape, and near spellings of its key; a completion's members
    for (key, value) in [
        ("inputResponses", "null"),
        ("inputResponses", "\"yes\""),
        ("inputResponses", "{}"),
        ("inputResponses", r#"{"k":{"action":"decline"}}"#),
        ("inputResponses", r#"{"k":{},"j":7}"#),
        ("inputResponses", r#"{"k":7,"k":{"action":"decline"}}"#),
        ("inputResponses", r#"{"k":{},"k":[1]}"#),
        ("inputResponses", r#"{"a":{},"b":{},"c":{},"d":{},"e":{}}"#),
        ("inputResponses", r#"{"a":{},"b":{},"c":{},"d":{},"e":"x"}"#),
        ("inputResponses", r#"{"k":{"x":[1,{"y":"\u006b"}]}}"#),
        ("inputResponses", "[1,2]"),
        ("inputResponses", "true"),
        ("inputResponses", "-1.5e3"),
        ("inputResponse", "7"),
        ("inputResponsesX", "7"),
    ] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","{key}":{value},"_meta":{{}}}}}}"#
        );
        same_reading(body.as_bytes(), Some(true));
    }
    for params in [
        r#"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v"}}"#,
        r#"{"ref":{"type":"ref/prompt","name":"p"}}"#,
        r#"{"ref":{"type":"ref/resource","uri":"u"},"argument":{"name":"a","value":"v"}}"#,
        r#"{}"#,
        r#"{"ref":{"type":"ref/prompt","name":"p\u0031"},"argument":{"name":"a","value":"v"}}"#,
        r#"{"ref":"x","argument":[1,{"name":"a"}]}"#,
        r#"{"ref":{"type":"ref/prompt","name":"p","name":7},"argument":{"name":"a","value":"v"}}"#,
        r#"{"ref":{"type":"ref/prompt","name":7,"name":"q"},"argument":{"value":"v","name":null}}"#,
        r#"{"ref":{"type":"ref/prompt"},"ref":{"type":"ref/resource"},"argument":{"name":"a","value":"v"}}"#,
    ] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{params}}}"#
        );
        same_reading(body.as_bytes(), Some(true));
    }
    // a known key cut off by the end of the body, or spelled with an escape
    for body in [
        &br#"{"id"#[..],
        br#"{"id""#,
        br#"{"jsonrpc":"2.0","params":{"_meta":{"io.modelcontextprotocol/protocolVersion"#,
        br#"{"jsonrpc":"2.0","\u0069d":1,"method":"m"}"#,
    ] {
        same_reading(body, Some(false));
    }
}

#[test]
fn integers_read_as_serde_reads_them() {
    for text in [
        "0",
        "-0",
        "7",
        "-7",
        "10",
        "-10",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775807",
        "-9223372036854775808",
        "-9223372036854775809",
        "9999999999999999999",
        "-9999999999999999999",
        "18446744073709551615",
        "1.5",
        "-2e3",
    ] {
        assert_eq!(
            validated::value(text),
            serde_json::from_str::<Value>(text).ok(),
            "{text}"
        );
    }
}

/// Each parameter path read from the arguments the scanner noted as from the parsed tree.
fn same_leaves(arguments: &str, paths: &[&[&str]]) {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{arguments}}}}}"#
    );
    let case = Case::post("/mcp", &[], body.as_bytes());
    assert!(body_read_in_place(&case.body), "{body}");
    let mut unused = None;
    let view = read_fast(&case, &mut unused);
    let BodyView::Request(RequestBody {
        params:
            Some(ParamsView {
                arguments: noted @ Some(Arguments::Raw(_)),
                ..
            }),
        ..
    }) = view.body
    else {
        panic!("no arguments read in place from {body}");
    };
    let tree: Value = serde_json::from_str(arguments).expect("valid JSON");
    let raw = ArgumentReader::new(noted);
    let parsed = ArgumentReader::new(Some(Arguments::Parsed(&tree)));
    for path in paths {
        let path: Vec<String> = path.iter().map(|k| k.to_string()).collect();
        let show = |leaf: super::arguments::Leaf<'_>| {
            let headers: [&[u8]; 8] = [b"1", b"-2", b"1.0", b"x", b"true", b"last", b"in", b"\xff"];
            let compared = headers.map(|h| leaf.compare(h));
            let text = leaf.to_string();
            (text, leaf.is_container(), leaf.boolean_text(), compared)
        };
        assert_eq!(
            raw.with_value(&path, show),
            parsed.with_value(&path, show),
            "{arguments} at {path:?}"
        );
    }
}

#[test]
fn argument_leaves_read_alike() {
    let paths: &[&[&str]] = &[
        &[],
        &["a"],
        &["b"],
        &["s"],
        &["e"],
        &["n"],
        &["t"],
        &["o", "a"],
        &["o", "x"],
        &["l", "0"],
        &["zz"],
        &["k12"],
        &["k0"],
        &["k5"],
    ];
    same_leaves(
        r#"{"a":1,"b":-2,"s":"x","e":"\u00e9\n","n":null,"t":true,"o":{"a":"in"},"l":[1],"a":"last"}"#,
        paths,
    );
    same_leaves(
        r#"{"a":1.0,"b":-0,"s":12345678901234567890,"e":-9223372036854775808,"n":0,"t":false}"#,
        paths,
    );
    same_leaves(r#"[1,2]"#, paths);
    same_leaves(r#""s""#, paths);
    same_leaves(r#"{ "a" : 1 , "o" : { "a" : [ ] } }"#, paths);
    // more members than the index holds
    let many: Vec<String> = (0..20).map(|i| format!(r#""k{i}":{i}"#)).collect();
    same_leaves(&format!("{{{},\"k0\":\"again\"}}", many.join(",")), paths);
    let six: Vec<String> = (0..6).map(|i| format!(r#""k{i}":"\u00e9{i}""#)).collect();
    same_leaves(&format!("{{{}}}", six.join(",")), paths);
    // offsets beyond 16 bits
    let long = "x".repeat(70_000);
    same_leaves(
        &format!(r#"{{"a":"{long}","k0":"\n{long}","b":true}}"#),
        paths,
    );
}

#[test]
fn nested_values_and_replaced_members_read_alike() {
    let head = r#"{"jsonrpc":"2.0","id":1,"method":"m","#;
    let info = r#""io.modelcontextprotocol/clientInfo""#;
    let level = r#""io.modelcontextprotocol/logLevel""#;
    for rest in [
        // a later member replaces an earlier one, members and all
        format!(
            r#""params":{{"_meta":{{{info}:{{"name":"a","version":"1"}}}},"_meta":{{{info}:"x"}}}}}}"#
        ),
        format!(
            r#""params":{{"_meta":{{{info}:{{"name":"a","version":"1"}},{info}:{{"name":"a"}}}}}}}}"#
        ),
        format!(r#""params":{{"_meta":{{{info}:{{"name":"a","version":"1"}}}},"_meta":{{}}}}}}"#),
        format!(r#""params":{{"name":"n","_meta":{{{level}:"debug"}}}},"params":5}}"#),
        format!(r#""params":{{"_meta":{{{level}:"debug"}},"_meta":[{level}]}}}}"#),
        // values nested in arrays and objects, compact and spaced
        r#""x":[true,false,null,{"a":[[],{}]},-0.5e3,"s"],"y":{"b":{"c":[[1],[2,{"d":{}}]]}}}"#
            .to_string(),
        r#""x" : [ true , false , null , { "a" : [ [ ] , { } ] } ] , "y" : { } }"#.to_string(),
        r#""x":[fals]}"#.to_string(),
        r#""x":[nul]}"#.to_string(),
        r#""x":[truex]}"#.to_string(),
        r#""x":{"a":1,}}"#.to_string(),
        r#""x":[1,]}"#.to_string(),
        r#""x":{"a" 1}}"#.to_string(),
        r#""x":{"a":1]}"#.to_string(),
        r#""x":[1}}"#.to_string(),
        r#""x":{"\u0061":1}}"#.to_string(),
        // a known key cut off near the end of the body (read off a padded window)
        format!(r#""params":{{"_meta":{{{level}:1}}}}}}"#),
        r#""params":{"cursor":1}}"#.to_string(),
        r#""params":{"cursor""#.to_string(),
        r#""params":{"arguments":{"a":1}}}"#.to_string(),
    ] {
        same_reading(format!("{head}{rest}").as_bytes(), None);
    }
    // `2.0` spelled with an escape is still `2.0`
    same_reading(br#"{"jsonrpc":"\u0032.0","id":1,"method":"m"}"#, Some(true));
    // nesting at and beyond the scanner's limit, below the members the judge reads
    for depth in [125, 126, 127] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{{"x":{}{}}}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        same_reading(body.as_bytes(), None);
    }
}
