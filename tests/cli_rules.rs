//! `mcpdiff rules` as a user runs it: the built binary, its JSON output, the filters, and a
//! reader that closes the pipe early.

use std::io::Read;
use std::process::{Command, Stdio};

fn mcpdiff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
}

#[test]
fn rules_json_lists_the_table() {
    let out = mcpdiff()
        .args(["rules", "--json"])
        .output()
        .expect("run mcpdiff");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let rules = v.as_array().expect("a JSON array");
    assert!(rules.len() > 40, "only {} rules", rules.len());
    for r in rules {
        for key in ["id", "level", "spec", "sentence"] {
            let s = r[key]
                .as_str()
                .unwrap_or_else(|| panic!("{key} missing or not a string in {r}"));
            assert!(!s.is_empty(), "{key} empty in {r}");
        }
        assert!(
            r["spec"].as_str().is_some_and(|s| s.contains(".mdx#")),
            "spec is file#section: {r}"
        );
    }
    assert!(rules
        .iter()
        .any(|r| r["id"] == "SHTTP-HDR-ERR-32020" && r["level"] == "MUST"));
}

#[test]
fn rules_level_and_id_filters() {
    let out = mcpdiff()
        .args(["rules", "--json", "--level", "may"])
        .output()
        .expect("run mcpdiff");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let rules = v.as_array().expect("a JSON array");
    assert!(!rules.is_empty());
    assert!(rules.iter().all(|r| r["level"] == "MAY"));

    let out = mcpdiff()
        .args(["rules", "--id", "shttp-origin-403"])
        .output()
        .expect("run mcpdiff");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("SHTTP-ORIGIN-403") && text.contains("403 Forbidden"),
        "{text}"
    );

    let out = mcpdiff()
        .args(["rules", "--id", "NO-SUCH-RULE"])
        .output()
        .expect("run mcpdiff");
    assert!(!out.status.success());
}

#[test]
fn rules_survives_a_closed_pipe() {
    let mut child = mcpdiff()
        // The JSON form is larger than a pipe buffer, so the writer meets the closed pipe.
        .args(["rules", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcpdiff");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let out = child.wait_with_output().expect("wait for mcpdiff");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
}

#[test]
fn rules_coverage_json_lists_every_judged_rule_isolated() {
    let out = mcpdiff()
        .args(["rules", "--coverage", "--json"])
        .output()
        .expect("run mcpdiff");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let rules = v["rules"].as_array().expect("a rules array");
    assert_eq!(rules.len(), mcpdiff_oracle::rules::JUDGED_IDS.len());
    for r in rules {
        assert!(r["probes"].as_u64().is_some_and(|n| n > 0), "{r}");
        assert!(
            r["generated_per_1000"].as_f64().is_some_and(|n| n > 0.0),
            "{r}"
        );
    }
}

/// `--coverage` ends with the surface summary: per revision and keyword family, judged /
/// observable but not judged / not observable, in the text and under `surface` in the JSON,
/// agreeing with the tables.
#[test]
fn rules_coverage_summarises_the_surface_per_revision_and_family() {
    use mcpdiff_oracle::rules::{all_rules, NOT_OBSERVABLE};
    let out = mcpdiff()
        .args(["rules", "--coverage", "--json"])
        .output()
        .expect("run mcpdiff");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let surface = v["surface"].as_array().expect("a surface array");
    let revisions: Vec<&str> = surface
        .iter()
        .filter_map(|s| s["revision"].as_str())
        .collect();
    assert_eq!(revisions, ["2026-07-28", "2025-11-25"]);
    let mut judged = 0;
    let mut listed = 0;
    for s in surface {
        let families: Vec<&str> = s["families"]
            .as_array()
            .expect("families")
            .iter()
            .filter_map(|f| f["family"].as_str())
            .collect();
        assert_eq!(families, ["MUST", "SHOULD", "MAY"]);
        for f in s["families"].as_array().expect("families") {
            judged += f["judged"].as_u64().unwrap_or(0);
            listed += f["not_observable"].as_array().map_or(0, Vec::len);
        }
    }
    let keyworded_judged = all_rules()
        .filter(|r| r.judged && r.level != mcpdiff_oracle::rules::Level::Observation)
        .count();
    assert_eq!(judged as usize, keyworded_judged);
    assert!(listed <= NOT_OBSERVABLE.len());

    let out = mcpdiff()
        .args(["rules", "--coverage"])
        .output()
        .expect("run mcpdiff");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Server surface"), "{text}");
    assert!(
        text.contains("2026-07-28: observable but not judged"),
        "{text}"
    );
    assert!(
        text.contains("2025-11-25: not observable over HTTP"),
        "{text}"
    );
}
