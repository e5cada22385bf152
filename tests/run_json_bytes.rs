//! Run reports write a case's header names, values and body as strings (UTF-8) or
//! `{"base64": ...}` (docs/run-json.md, Bytes), and still read reports written before, whose
//! bytes are arrays of numbers: `tests/data/run-seed1.json` is such a report.

use mcpdiff::report::{markdown, RunReport};
use serde_json::Value;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/run-seed1.json");

#[test]
fn an_old_report_reads_and_is_written_again_with_text_bytes() {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture");
    let raw: Value = serde_json::from_str(&text).expect("JSON");
    let first = raw["targets"]
        .as_array()
        .and_then(|ts| ts.iter().find_map(|t| t["findings"].get(0)))
        .expect("a finding");
    // the fixture predates text bytes: a header name is an array of numbers there
    assert!(
        first["case"]["headers"][0][0].is_array(),
        "{}",
        first["case"]
    );

    let old: RunReport = serde_json::from_str(&text).expect("the old form reads");
    let written = serde_json::to_value(&old).expect("serializes");
    let case = written["targets"]
        .as_array()
        .and_then(|ts| ts.iter().find_map(|t| t["findings"].get(0)))
        .map(|f| f["case"].clone())
        .expect("a finding");
    assert!(case["headers"][0][0].is_string(), "{case}");
    assert!(case["headers"][0][1].is_string(), "{case}");
    assert!(case["body"].is_string() || case["body"]["base64"].is_string());

    let again: RunReport = serde_json::from_value(written).expect("the new form reads");
    assert_eq!(markdown::render(&again), markdown::render(&old));
    let cases = |r: &RunReport| -> Vec<mcpdiff_oracle::Case> {
        r.targets
            .iter()
            .flat_map(|t| t.findings.iter().map(|f| f.case.clone()))
            .collect()
    };
    assert_eq!(cases(&again), cases(&old));
}
