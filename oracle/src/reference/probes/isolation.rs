//! Probes in the byte forms real HTTP stacks differ on: each departs from a
//! conformant request only along one rule's own dimension, and where the header carries
//! forbidden bytes it says exactly what the body says under one reading (ISO-8859-1 or
//! UTF-8, `isolation::readings`; control bytes placed in the body value too), so a server
//! that skips the character check but compares values is caught on the character rule, not
//! saved by the mismatch rule (DEVIATIONS.md D-51, D-52).

use super::Probe;
use crate::case::Case;
use crate::client::conformant_case;
use crate::fixture::{HEADER_TOOL, PLAIN_TOOL, SENTINEL_URI, TEMPLATE};
use crate::rules;
use crate::surface::Surface;
use serde_json::{json, Value};

/// The isolation-form probes for `surface` (meant for `fixture::surface()`).
pub(super) fn isolation_probes(s: &Surface) -> Vec<Probe> {
    let mut out = Vec::new();
    let mut add = |rule, case| out.push(Probe { rule, case });
    let c = |id: i64, method: &str, params: Value| conformant_case(s, json!(id), method, params);
    let with = |mut case: Case, name: &str, value: &[u8]| {
        case.set_header(name, Some(value));
        case
    };
    let menu = || c(40, "resources/read", json!({ "uri": SENTINEL_URI }));
    let sql = |region: &str| {
        c(
            41,
            "tools/call",
            json!({"name": HEADER_TOOL, "arguments": {"region": region, "query": "q"}}),
        )
    };

    // Mcp-Name: the body URI is `file:///logs/café.log`; the header its ISO-8859-1 / UTF-8
    // bytes
    add(
        rules::HDR_INVALID_CHARS,
        with(menu(), "Mcp-Name", b"file:///logs/caf\xe9.log"),
    );
    add(
        rules::HDR_INVALID_CHARS,
        with(menu(), "Mcp-Name", SENTINEL_URI.as_bytes()),
    );
    // a control byte in the body's URI too (a template instance), so no mismatch arises
    let uri = TEMPLATE.replace("{day}", "mon\u{1}");
    add(
        rules::HDR_INVALID_CHARS,
        with(
            c(42, "resources/read", json!({ "uri": uri })),
            "Mcp-Name",
            uri.as_bytes(),
        ),
    );

    // Mcp-Param-Region: body `café`, header `caf\xE9` / the UTF-8 bytes; body `us\x01west1`
    add(
        rules::PARAM_INVALID_CHARS,
        with(sql("café"), "Mcp-Param-Region", b"caf\xe9"),
    );
    add(
        rules::PARAM_INVALID_CHARS,
        with(sql("café"), "Mcp-Param-Region", "café".as_bytes()),
    );
    add(
        rules::PARAM_INVALID_CHARS,
        with(sql("us\u{1}west1"), "Mcp-Param-Region", b"us\x01west1"),
    );

    // the other dimensions, each alone
    add(
        rules::B64_MARKERS,
        with(sql("Hello"), "Mcp-Param-Region", b"=?BASE64?SGVsbG8=?="),
    );
    let counted = |count: Value| {
        c(
            43,
            "tools/call",
            json!({"name": HEADER_TOOL, "arguments": {"region": "r", "count": count, "query": "q"}}),
        )
    };
    add(
        rules::INT_NUMERIC,
        with(counted(json!(42.0)), "Mcp-Param-Count", b"42"),
    );
    add(
        rules::INT_NUMERIC,
        with(counted(json!(-7)), "Mcp-Param-Count", b"-7.00"),
    );
    let flagged = c(
        44,
        "tools/call",
        json!({"name": HEADER_TOOL, "arguments": {"region": "r", "flag": false, "query": "q"}}),
    );
    add(rules::BOOL_LOWER, with(flagged, "Mcp-Param-Flag", b"FALSE"));
    add(
        rules::HDR_VALUE_CASE,
        with(
            c(
                45,
                "tools/call",
                json!({"name": PLAIN_TOOL, "arguments": {"location": "x"}}),
            ),
            "Mcp-Method",
            b"Tools/Call",
        ),
    );
    add(
        rules::HDR_OWS,
        with(sql("us-west1"), "Mcp-Param-Region", b"\t us-west1 "),
    );
    let mut upper = sql("us-west1");
    for (n, _) in upper.headers.iter_mut() {
        if n.eq_ignore_ascii_case(b"Mcp-Param-Region") {
            *n = b"MCP-PARAM-REGION".to_vec();
        }
    }
    add(rules::HDR_NAME_CI, upper);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use crate::isolation::decide_case;

    #[test]
    fn each_isolation_probe_isolates_its_rule() {
        let s = fixture::surface();
        let missed: Vec<String> = isolation_probes(&s)
            .iter()
            .filter(|p| !decide_case(&p.case, &s).isolated.contains(&p.rule))
            .map(|p| {
                format!(
                    "{}: {:?} -> {:?}",
                    p.rule,
                    p.case.headers,
                    decide_case(&p.case, &s)
                )
            })
            .collect();
        assert!(missed.is_empty(), "{missed:#?}");
    }
}
