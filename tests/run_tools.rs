//! `run --tools FILE`: the in-process servers publish the tool set's valid tools and are judged clean on
//! it, the report says what each target published; and every installed bundled SDK target
//! loads the set from `MCPDIFF_TOOLS` and publishes every valid tool (skipped, with a
//! message, for targets that are not installed).

use mcpdiff::runner::prepare::prepare;
use mcpdiff::targets::{launch, manifest, TOOLS_ENV};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_props::toolgen::generate_toolset;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn tool_file(tag: &str, count: usize) -> (PathBuf, mcpdiff_oracle::toolset::ToolSet) {
    let dir = std::env::temp_dir().join(format!("mcpdiff-run-tools-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let set = generate_toolset(9, count);
    let file = dir.join("tools.json");
    std::fs::write(&file, set.to_json()).expect("write the tool set");
    (file, set)
}

#[test]
fn run_with_tools_reports_what_each_server_published() {
    let (file, set) = tool_file("cli", 40);
    let json = file.with_file_name("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args([
            "run",
            "--no-bundled",
            "--quiet",
            "--cases",
            "150",
            "--seed",
            "2",
        ])
        .args(["--mutants", "no-base64-decode", "--tools"])
        .arg(&file)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("run mcpdiff");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("tool set: 2"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json written")).expect("json");
    let valid = set.valid_tools().count();
    let invalid = set.tools.len() - valid;
    for t in report["targets"].as_array().expect("targets") {
        let c = &t["toolset"];
        assert_eq!(c["tools"], 40, "{}", t["name"]);
        assert_eq!(c["valid_published"], valid as u64, "{}", t["name"]);
        // the constraints on x-mcp-header values bind the server that writes them
        // (TOOLS-XMCP-CONSTRAINTS): the in-process servers publish the valid tools only
        assert_eq!(
            c["invalid_published"].as_array().map(Vec::len),
            Some(0),
            "{}",
            t["name"]
        );
        assert_eq!(
            c["invalid_refused"].as_array().map(Vec::len),
            Some(invalid),
            "{}",
            t["name"]
        );
        assert_eq!(
            t["surface"]["tools"].as_array().map(Vec::len),
            Some(4 + valid)
        );
    }
    let reference = report["targets"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["name"] == "reference"))
        .expect("the reference server");
    assert_eq!(reference["findings"], serde_json::json!([]), "{reference}");
    let _ = std::fs::remove_dir_all(file.parent().expect("temp dir"));
}

#[tokio::test(flavor = "multi_thread")]
async fn installed_sdk_targets_publish_every_valid_generated_tool() {
    let (file, set) = tool_file("sdk", 30);
    let env = vec![(TOOLS_ENV.to_string(), file.display().to_string())];
    // client targets (kind = "client") are drivers, not servers: they take no tool set
    let all = manifest::of_kind(
        manifest::load_all(&manifest::targets_dir()).expect("manifests"),
        manifest::TargetKind::Server,
    );
    let client = Client::new(Limits::default());
    let mut tested = 0;
    for m in all {
        if !m.installed() {
            eprintln!(
                "skipped: bundled target {} is not installed (mcpdiff targets install {})",
                m.name, m.name
            );
            continue;
        }
        let running = match launch::start_with(&m, &env).await {
            Ok(r) => r,
            Err(e) => panic!("{} did not start with {TOOLS_ENV}: {e}", m.name),
        };
        let prepared = prepare(&m.name, &running.url, &client, &[])
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", m.name));
        let check = set.compare_published(&prepared.target.surface.tools);
        assert!(check.valid_missing.is_empty(), "{}: {check:?}", m.name);
        // an SDK may rewrite an invalid schema into a valid one (fastmcp inlines `$ref`),
        // never a valid one into something else
        assert!(
            check
                .relabelled
                .iter()
                .all(|r| r.file.starts_with("invalid")),
            "{}: {check:?}",
            m.name
        );
        eprintln!("{}: {}", m.name, check.summary());
        tested += 1;
        drop(running);
    }
    eprintln!("{tested} installed SDK target(s) checked");
    let _ = std::fs::remove_dir_all(file.parent().expect("temp dir"));
}
