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
