//! The benign inputs of a case taken out (P-BENIGN, DEVIATIONS.md D-29): no `Mcp-Session-Id`
//! or `Last-Event-ID`, mirrored header names in their canonical case, no padding, and a
//! valid sentinel whose text needs no encoding sent plain; in the body, the conformant
//! client's `clientInfo` for another client's (D-194) and no `inputResponses` entries nobody
//! asked for (D-193). The spec says these must not
//! change the answer, so the same answer can be judged against the case without them: when
//! it breaks a rule there too, that rule (not the benign input's) explains the failure.

use crate::case::{trim_ows, Case, META_CLIENT_INFO};
use crate::encoding::{decode_header_value, needs_encoding, DecodedValue};
use crate::judge::view::{InputResponsesView, CONFORMANT_CLIENT};
use crate::rules::{self, RuleId};
use serde_json::Value;

/// The rules that carry a benign input's expectation.
pub const BENIGN_RULES: [RuleId; 7] = [
    rules::BC_SESSION,
    rules::BC_LAST_EVENT_ID,
    rules::HDR_NAME_CI,
    rules::HDR_OWS,
    rules::B64_DECODE,
    rules::INFO_NOT_BEHAVIOR,
    rules::MRTR_IGNORE_EXTRA,
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
    plain_body(&mut out);
    out
}

/// The body's benign members taken out: a well-formed `clientInfo` of another client
/// becomes the conformant client's, an `inputResponses` of object entries is dropped.
fn plain_body(case: &mut Case) {
    let Ok(mut body) = serde_json::from_slice::<Value>(&case.body) else {
        return;
    };
    let Some(params) = body.get_mut("params").and_then(Value::as_object_mut) else {
        return;
    };
    let mut changed = false;
    let entries = params.get("inputResponses").map(InputResponsesView::of);
    if entries == Some(InputResponsesView::Entries) {
        params.remove("inputResponses");
        changed = true;
    }
    let conformant = crate::client::request_meta(crate::case::MODERN_VERSION);
    let info = params
        .get_mut("_meta")
        .and_then(|m| m.get_mut(META_CLIENT_INFO));
    if let Some(info) = info {
        let name = info.get("name").and_then(Value::as_str);
        let foreign = name.is_some_and(|n| n != CONFORMANT_CLIENT)
            && info.get("version").is_some_and(Value::is_string);
        if foreign {
            *info = conformant[META_CLIENT_INFO].clone();
            changed = true;
        }
    }
    if changed {
        // serializing a Value cannot fail (all keys are strings)
        case.body = serde_json::to_vec(&body).unwrap_or_default();
    }
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

    #[test]
    fn another_clients_info_and_unrequested_entries_are_taken_out() {
        let s = crate::fixture::surface();
        let params = serde_json::json!({"name": "get_weather", "arguments": {"location": "x"}});
        let plain = crate::client::conformant_case(&s, 1.into(), "tools/call", params.clone());
        let mut with = params;
        with["inputResponses"] = serde_json::json!({"k": {"action": "decline"}});
        let mut c = crate::client::conformant_case(&s, 1.into(), "tools/call", with);
        let mut body: Value = serde_json::from_slice(&c.body).unwrap();
        body["params"]["_meta"][META_CLIENT_INFO] =
            serde_json::json!({"name": "o", "version": "1"});
        c.body = serde_json::to_vec(&body).unwrap();
        let w = without_benign(&c);
        let read = |b: &[u8]| serde_json::from_slice::<Value>(b).unwrap();
        assert_eq!(read(&w.body), read(&plain.body));
        // a case with neither keeps its bytes
        assert_eq!(without_benign(&plain).body, plain.body);
    }
}
