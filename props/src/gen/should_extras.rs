//! The rare carriers of the SHOULD rules judged in the issue 23 sweep, drawn from a stream of
//! their own keyed by (seed, index) like `stream_meta`, so every other draw of a case, and
//! every case that gets none of them, is what it was before: a `completion/complete` for a
//! prompt the target does not list (COMPL-ERRORS), an `inputResponses` that is no object or
//! that holds an entry nobody asked for (MRTR-VALIDATE-INPUTS, MRTR-IGNORE-EXTRA), and a
//! `clientInfo` naming another client (BASE-INFO-NOT-BEHAVIOR). Rare on purpose: enough for
//! every one of those rules to be isolated by generated cases (`mcpdiff rules --coverage`),
//! few enough that the mix stays the header and body edits' (the judge reads these members
//! off the text without a tree: `judge::read::rare_text`).

use crate::choice::{Rng, Source};
use mcpdiff_oracle::Case;
use serde_json::{json, Map, Value};

/// Keys these draws apart from the case's own and the stream-meta ones.
const SALT: u64 = 0x7368_6f75_6c64_5f78;

/// The methods whose params take `inputResponses`.
const RETRIED: [&str; 3] = ["tools/call", "resources/read", "prompts/get"];

/// The `clientInfo` name another client reports (D-194).
pub(crate) const OTHER_CLIENT: &str = "other-client";

/// Rewrite the call of case `index` of a run with `seed` (rarely); whether the case's
/// `clientInfo` is to name another client (`foreign_client_info`, after rendering).
pub(crate) fn draw(
    seed: u64,
    index: u64,
    method: &mut &'static str,
    params: &mut Map<String, Value>,
) -> bool {
    let mut r = Rng::for_case(seed ^ SALT, index);
    // a quarter of the reads of an unknown prompt complete its argument instead
    let unknown_prompt = params.get("name") == Some(&json!("no_such_prompt"));
    if *method == "prompts/get" && unknown_prompt && r.below(4) == 0 {
        *method = "completion/complete";
        params.clear();
        params.insert(
            "ref".into(),
            json!({"type": "ref/prompt", "name": "no_such_prompt"}),
        );
        params.insert("argument".into(), json!({"name": "code", "value": ""}));
    }
    // one retry-capable request in 128 carries input responses, half of them no object
    if RETRIED.contains(method) && r.below(128) == 0 {
        let responses = if r.below(2) == 0 {
            json!("yes")
        } else {
            json!({"mcpdiff.unrequested": {"action": "decline"}})
        };
        params.insert("inputResponses".into(), responses);
    }
    // one request in 128 reports another client
    r.below(128) == 0
}

/// `case`'s `_meta` `clientInfo` naming [`OTHER_CLIENT`] instead of the conformant client
/// (the rendered body holds the conformant `clientInfo` once, spelled as `request_meta`
/// serializes it).
pub(crate) fn foreign_client_info(case: &mut Case) {
    let from = br#""io.modelcontextprotocol/clientInfo":{"name":"mcpdiff""#;
    let Some(at) = case.body.windows(from.len()).position(|w| w == from) else {
        return;
    };
    let name_at = at + from.len() - b"\"mcpdiff\"".len();
    let to = format!("\"{OTHER_CLIENT}\"");
    case.body.splice(name_at..at + from.len(), to.into_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::client::conformant_case;
    use mcpdiff_oracle::fixture;

    #[test]
    fn the_client_info_names_another_client() {
        let s = fixture::surface();
        let mut c = conformant_case(&s, json!(1), "tools/list", json!({}));
        foreign_client_info(&mut c);
        let v: Value = serde_json::from_slice(&c.body).unwrap();
        let info = &v["params"]["_meta"]["io.modelcontextprotocol/clientInfo"];
        assert_eq!(info["name"], json!(OTHER_CLIENT));
        assert!(info["version"].is_string());
    }

    #[test]
    fn each_carrier_is_drawn_and_most_cases_are_left_alone() {
        let (mut completions, mut responses, mut foreign, mut untouched) = (0, 0, 0, 0);
        for i in 0..20_000 {
            let mut m: &'static str = if i % 2 == 0 {
                "prompts/get"
            } else {
                "tools/list"
            };
            let mut p = Map::new();
            p.insert("name".into(), json!("no_such_prompt"));
            let before = (m, p.clone());
            let f = draw(1, i, &mut m, &mut p);
            completions += usize::from(m == "completion/complete");
            responses += usize::from(p.contains_key("inputResponses"));
            foreign += usize::from(f);
            untouched += usize::from((m, &p) == (before.0, &before.1) && !f);
        }
        assert!(completions > 1000 && responses > 20 && foreign > 50);
        assert!(untouched > 15_000);
    }
}
