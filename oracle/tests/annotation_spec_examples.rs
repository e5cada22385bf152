//! The annotation validator against every valid and invalid `x-mcp-header` example in the
//! spec text and in the reading aid, one row per example with its file and line.
//!
//! Rows citing the pinned spec pages (`oracle/spec/2026-07-28/`) are checked against the
//! page: the cited line must hold the quoted words, and the tool definition examples are
//! parsed out of the page itself. Rows citing `ENCODING.md` (the reading aid in
//! `../shared/rules/`, not part of the repository) hold the fragment as written there; the
//! fragment is JSON text, parsed here, and compared with the file's line when the file is
//! present (a fresh clone without it still checks every verdict).

use mcpdiff_oracle::annotations::{tool_header_params, AnnotationError};
use serde_json::{json, Value};
use std::path::PathBuf;

const S: &str = "basic/transports/streamable-http.mdx";
const T: &str = "server/tools.mdx";
const ENCODING: &str = "ENCODING.md";

/// What the validator must say.
#[derive(Debug)]
enum Expect {
    /// Valid, with exactly these header names.
    Valid(&'static [&'static str]),
    /// Invalid for this reason (the serde tag of `AnnotationError`).
    Invalid(&'static str),
}

struct Row {
    file: &'static str,
    line: usize,
    /// Words the cited line holds (for ENCODING.md: the fragment as written there).
    quote: &'static str,
    schema: Value,
    expect: Expect,
}

fn spec_page(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("spec/2026-07-28")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn encoding_md() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/rules/ENCODING.md");
    std::fs::read_to_string(path).ok()
}

/// The `inputSchema` of the JSON code block that opens on line `open` (1-based) of a page.
fn example_block(file: &str, open: usize) -> Value {
    let page = spec_page(file);
    let lines: Vec<&str> = page.lines().collect();
    assert_eq!(
        lines[open - 1].trim(),
        "```json",
        "{file}:{open} opens no JSON block"
    );
    let body: Vec<&str> = lines[open..]
        .iter()
        .take_while(|l| l.trim() != "```")
        .copied()
        .collect();
    let tool: Value = serde_json::from_str(&body.join("\n"))
        .unwrap_or_else(|e| panic!("{file}:{open}: the example is not JSON: {e}"));
    tool["inputSchema"].clone()
}

fn object(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

/// `"name": {...}` as written in a table cell, as the only property of a schema.
fn property(fragment: &str) -> Value {
    object(parse(&format!("{{{fragment}}}")))
}

/// `"x-mcp-header": V` on a string property.
fn annotation(fragment: &str) -> Value {
    let mut p = parse(&format!("{{{fragment}}}"));
    p["type"] = json!("string");
    object(json!({"p": p}))
}

/// A property schema `{...}` as the only property.
fn property_schema(fragment: &str) -> Value {
    object(json!({"p": parse(fragment)}))
}

/// Root keywords (`"oneOf": [...]`) beside `type: object`.
fn root_keyword(fragment: &str) -> Value {
    let mut root = parse(&format!("{{{fragment}}}"));
    root["type"] = json!("object");
    root
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("fragment {text:?} is not JSON: {e}"))
}

fn annotated(ty: &str, header: &str) -> Value {
    json!({"type": ty, "x-mcp-header": header})
}

