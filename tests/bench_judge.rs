//! `mcpdiff bench judge` as `benches/side_by_side.sh` and docs/PERFORMANCE.md run it: one
//! `key=value` line, and `--cases` choosing how many of the runner's cases go round.

use std::process::Command;

fn bench_judge(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["bench", "judge", "--secs", "0.2", "--rounds", "1"])
        .args(args)
        .output()
        .expect("run mcpdiff")
}

/// The value of `key` in the one `key=value` line.
fn field(line: &str, key: &str) -> u64 {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
        .parse()
        .unwrap_or_else(|e| panic!("{key} in {line}: {e}"))
}

#[test]
fn a_few_cases_go_round_whole() {
    let out = bench_judge(&["--cases", "3"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(field(&line, "cases"), 3, "{line}");
    // every pass judges all the cases, so the count is whole passes of three
    let judged = field(&line, "verdicts");
    assert!(judged >= 3 && judged.is_multiple_of(3), "{line}");
    assert!(field(&line, "verdicts_per_second") > 0, "{line}");
}

#[test]
fn no_cases_is_refused_with_a_usage_error() {
    let out = bench_judge(&["--cases", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--cases"), "{err}");
}
