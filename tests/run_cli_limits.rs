//! `mcpdiff run` and `mcpdiff merge` from the command line, where the status is the point:
//! a target none of whose answers decided anything ends the run with status 2 and one line
//! (its JSON still written); installing a bundled target counts inside `--max-time`; a bad
//! `--shard` is refused in one line, and so is a limit the run would not honour as given
//! (`--timeout-ms 50`, `--rate 0`); `merge` prints the merged review and refuses the
//! reports of different runs.

use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/run-seed1.json");

fn mcpdiff(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mcpdiff"));
    c.args(args);
    c
}

fn text(out: &Output) -> String {
    format!(
        "--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mcpdiff-cli-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A loopback server that reads each request and never answers (for at most `max`
/// connections, each held 5 s): every case is cut by the per-case limit.
fn silent_server(max: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/mcp", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for _ in 0..max {
            let Ok((s, _)) = listener.accept() else {
                return;
            };
            std::thread::spawn(move || hold(s));
        }
    });
    url
}

fn hold(mut s: TcpStream) {
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let mut chunk = [0u8; 8192];
    let _ = s.read(&mut chunk);
    std::thread::sleep(Duration::from_secs(5));
}

#[test]
fn a_target_that_decided_nothing_fails_the_run_and_still_gets_its_json() {
    let dir = temp("silent");
    let json = dir.join("r.json");
    let url = silent_server(200);
    let out = mcpdiff(&["run", &url, "--quiet", "--seed", "1", "--cases", "12"])
        .args(["--no-probes", "--timeout-ms", "300", "--max-time", "30"])
        .arg("--json")
        .arg(&json)
        .output()
        .expect("run mcpdiff");
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.contains("decided anything"))
        .unwrap_or_else(|| panic!("no line says why: {t}"));
    assert!(line.contains(&url) && line.contains("timed out"), "{line}");
    let rep: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON is written"))
            .expect("valid JSON");
    let target = &rep["targets"][0];
    assert_eq!(target["cases"], 12, "{target}");
    assert_eq!(target["undetermined"][0]["reason"], "timed_out", "{target}");
    assert_eq!(target["score"], 0.0, "nothing passed: {target}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A bundled-target folder with one server target whose install takes `install_secs`, then
/// serves the reference server.
fn slow_install_targets(dir: &Path, install_secs: u32) {
    let d = dir.join("slow-install");
    std::fs::create_dir_all(&d).expect("target dir");
    let toml = format!(
        "name = \"slow-install\"\n[sdk]\npackage = \"reference\"\nversion = \"1\"\n\
         registry = \"none\"\n[install]\nrequires = [\"sh\"]\n\
         commands = [\"sleep {install_secs} && touch installed\"]\ncheck = \"installed\"\n\
         [start]\ncommand = \"{} serve --port {{port}}\"\nendpoint = \"/mcp\"\n\
         ready_timeout_secs = 20\n",
        env!("CARGO_BIN_EXE_mcpdiff")
    );
    std::fs::write(d.join("target.toml"), toml).expect("manifest");
}

#[test]
fn installing_a_bundled_target_counts_inside_max_time() {
    let dir = temp("install");
    slow_install_targets(&dir, 4);
    let run = |max_time: &str| {
        mcpdiff(&["run", "--bundled", "slow-install", "--quiet", "--seed", "1"])
            .args(["--cases", "20", "--no-probes", "--max-time", max_time])
            .env("MCPDIFF_TARGETS", &dir)
            .output()
            .expect("run mcpdiff")
    };
    // the install alone takes longer than --max-time: nothing is left to test
    let out = run("3");
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("of --max-time 3 s") && t.contains("nothing"),
        "{t}"
    );
    // installed now: the same run fits
    let out = run("30");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bad_shard_is_refused_in_one_line() {
    let seed = ["--seed", "3"];
    for (bad, says) in [
        ("0/3", "K/N"),
        ("4/3", "K/N"),
        ("x", "K/N"),
        ("2/3", "--seed"),
    ] {
        let with_seed = if bad == "2/3" { &[][..] } else { &seed[..] };
        let out = mcpdiff(&["run", "--no-bundled", "--quiet", "--shard", bad])
            .args(with_seed)
            .output()
            .expect("run mcpdiff");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out));
        assert_eq!(stderr.lines().count(), 1, "{bad}: {stderr}");
        assert!(stderr.contains(says), "{bad}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing ran: {}", text(&out));
    }
}

/// A limit the run would not honour as given (it was raised to a floor, or read as no limit
/// at all) is refused in one line that names the floor, before anything runs.
#[test]
fn a_limit_the_run_would_not_honour_is_refused_in_one_line() {
    for (flag, bad, says) in [
        ("--max-time", "0", "at least 1"),
        ("--timeout-ms", "99", "at least 100"),
        ("--concurrency", "0", "at least 1"),
        ("--client-timeout", "0", "at least 1"),
        ("--rate", "0", "positive"),
        ("--rate", "-3", "positive"),
        ("--rate", "inf", "positive"),
        ("--rate", "NaN", "positive"),
    ] {
        let out = mcpdiff(&["run", "--no-bundled", "--quiet", "--seed", "1"])
            .arg(format!("{flag}={bad}"))
            .output()
            .expect("run mcpdiff");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {bad}: {}", text(&out));
        assert_eq!(stderr.lines().count(), 1, "{flag} {bad}: {stderr}");
        assert!(stderr.contains(flag) && stderr.contains(says), "{stderr}");
        assert!(out.stdout.is_empty(), "nothing ran: {}", text(&out));
    }
    let out = mcpdiff(&["replay", "--timeout-ms", "50"])
        .output()
        .expect("run mcpdiff");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr.contains("--timeout-ms must be at least 100"),
        "{stderr}"
    );
}

#[test]
fn merge_prints_the_review_and_refuses_other_runs() {
    let dir = temp("merge");
    // a whole run merges into itself
    let merged = dir.join("m.json");
    let out = mcpdiff(&["merge", FIXTURE, "--json"])
        .arg(&merged)
        .output()
        .expect("run mcpdiff");
    let t = text(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the fixture has MUST findings: {t}"
    );
    assert!(t.contains("### 1. Revision"), "{t}");
    let rep: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&merged).expect("written")).expect("JSON");
    assert_eq!(rep["seed"], 1);
    // the fixture and a copy with another seed are not shards of one run
    let fixture: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(FIXTURE).expect("fixture")).expect("JSON");
    let mut other = fixture.clone();
    other["seed"] = 2.into();
    other["shard"] = serde_json::json!({"index": 2, "count": 2});
    let mut first = fixture;
    first["shard"] = serde_json::json!({"index": 1, "count": 2});
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    std::fs::write(&a, first.to_string()).expect("write");
    std::fs::write(&b, other.to_string()).expect("write");
    let out = mcpdiff(&["merge"]).arg(&a).arg(&b).output().expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("same --seed"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}