#[rustfmt::skip]
fn rows() -> Vec<Row> {
    let r = |file, line, quote, schema, expect| Row {
        file,
        line,
        quote,
        schema,
        expect,
    };
    use Expect::{Invalid, Valid};
    vec![
        // --- the spec text, streamable-http.mdx § Schema Extension
        r(S, 378, "**MUST NOT** be empty", annotation(r#""x-mcp-header": """#), Invalid("empty")),
        r(S, 379, "token syntax (`1*tchar`", annotation(r#""x-mcp-header": "Re gion""#), Invalid("not_a_token")),
        r(S, 380, "carriage return (CR, `\\r`)", annotation(r#""x-mcp-header": "Region\r""#), Invalid("not_a_token")),
        r(S, 381, "line feed (LF, `\\n`)", annotation(r#""x-mcp-header": "Region\n""#), Invalid("not_a_token")),
        r(S, 382, "case-insensitively unique", object(json!({"a": annotated("string", "Region"), "b": annotated("string", "region")})), Invalid("duplicate")),
        r(S, 384, "primitive types (integer,", object(json!({"i": annotated("integer", "I"), "s": annotated("string", "S"), "b": annotated("boolean", "B")})), Valid(&["I", "S", "B"])),
        r(S, 385, "type `number` are not permitted", object(json!({"p": annotated("number", "Price")})), Invalid("not_primitive")),
        r(S, 386, "safe range for JavaScript", object(json!({"n": {"type": "integer", "maximum": 9_007_199_254_740_992_u64, "x-mcp-header": "N"}})), Invalid("unsafe_integer_bounds")),
        r(S, 387, "(−2<sup>53</sup>+1 to 2<sup>53</sup>−1)", object(json!({"n": {"type": "integer", "minimum": -9_007_199_254_740_991_i64, "maximum": 9_007_199_254_740_991_i64, "x-mcp-header": "N"}})), Valid(&["N"])),
        r(S, 390, "pass through `items`", object(json!({"t": {"type": "array", "items": annotated("string", "Tag")}})), Invalid("not_statically_reachable")),
        r(S, 391, "other array keyword", object(json!({"t": {"type": "array", "prefixItems": [annotated("string", "Tag")]}})), Invalid("not_statically_reachable")),
        r(S, 391, "(`oneOf`, `anyOf`, `allOf`,", root_keyword(r#""oneOf": [{"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}]"#), Invalid("not_statically_reachable")),
        r(S, 391, "(`oneOf`, `anyOf`, `allOf`,", root_keyword(r#""anyOf": [{"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}]"#), Invalid("not_statically_reachable")),
        r(S, 391, "(`oneOf`, `anyOf`, `allOf`,", root_keyword(r#""allOf": [{"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}]"#), Invalid("not_statically_reachable")),
        r(S, 392, "`not`), conditional keywords", root_keyword(r#""not": {"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}"#), Invalid("not_statically_reachable")),
        r(S, 392, "(`if`/`then`/`else`)", root_keyword(r#""if": {"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}"#), Invalid("not_statically_reachable")),
        r(S, 392, "(`if`/`then`/`else`)", root_keyword(r#""if": {"type": "object"}, "then": {"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}"#), Invalid("not_statically_reachable")),
        r(S, 392, "(`if`/`then`/`else`)", root_keyword(r#""if": {"type": "object"}, "else": {"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}"#), Invalid("not_statically_reachable")),
        r(S, 392, "or `$ref`", root_keyword(r##""$defs": {"R": {"type": "string", "x-mcp-header": "R"}}, "properties": {"r": {"$ref": "#/$defs/R"}}"##), Invalid("not_statically_reachable")),
        r(S, 393, "object properties are permitted", object(json!({"target": object(json!({"inner": object(json!({"region": annotated("string", "TargetRegion")}))}))})), Valid(&["TargetRegion"])),
        r(S, 394, "annotation anywhere else makes the", root_keyword(r#""additionalProperties": {"type": "string", "x-mcp-header": "Any"}"#), Invalid("not_statically_reachable")),
        r(S, 415, "\"name\": \"execute_sql\"", example_block(S, 413), Valid(&["Region"])),
        // --- server/tools.mdx § x-mcp-header repeats the constraints and the example
        r(T, 348, "**MUST NOT** be empty", annotation(r#""x-mcp-header": """#), Invalid("empty")),
        r(T, 350, "carriage return (CR, `\\r`)", annotation(r#""x-mcp-header": "A\r\nB""#), Invalid("not_a_token")),
        r(T, 355, "type `number` are not permitted", object(json!({"p": annotated("number", "P")})), Invalid("not_primitive")),
        r(T, 374, "\"name\": \"execute_sql\"", example_block(T, 372), Valid(&["Region"])),
        // --- ENCODING.md §1.4, valid vectors
        r(ENCODING, 120, r#""region": {"type":"string","x-mcp-header":"Region"}"#, property(r#""region": {"type":"string","x-mcp-header":"Region"}"#), Valid(&["Region"])),
        r(ENCODING, 121, r#""tenant_id": {"type":"string","x-mcp-header":"TenantId"}"#, property(r#""tenant_id": {"type":"string","x-mcp-header":"TenantId"}"#), Valid(&["TenantId"])),
        r(ENCODING, 122, r#""count": {"type":"integer","minimum":0,"maximum":1000,"x-mcp-header":"Count"}"#, property(r#""count": {"type":"integer","minimum":0,"maximum":1000,"x-mcp-header":"Count"}"#), Valid(&["Count"])),
        r(ENCODING, 123, r#""flag": {"type":"boolean","x-mcp-header":"Flag"}"#, property(r#""flag": {"type":"boolean","x-mcp-header":"Flag"}"#), Valid(&["Flag"])),
        r(ENCODING, 124, r#""m": {"type":"string","x-mcp-header":"Method"}"#, property(r#""m": {"type":"string","x-mcp-header":"Method"}"#), Valid(&["Method"])),
        r(ENCODING, 125, r#""t": {"type":"string","x-mcp-header":"a.b_c-d~e!f#g$h%i&j'k*l+m^n`o|p"}"#, property(r#""t": {"type":"string","x-mcp-header":"a.b_c-d~e!f#g$h%i&j'k*l+m^n`o|p"}"#), Valid(&["a.b_c-d~e!f#g$h%i&j'k*l+m^n`o|p"])),
        r(ENCODING, 126, r#""target": {"type":"object","properties":{"region":{"type":"string","x-mcp-header":"TargetRegion"}}}"#, property(r#""target": {"type":"object","properties":{"region":{"type":"string","x-mcp-header":"TargetRegion"}}}"#), Valid(&["TargetRegion"])),
        // --- ENCODING.md §1.4, invalid vectors
        r(ENCODING, 132, r#""x-mcp-header": """#, annotation(r#""x-mcp-header": """#), Invalid("empty")),
        r(ENCODING, 133, r#""x-mcp-header": "My Region""#, annotation(r#""x-mcp-header": "My Region""#), Invalid("not_a_token")),
        r(ENCODING, 134, r#""x-mcp-header": "Region:Primary""#, annotation(r#""x-mcp-header": "Region:Primary""#), Invalid("not_a_token")),
        r(ENCODING, 135, r#""x-mcp-header": "Région""#, annotation(r#""x-mcp-header": "Région""#), Invalid("not_a_token")),
        r(ENCODING, 136, r#""x-mcp-header": "Region\t1""#, annotation(r#""x-mcp-header": "Region\t1""#), Invalid("not_a_token")),
        r(ENCODING, 137, r#""x-mcp-header": "Reg\r\nX-Evil: 1""#, annotation(r#""x-mcp-header": "Reg\r\nX-Evil: 1""#), Invalid("not_a_token")),
        r(ENCODING, 138, "two properties with `\"Region\"`", object(json!({"a": annotated("string", "Region"), "b": annotated("integer", "Region")})), Invalid("duplicate")),
        r(ENCODING, 139, "`\"Region\"` and `\"REGION\"` (possibly at different depths)", object(json!({"a": annotated("string", "Region"), "o": object(json!({"b": annotated("string", "REGION")}))})), Invalid("duplicate")),
        r(ENCODING, 140, r#"{"type":"number","x-mcp-header":"Price"}"#, property_schema(r#"{"type":"number","x-mcp-header":"Price"}"#), Invalid("not_primitive")),
        r(ENCODING, 141, r#"`{"type":"array",…}`"#, object(json!({"p": {"type": "array", "items": {"type": "string"}, "x-mcp-header": "A"}})), Invalid("not_primitive")),
        r(ENCODING, 141, r#"`{"type":"object",…}`"#, object(json!({"p": {"type": "object", "properties": {}, "x-mcp-header": "O"}})), Invalid("not_primitive")),
        r(ENCODING, 141, r#"`{"type":"null",…}`"#, object(json!({"p": {"type": "null", "x-mcp-header": "N"}})), Invalid("not_primitive")),
        r(ENCODING, 142, r#""tags": {"type":"array","items":{"type":"string","x-mcp-header":"Tag"}}"#, property(r#""tags": {"type":"array","items":{"type":"string","x-mcp-header":"Tag"}}"#), Invalid("not_statically_reachable")),
        r(ENCODING, 143, r#""oneOf":[{"properties":{"r":{"type":"string","x-mcp-header":"R"}}}]"#, root_keyword(r#""oneOf":[{"properties":{"r":{"type":"string","x-mcp-header":"R"}}}]"#), Invalid("not_statically_reachable")),
        r(ENCODING, 144, r#""if":{…},"then":{"properties":{"r":{…,"x-mcp-header":"R"}}}"#, root_keyword(r#""if":{"required":["k"]},"then":{"properties":{"r":{"type":"string","x-mcp-header":"R"}}}"#), Invalid("not_statically_reachable")),
        r(ENCODING, 145, r##""r": {"$ref":"#/$defs/Region"}"##, root_keyword(r##""$defs": {"Region": {"type":"string","x-mcp-header":"Region"}}, "properties": {"r": {"$ref":"#/$defs/Region"}}"##), Invalid("not_statically_reachable")),
        r(ENCODING, 146, r#""additionalProperties": {"type":"string","x-mcp-header":"Any"}"#, root_keyword(r#""additionalProperties": {"type":"string","x-mcp-header":"Any"}"#), Invalid("not_statically_reachable")),
        r(ENCODING, 147, "`\"x-mcp-header\"` on the root schema", json!({"type": "object", "x-mcp-header": "Root", "properties": {}}), Invalid("not_statically_reachable")),
        r(ENCODING, 148, r#"{"type":"integer","maximum":9007199254740992,"x-mcp-header":"N"}"#, property_schema(r#"{"type":"integer","maximum":9007199254740992,"x-mcp-header":"N"}"#), Invalid("unsafe_integer_bounds")),
        // --- ENCODING.md §1.4, open rows: the oracle's reading (DEVIATIONS.md AMB-36/37)
        r(ENCODING, 154, r#"{"type":["string","null"],"x-mcp-header":"Opt"}"#, property_schema(r#"{"type":["string","null"],"x-mcp-header":"Opt"}"#), Invalid("not_primitive")),
        r(ENCODING, 155, r#"{"x-mcp-header":"X"}"#, property_schema(r#"{"x-mcp-header":"X"}"#), Invalid("not_primitive")),
        r(ENCODING, 156, r#""x-mcp-header": 5"#, property_schema(r#"{"type":"string","x-mcp-header": 5}"#), Invalid("not_a_string")),
        r(ENCODING, 157, r#"{"type":"integer","x-mcp-header":"N"}"#, property_schema(r#"{"type":"integer","x-mcp-header":"N"}"#), Valid(&["N"])),
        r(ENCODING, 158, "referenced again under `allOf`", json!({"type": "object", "properties": {"r": annotated("string", "R")}, "allOf": [{"properties": {"r": annotated("string", "R")}}]}), Invalid("not_statically_reachable")),
    ]
}

fn reason_tag(e: &AnnotationError) -> String {
    serde_json::to_value(e).expect("plain enum")["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn every_spec_example_gets_the_spec_verdict() {
    let mut failures = Vec::new();
    for row in rows() {
        let got = tool_header_params(&row.schema);
        let ok = match (&row.expect, &got) {
            (Expect::Valid(headers), Ok(params)) => {
                let mut want: Vec<&str> = headers.to_vec();
                let mut have: Vec<&str> = params.iter().map(|p| p.header.as_str()).collect();
                want.sort_unstable();
                have.sort_unstable();
                want == have
            }
            (Expect::Invalid(tag), Err(e)) => reason_tag(e) == *tag,
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{}:{}: expected {:?}, got {got:?} for {}",
                row.file, row.line, row.expect, row.schema
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_row_cites_a_line_that_holds_its_words() {
    let encoding = encoding_md();
    if encoding.is_none() {
        eprintln!("ENCODING.md not found beside the repository: its citations are not checked");
    }
    for row in rows() {
        let text = match row.file {
            ENCODING => match &encoding {
                Some(t) => t.clone(),
                None => continue,
            },
            page => spec_page(page),
        };
        let line = text.lines().nth(row.line - 1).unwrap_or_default();
        // markdown table cells escape `|` as `\|`
        let unescaped = line.replace("\\|", "|");
        assert!(
            unescaped.contains(row.quote),
            "{}:{} does not hold {:?}: {line}",
            row.file,
            row.line,
            row.quote
        );
    }
}

#[test]
fn the_rows_cover_both_labels_and_every_reason() {
    let rows = rows();
    assert!(
        rows.iter()
            .filter(|r| matches!(r.expect, Expect::Valid(_)))
            .count()
            >= 10
    );
    for tag in [
        "empty",
        "not_a_token",
        "not_a_string",
        "duplicate",
        "not_primitive",
        "unsafe_integer_bounds",
        "not_statically_reachable",
    ] {
        assert!(
            rows.iter()
                .any(|r| matches!(r.expect, Expect::Invalid(t) if t == tag)),
            "no row expects {tag}"
        );
    }
}
