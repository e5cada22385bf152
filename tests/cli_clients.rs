//! `run --clients` and `reference-client` refuse bad input with one line and exit 2, before
//! any SDK is installed or started.

use std::process::Command;

fn mcpdiff(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(args)
        .output()
        .expect("mcpdiff runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn unknown_client_target_is_named() {
    let (code, err) = mcpdiff(&["run", "--clients", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no bundled target 'nope'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_bad_tool_set_file_says_what_to_do() {
    let dir = std::env::temp_dir().join(format!("mcpdiff-cli-clients-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"format":"other/1","tools":[]}"#).expect("write");
    let (code, err) = mcpdiff(&["run", "--clients", "--tools", bad.to_str().unwrap_or("")]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.json"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, err) = mcpdiff(&["run", "--clients", "--tools", "/nonexistent/t.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("mcpdiff toolset generate"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reference_client_lists_its_mutants_and_refuses_unknown_ones() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args([
            "reference-client",
            "http://127.0.0.1:9/mcp",
            "x.json",
            "--mutant",
            "list",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("sentinel-plain") && text.contains("CLIENT-MISMATCH-RETRY"),
        "{text}"
    );
    let (code, err) = mcpdiff(&[
        "reference-client",
        "http://127.0.0.1:9/mcp",
        "x.json",
        "--mutant",
        "zzz",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--mutant list"), "{err}");
}
