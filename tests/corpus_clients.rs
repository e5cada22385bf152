//! Client entries of the regression corpus (`mcpdiff-client-corpus/1`) end to end, with no SDK
//! installed: a reference-client mutant run as a client target saves its shrunk findings
//! (`run --clients --save-corpus`, idempotent), they load and re-judge without drift, an
//! edited stored finding is drift until `--bless`, and a bad file is named while the others
//! still run. Traffic goes to 127.0.0.1 only (the recording server).

use mcpdiff::corpus::{self, load_dir, rejudge_client, Item};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn mcpdiff(args: &[&str], targets: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mcpdiff"));
    c.args(args);
    if let Some(t) = targets {
        c.env("MCPDIFF_TARGETS", t);
    }
    c.output().expect("run mcpdiff")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mcpdiff-ccorpus-{}-{name}", std::process::id()));
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

fn committed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(name)
}

/// A targets folder with one client target: the reference client with `mutant` planted.
fn mutant_targets(dir: &Path, mutant: &str) -> PathBuf {
    let targets = dir.join("targets");
    let name = format!("mutant-{mutant}");
    let folder = targets.join(&name);
    std::fs::create_dir_all(&folder).expect("target folder");
    let bin = env!("CARGO_BIN_EXE_mcpdiff");
    let toml = format!(
        "name = \"{name}\"\nkind = \"client\"\n[sdk]\npackage = \"mcpdiff reference-client\"\n\
         version = \"0.1.0\"\nregistry = \"none\"\n[install]\nrequires = []\ncommands = []\n\
         check = \".\"\n[start]\ncommand = \"{bin} reference-client --mutant {mutant} {{url}} \
         {{calls}}\"\nendpoint = \"/mcp\"\n"
    );
    std::fs::write(folder.join("target.toml"), toml).expect("manifest");
    targets
}

