//! `mcpdiff toolset generate|check` and `serve --tools` on bad input, through the binary.

use std::process::Command;

fn mcpdiff(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(args)
        .output()
        .expect("run mcpdiff");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn generate_then_check_prints_the_oracle_labels() {
    let dir = std::env::temp_dir().join(format!("mcpdiff-toolset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("set.json");
    let path = file.to_str().expect("utf-8 temp path");
    let (code, _, err) = mcpdiff(&[
        "toolset", "generate", "--seed", "4", "--count", "25", "-o", path,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = mcpdiff(&["toolset", "check", path]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("gen_")).count(), 25);
    assert!(out.contains("invalid  {\"reason\":"), "{out}");
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("25 tools: ")),
        "{out}"
    );
    // the same seed gives the same file on stdout
    let (_, stdout_set, _) = mcpdiff(&["toolset", "generate", "--seed", "4", "--count", "25"]);
    assert_eq!(stdout_set, std::fs::read_to_string(&file).expect("written"));

    // a hand-edited label is refused with a one-line error
    let stale = stdout_set.replacen("\"valid\": false", "\"valid\": true", 1);
    std::fs::write(&file, stale).expect("write");
    let (code, _, err) = mcpdiff(&["toolset", "check", path]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("regenerate the file"), "{err}");
    let (code, _, err) = mcpdiff(&["serve", "--port", "0", "--tools", path]);
    assert_eq!(code, 2);
    assert!(err.contains("regenerate the file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_counts_and_missing_files_are_one_line_errors() {
    let (code, _, err) = mcpdiff(&["toolset", "generate", "--count", "0"]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    let (code, _, err) = mcpdiff(&["toolset", "check", "/nonexistent/set.json"]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("mcpdiff toolset generate"), "{err}");
}
