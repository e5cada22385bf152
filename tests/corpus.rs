//! The regression corpus end to end: the format round-trips raw bytes, bad files are named
//! and skipped, oracle drift fails `replay` until `--bless`, the committed corpus replays
//! clean against the in-process reference server, and fuzz inputs import idempotently.

use mcpdiff::corpus::{self, build, load_dir, load_file, save, Entry, Saved};
use mcpdiff_oracle::{fixture, Case};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn mcpdiff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(args)
        .output()
        .expect("run mcpdiff")
}

/// A fresh, empty folder for one test (removed at the end by the test itself).
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mcpdiff-corpus-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn text(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn committed_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// A case no JSON string could hold: non-UTF-8 and control bytes, CR LF inside a value,
/// odd casing and a duplicate field.
fn hostile_case() -> Case {
    let mut c = Case::post(
        "/mcp",
        &[("mcp-METHOD", "tools/list")],
        vec![0xff, 0, b'{', 0xc3],
    );
    c.headers
        .push((b"Mcp-Name".to_vec(), vec![0x80, b'\r', b'\n', b' ', 0x7f]));
    c.headers
        .push((b"mcp-name".to_vec(), b"=?base64?!!?=".to_vec()));
    c.labels.push("planted".into());
    c
}

#[test]
fn round_trip_keeps_every_byte_and_names_files_stably() {
    let dir = scratch("roundtrip");
    let surface = fixture::surface();
    let mut cases: Vec<Case> = build::seed_entries()
        .iter()
        .map(|e| e.request.to_case().expect("seed decodes"))
        .collect();
    cases.push(hostile_case());
    for case in &cases {
        let entry = Entry::new(vec!["SHTTP-EP-POST".into()], "test", case, &surface);
        let (path, how) = save(&dir, &entry).expect("save");
        assert!(matches!(how, Saved::Created | Saved::Unchanged), "{how:?}");
        let back = load_file(&path)
            .expect("load")
            .entry
            .request
            .to_case()
            .expect("decode");
        assert_eq!(&back, case);
        assert_eq!(
            path.file_name().and_then(|n| n.to_str()),
            Some(corpus::file_name("SHTTP-EP-POST", case).as_str())
        );
        // saving the same case again never makes a second file
        assert_eq!(save(&dir, &entry).expect("save again").1, Saved::Unchanged);
    }
    let files = std::fs::read_dir(&dir).expect("list").count();
    let distinct: std::collections::BTreeSet<String> =
        cases.iter().map(corpus::case_hash).collect();
    assert_eq!(files, distinct.len());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_files_are_named_and_the_others_still_run() {
    let dir = scratch("corrupt");
    let seed = &build::seed_entries()[0];
    corpus::store::write(&dir.join("good.json"), seed).expect("write");
    std::fs::write(dir.join("broken.json"), "{ not json").expect("write");
    let mut future = serde_json::to_value(seed).expect("to json");
    future["schema"] = json!("mcpdiff-corpus/9");
    std::fs::write(dir.join("future.json"), future.to_string()).expect("write");
    let mut bad_b64 = serde_json::to_value(seed).expect("to json");
    bad_b64["request"]["body"] = json!({"base64": "%%%"});
    std::fs::write(dir.join("badbytes.json"), bad_b64.to_string()).expect("write");

    let loaded = load_dir(&dir).expect("list");
    let errors: Vec<String> = loaded
        .iter()
        .filter_map(|r| r.as_ref().err().map(|e| e.to_string()))
        .collect();
    assert_eq!(loaded.len(), 4);
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors
        .iter()
        .any(|e| e.contains("broken.json") && e.contains("not JSON")));
    assert!(errors
        .iter()
        .any(|e| e.contains("future.json") && e.contains("unknown schema 'mcpdiff-corpus/9'")));
    assert!(errors
        .iter()
        .any(|e| e.contains("badbytes.json") && e.contains("request.body")));

    let out = mcpdiff(&["replay", dir.to_str().expect("utf-8 path")]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("broken.json") && t.contains("future.json"),
        "{t}"
    );
    assert!(t.contains("replay: 1 case(s), 3 unreadable"), "{t}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn drift_fails_until_blessed() {
    let dir = scratch("drift");
    let seed = &build::seed_entries()[0];
    let path = dir.join(seed.file_name().expect("name"));
    let mut edited = serde_json::to_value(seed).expect("to json");
    let list = edited["verdict"]["expectations"]
        .as_array_mut()
        .expect("expectations");
    list.push(json!({"rule": "SHTTP-ORIGIN-403", "demand": {"OneOf": ["AnyError"]}}));
    std::fs::write(&path, edited.to_string()).expect("write");
    let d = dir.to_str().expect("utf-8 path");

    let out = mcpdiff(&["replay", d]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("DRIFT") && t.contains("SHTTP-ORIGIN-403: no longer triggered"),
        "{t}"
    );

    let out = mcpdiff(&["replay", d, "--bless"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let blessed: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    assert_eq!(blessed["verdict"], seed.verdict);

    let out = mcpdiff(&["replay", d]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn committed_corpus_is_current_and_replays_clean_against_the_reference() {
    let dir = committed_corpus();
    let loaded = load_dir(&dir).expect("corpus/ exists");
    assert!(
        !loaded.is_empty(),
        "corpus/ is empty; run `mcpdiff corpus seed`"
    );
    for l in &loaded {
        let l = l.as_ref().unwrap_or_else(|e| panic!("{e}"));
        let name = l
            .path()
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert_eq!(
            l.expected_name().as_deref(),
            Ok(name),
            "file name is not the case hash"
        );
    }
    let out = mcpdiff(&["replay", dir.to_str().expect("utf-8 path"), "--reference"]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains(&format!(
            "replay: {} case(s), 0 unreadable, 0 drifted",
            loaded.len()
        )),
        "{t}"
    );
    assert!(
        t.contains("0 fixed, 0 still failing, 0 newly failing"),
        "{t}"
    );
}

#[test]
fn fuzz_inputs_import_once_and_run_saves_findings_once() {
    let dir = scratch("import");
    let input = dir.join("crash-0001");
    std::fs::write(&input, [7u8, 1, 200, 3, 99, 0, 5, 17, 42, 250, 9, 9]).expect("write");
    let corpus_dir = dir.join("corpus");
    let (i, c) = (
        input.to_str().expect("utf-8"),
        corpus_dir.to_str().expect("utf-8"),
    );
    let first = mcpdiff(&["corpus", "import", "--dir", c, i]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    assert!(text(&first).contains("Created"), "{}", text(&first));
    let again = mcpdiff(&["corpus", "import", "--dir", c, i]);
    assert!(text(&again).contains("Unchanged"), "{}", text(&again));
    assert_eq!(std::fs::read_dir(&corpus_dir).expect("list").count(), 1);

    // a mutant's shrunk finding lands in the corpus, once however often the run repeats
    let run = |dir: &str| {
        mcpdiff(&[
            "run",
            // the in-process reference and mutant only: no bundled SDK installs in a test
            "--no-bundled",
            "--cases",
            "20",
            "--seed",
            "3",
            "--mutants",
            "origin-unchecked",
            "--quiet",
            "--timeout-ms",
            "300",
            "--shrink-budget",
            "20",
            "--save-corpus",
            dir,
        ])
    };
    let saved = dir.join("saved");
    let s = saved.to_str().expect("utf-8");
    let out = run(s);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let n = std::fs::read_dir(&saved).expect("saved").count();
    assert!(n >= 1, "{}", text(&out));
    // saving the same findings again (what a second run with the same answers does) adds no
    // file and rewrites none; one CLI run only, to keep the suite fast
    let entries: Vec<Entry> = load_dir(&saved)
        .expect("saved")
        .into_iter()
        .map(|l| match l.expect("saved entry loads") {
            corpus::Item::Server(l) => l.entry,
            corpus::Item::Client(c) => panic!("a server run saved a client entry: {c:?}"),
            corpus::Item::Legacy(l) => panic!("save_run saved a legacy entry: {l:?}"),
        })
        .collect();
    assert_eq!(build::save_all(&saved, &entries), Ok((0, 0, n)));
    assert_eq!(std::fs::read_dir(&saved).expect("saved").count(), n);
    std::fs::remove_dir_all(&dir).ok();
}