#[test]
fn run_saves_client_findings_once_and_they_replay_without_drift() {
    let dir = scratch("roundtrip");
    let targets = mutant_targets(&dir, "sentinel-plain");
    let saved = dir.join("corpus");
    let s = saved.to_str().expect("utf-8");
    // `--no-bundled` keeps the run to the client named in `targets` (no SDK installs)
    let run = || {
        mcpdiff(
            &[
                "run",
                "--clients",
                "--no-bundled",
                "--seed",
                "1",
                "--client-timeout",
                "30",
                "--client-shrink-runs",
                "4",
                "--save-corpus",
                s,
            ],
            Some(&targets),
        )
    };
    let out = run();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let items: Vec<Item> = load_dir(&saved)
        .expect("saved")
        .into_iter()
        .map(|r| r.expect("saved entry loads"))
        .collect();
    assert!(!items.is_empty(), "{}", text(&out));
    let mut shrunk = 0;
    for item in &items {
        let Item::Client(c) = item else {
            panic!("a client-only run saved a server entry")
        };
        assert_eq!(c.entry.rules, vec!["CLIENT-B64-COLLISION".to_string()]);
        assert!(c
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("CLIENT-B64-COLLISION-")));
        assert_eq!(c.entry.clients[0].target, "mutant-sentinel-plain");
        assert_eq!(c.entry.clients[0].requests.len(), 1);
        shrunk += usize::from(c.entry.shrunk);
        for r in rejudge_client(&c.entry).expect("decodes") {
            assert!(r.drift.is_empty(), "{:?}", r.drift);
        }
    }
    assert!(shrunk >= 1, "no shrunk entry saved");
    // the shrunk echo_region case: one tool, one property, the one offending argument
    let echo = items.iter().find_map(|i| match i {
        Item::Client(c) if c.entry.shrunk && c.entry.asked == "tools/call echo_region" => {
            Some(&c.entry)
        }
        _ => None,
    });
    let echo = echo.expect("echo_region shrunk");
    assert_eq!(
        echo.tools[0].definition["inputSchema"]["properties"],
        json!({"region": {"type": "string", "x-mcp-header": "Region"}})
    );
    assert_eq!(
        echo.tools[0].calls[0].arguments,
        Some(json!({"region": "=?base64?literal?="}))
    );

    // a second run records the same (on another port): no file added or rewritten
    let before: Vec<Vec<u8>> = items
        .iter()
        .map(|i| std::fs::read(i.path()).expect("read"))
        .collect();
    let again = run();
    assert!(
        text(&again).contains("0 new, 0 updated"),
        "{}",
        text(&again)
    );
    assert_eq!(
        std::fs::read_dir(&saved).expect("list").count(),
        items.len()
    );
    for (i, b) in items.iter().zip(before) {
        assert_eq!(std::fs::read(i.path()).expect("read"), b);
    }

    let out = mcpdiff(&["replay", s], None);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains(&format!(
            "replay: {} case(s), 0 unreadable, 0 drifted",
            items.len()
        )),
        "{t}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_edited_client_finding_is_drift_until_blessed() {
    let dir = scratch("drift");
    let name = "CLIENT-B64-COLLISION-de0b0bda1008.json";
    let original: Value =
        serde_json::from_slice(&std::fs::read(committed(name)).expect("committed entry"))
            .expect("json");
    let mut edited = original.clone();
    edited["clients"][0]["findings"][0]["allowed"] = json!(["=?base64?bGl0ZXJhbA==?="]);
    // a reworded sentence alone is not drift
    edited["clients"][0]["findings"][0]["detail"] = json!("reworded");
    let path = dir.join(name);
    std::fs::write(&path, edited.to_string()).expect("write");
    let d = dir.to_str().expect("utf-8");

    let out = mcpdiff(&["replay", d], None);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("DRIFT")
            && t.contains("mutant-sentinel-plain: CLIENT-B64-COLLISION: findings changed"),
        "{t}"
    );
    assert_eq!(t.matches("CLIENT-B64-COLLISION: ").count(), 1, "{t}");

    // a stored finding the judge no longer makes, and one it newly makes
    let mut gone = original.clone();
    gone["clients"][0]["findings"] = json!([]);
    std::fs::write(&path, gone.to_string()).expect("write");
    let t = text(&mcpdiff(&["replay", d], None));
    assert!(t.contains("CLIENT-B64-COLLISION: newly found"), "{t}");

    let out = mcpdiff(&["replay", d, "--bless"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("blessed"), "{}", text(&out));
    let blessed: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    assert_eq!(
        blessed["clients"][0]["findings"],
        original["clients"][0]["findings"]
    );
    let out = mcpdiff(&["replay", d], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_client_file_is_named_and_the_others_still_run() {
    let dir = scratch("corrupt");
    let name = "CLIENT-PARAM-NULL-OMIT-34d70a391fb1.json";
    let good: Value =
        serde_json::from_slice(&std::fs::read(committed(name)).expect("committed")).expect("json");
    std::fs::write(dir.join(name), good.to_string()).expect("write");
    let mut bad = good.clone();
    bad["clients"][0]["requests"][0]["headers"][0]["value"] = json!("%%%");
    std::fs::write(dir.join("badbytes.json"), bad.to_string()).expect("write");
    let mut no_rule = good.clone();
    no_rule["clients"][0]["findings"][0]["rule"] = json!("CLIENT-NO-SUCH-RULE");
    // an unknown stored rule is still readable: it is drift, not a broken file
    std::fs::write(dir.join("oldrule.json"), no_rule.to_string()).expect("write");
    std::fs::write(
        dir.join("broken.json"),
        "{\"schema\": \"mcpdiff-client-corpus/1\"",
    )
    .expect("write");

    let out = mcpdiff(&["replay", dir.to_str().expect("utf-8")], None);
    let t = text(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "drift wins over unreadable: {t}"
    );
    assert!(
        t.contains("badbytes.json") && t.contains("clients[0].requests[0].headers[0].value"),
        "{t}"
    );
    assert!(t.contains("broken.json") && t.contains("not JSON"), "{t}");
    assert!(t.contains("CLIENT-NO-SUCH-RULE: no longer found"), "{t}");
    assert!(
        t.contains("replay: 2 case(s), 2 unreadable, 1 drifted"),
        "{t}"
    );

    std::fs::remove_file(dir.join("oldrule.json")).expect("rm");
    let out = mcpdiff(&["replay", dir.to_str().expect("utf-8")], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn committed_client_entries_reproduce_their_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut n = 0;
    for item in load_dir(&dir).expect("corpus/") {
        let Ok(Item::Client(c)) = item else { continue };
        n += 1;
        let rule = &c.entry.rules[0];
        for r in rejudge_client(&c.entry).expect("decodes") {
            assert!(r.drift.is_empty(), "{}: {:?}", c.path.display(), r.drift);
            assert!(
                r.now.iter().any(|f| f["rule"] == json!(rule)),
                "{}: {rule} not found today",
                c.path.display()
            );
        }
        assert_eq!(c.entry.schema, corpus::CLIENT_SCHEMA);
    }
    assert!(n >= 5, "only {n} client entries in corpus/");
}
