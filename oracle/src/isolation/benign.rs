//! The benign inputs of a case taken out (P-BENIGN, DEVIATIONS.md D-29): no `Mcp-Session-Id`
//! or `Last-Event-ID`, mirrored header names in their canonical case, no padding, and a
//! valid sentinel whose text needs no encoding sent plain. The spec says these must not
//! change the answer, so the same answer can be judged against the case without them: when
//! it breaks a rule there too, that rule (not the benign input's) explains the failure.

use crate::case::{trim_ows, Case};
use crate::encoding::{decode_header_value, needs_encoding, DecodedValue};
use crate::rules::{self, RuleId};

/// The rules that carry a benign input's expectation.
pub const BENIGN_RULES: [RuleId; 5] = [
    rules::BC_SESSION,
    rules::BC_LAST_EVENT_ID,
    rules::HDR_NAME_CI,
    rules::HDR_OWS,
    rules::B64_DECODE,
];

const MIRRORED: [&str; 3] = ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"];

/// `case` without its benign inputs.
pub fn without_benign(case: &Case) -> Case {
    let mut out = case.clone();
    out.headers.retain(|(n, _)| {
        !n.eq_ignore_ascii_case(b"Mcp-Session-Id") && !n.eq_ignore_ascii_case(b"Last-Event-ID")
    });
    for (n, v) in out.headers.iter_mut() {
        let param = n.len() > 10 && n[..10].eq_ignore_ascii_case(b"mcp-param-");
        let canonical = MIRRORED
            .iter()
            .find(|m| n.eq_ignore_ascii_case(m.as_bytes()));
        match canonical {
            Some(m) => *n = m.as_bytes().to_vec(),
            None if param => n[..10].copy_from_slice(b"Mcp-Param-"),
            None => continue,
        }
        *v = trim_ows(v).to_vec();
        let sentinel_ok = param || n.as_slice() == b"Mcp-Name";
        if let (true, DecodedValue::Decoded(text)) = (sentinel_ok, decode_header_value(v)) {
            if !needs_encoding(&text) {
                *v = text.into_bytes();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benign_inputs_are_taken_out() {
        let c = Case::post(
            "/mcp",
            &[
                ("mcp-method", " tools/call "),
                ("Mcp-Session-Id", "x"),
                ("mcp-param-region", "=?base64?dXMtd2VzdDE=?="),
                ("Mcp-Name", "=?base64?Y2Fmw6k=?="),
            ],
            "",
        );
        let w = without_benign(&c);
        assert_eq!(
            w.headers,
            vec![
                (b"Mcp-Method".to_vec(), b"tools/call".to_vec()),
                (b"Mcp-Param-region".to_vec(), b"us-west1".to_vec()),
                (b"Mcp-Name".to_vec(), b"=?base64?Y2Fmw6k=?=".to_vec()),
            ]
        );
    }
}
