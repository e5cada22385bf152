//! `--sarif`: the log of a real run (the in-process reference server and every mutant,
//! through the library as `tests/pipeline.rs` does) validates against the official SARIF
//! 2.1.0 schema, and carries what GitHub code scanning needs of each result: a physical
//! location, a rule reference that resolves, and a fingerprint that does not change between
//! runs with the same outcome.
//!
//! The schema (SARIF 2.1.0 rtm.5, JSON Schema draft-04) is fetched from the npm registry by
//! `.ci/sarif-schema.sh`, which `.ci/run` calls before the tests; see `validator`.

use mcpdiff::baseline::Baseline;
use mcpdiff::pipeline::{self, Settings, StartOptions};
use mcpdiff::report::sarif::{self, Subject};
use mcpdiff::report::RunReport;
use mcpdiff::runner::Progress;
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::mutants::MUTANTS;
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Duration;

/// Where `.ci/sarif-schema.sh` puts the SARIF 2.1.0 schema (`MCPDIFF_SARIF_SCHEMA` overrides).
const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/target/sarif-schema/package/lib/schemas/sarif-2.1.0-rtm.5.json"
);

struct Quiet;
impl Progress for Quiet {}
impl pipeline::Events for Quiet {
    fn line(&self, _: &str) {}
}

/// One run of the in-process reference server and `mutants`, as its report.
async fn run(mutants: &[String], cases: u64, seed: u64) -> RunReport {
    let mutants = mutants.to_vec();
    let served = fixture::surface();
    let plan = pipeline::plan(&[], None, false, Some(&mutants), None);
    let opts = StartOptions {
        mutants: Some(&mutants),
        served_surface: &served,
        target_env: &[],
        has_user_urls: false,
    };
    let started = pipeline::start(&plan, &opts, &|_| {})
        .await
        .expect("in-process servers start");
    let settings = Settings {
        max_time: Duration::from_secs(150),
        ..Settings::new(Client::new(Limits::default()), cases, seed)
    };
    let never = std::future::pending::<()>();
    let specs = started.specs.clone();
    let matrix = pipeline::run_matrix(&specs, &settings, &Quiet, never)
        .await
        .expect("not interrupted");
    started.stop().await;
    matrix.report(&Baseline::default(), &settings.client)
}

fn locate(s: Subject) -> String {
    sarif::default_location(s)
}

/// The SARIF 2.1.0 schema is the OASIS committee's file, not kept in this repository:
/// `.ci/sarif-schema.sh` fetches it from the npm registry (a pinned package that ships it).
/// Under CI (`CI` set) a missing schema fails the test; elsewhere the schema check is skipped
/// with a note saying how to enable it, and every other assertion still runs.
fn validator() -> Option<jsonschema::Validator> {
    let path = std::env::var("MCPDIFF_SARIF_SCHEMA").unwrap_or_else(|_| SCHEMA.to_string());
    let Ok(text) = std::fs::read_to_string(&path) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no SARIF schema at {path}: run .ci/sarif-schema.sh first"
        );
        eprintln!("SARIF schema check skipped: no {path} (run .ci/sarif-schema.sh)");
        return None;
    };
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    let v = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles");
    Some(v)
}

fn schema_errors(v: &Option<jsonschema::Validator>, log: &Value) -> Vec<String> {
    let Some(v) = v else { return Vec::new() };
    v.iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect()
}

/// (target, fingerprint) of every result.
fn fingerprints(log: &Value) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for run in log["runs"].as_array().expect("runs") {
        for r in run["results"].as_array().expect("results") {
            out.insert((
                r["properties"]["target"].as_str().unwrap_or("").to_string(),
                r["partialFingerprints"][sarif::FINGERPRINT_KEY]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            ));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_with_every_mutant_writes_valid_sarif_with_locations_and_fingerprints() {
    let all: Vec<String> = MUTANTS.iter().map(|m| m.name.to_string()).collect();
    let rep = run(&all, 100, 5).await;
    let text = sarif::render(&rep, &locate);
    let log: Value = serde_json::from_str(&text).expect("SARIF is JSON");
    let v = validator();
    let errors = schema_errors(&v, &log);
    assert!(
        errors.is_empty(),
        "{} schema errors: {errors:#?}",
        errors.len()
    );

    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), rep.targets.len(), "one SARIF run per target");
    let mut results = 0;
    let mut levels = BTreeSet::new();
    for (run, t) in runs.iter().zip(&rep.targets) {
        assert_eq!(
            run["automationDetails"]["id"],
            format!("mcpdiff/{}/", sarif::segment(&t.name))
        );
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        let found = run["results"].as_array().expect("results");
        assert_eq!(found.len(), t.findings.len(), "{}", t.name);
        for r in found {
            results += 1;
            let i = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[i]["id"], r["ruleId"], "{}: {r}", t.name);
            let uri = &r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
            assert_eq!(
                uri.as_str(),
                Some(format!("mcpdiff/{}.mcp", sarif::segment(&t.name)).as_str())
            );
            let fp = r["partialFingerprints"][sarif::FINGERPRINT_KEY]
                .as_str()
                .expect("fingerprint");
            assert_eq!(fp.len(), 16);
            assert!(r["properties"]["reproducer"]
                .as_str()
                .is_some_and(|c| !c.is_empty()));
            levels.insert(r["level"].as_str().expect("level").to_string());
        }
        // rule descriptors: only the rules that failed, each once
        let ids: BTreeSet<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
        assert_eq!(ids.len(), rules.len(), "{}", t.name);
    }
    let reference = &runs[0];
    assert_eq!(rep.targets[0].name, "reference");
    assert_eq!(reference["results"].as_array().map(Vec::len), Some(0));
    eprintln!(
        "sarif: {} runs, {results} results, levels {levels:?}",
        runs.len()
    );
    assert!(results >= 40, "mutants break rules: {results} results");
    assert!(levels.contains("error") && levels.contains("warning"));

    // the schema check can fail: a result without its message is refused
    let mut broken = log.clone();
    let victim = broken["runs"]
        .as_array_mut()
        .and_then(|runs| runs.iter_mut().find(|r| r["results"][0].is_object()))
        .expect("a run with a result");
    victim["results"][0]
        .as_object_mut()
        .expect("result")
        .remove("message");
    assert!(v.is_none() || !schema_errors(&v, &broken).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fingerprints_do_not_change_between_runs_with_the_same_outcome() {
    let mutants: Vec<String> = pipeline::DEFAULT_MUTANTS
        .iter()
        .map(|m| m.to_string())
        .collect();
    let first = run(&mutants, 150, 9).await;
    let second = run(&mutants, 150, 9).await;
    // the in-process servers listened on new ports: the URLs differ, the fingerprints not
    assert_ne!(first.targets[1].url, second.targets[1].url);
    let a: Value = serde_json::from_str(&sarif::render(&first, &locate)).expect("JSON");
    let b: Value = serde_json::from_str(&sarif::render(&second, &locate)).expect("JSON");
    let (fa, fb) = (fingerprints(&a), fingerprints(&b));
    assert!(!fa.is_empty());
    assert_eq!(fa, fb);
}

#[test]
fn mcpdiff_report_writes_sarif_for_a_saved_run() {
    let dir = std::env::temp_dir().join(format!("mcpdiff-sarif-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let out_path = dir.join("r.sarif");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/run-seed1.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["report", fixture, "--sarif"])
        .arg(&out_path)
        .args(["--sarif-location", "tests/mcp-endpoint.txt"])
        .output()
        .expect("mcpdiff report runs");
    let shown = String::from_utf8_lossy(&out.stderr).to_string();
    // the fixture holds MUST findings: exit 1, and the file is written all the same
    assert_eq!(out.status.code(), Some(1), "{shown}");
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_path).expect("written")).expect("JSON");
    let errors = schema_errors(&validator(), &log);
    assert!(errors.is_empty(), "{errors:#?}");
    let results: Vec<&Value> = log["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .flat_map(|r| r["results"].as_array().into_iter().flatten())
        .collect();
    assert!(!results.is_empty());
    for r in results {
        assert_eq!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "tests/mcp-endpoint.txt"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A targets folder with client targets: the reference client with one mutant planted each
/// (as `tests/corpus_clients.rs` makes them; no SDK is installed).
fn client_targets(dir: &std::path::Path, mutants: &[&str]) -> std::path::PathBuf {
    let targets = dir.join("targets");
    let bin = env!("CARGO_BIN_EXE_mcpdiff");
    for mutant in mutants {
        let name = format!("mutant-{mutant}");
        let folder = targets.join(&name);
        std::fs::create_dir_all(&folder).expect("target folder");
        let toml = format!(
            "name = \"{name}\"\nkind = \"client\"\n[sdk]\npackage = \"mcpdiff reference-client\"\n\
             version = \"0.1.0\"\nregistry = \"none\"\n[install]\nrequires = []\ncommands = []\n\
             check = \".\"\n[start]\ncommand = \"{bin} reference-client --mutant {mutant} {{url}} \
             {{calls}}\"\nendpoint = \"/mcp\"\n"
        );
        std::fs::write(folder.join("target.toml"), toml).expect("manifest");
    }
    targets
}

#[test]
fn client_targets_get_their_own_runs_and_valid_results() {
    let dir = std::env::temp_dir().join(format!("mcpdiff-sarif-clients-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let targets = client_targets(&dir, &["sentinel-plain", "no-mcp-name"]);
    let out_path = dir.join("clients.sarif");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .env("MCPDIFF_TARGETS", &targets)
        .args([
            "run",
            "--clients",
            "--no-bundled",
            "--seed",
            "1",
            "--client-timeout",
            "30",
            "--client-shrink-runs",
            "2",
            "--quiet",
            "--sarif",
        ])
        .arg(&out_path)
        .output()
        .expect("mcpdiff run");
    let shown =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_path).expect("written")).expect("JSON");
    let errors = schema_errors(&validator(), &log);
    assert!(errors.is_empty(), "{errors:#?}");
    let runs = log["runs"].as_array().expect("runs");
    let ids: Vec<&str> = runs
        .iter()
        .filter_map(|r| r["automationDetails"]["id"].as_str())
        .collect();
    assert!(
        ids.contains(&"mcpdiff/client-mutant-sentinel-plain/"),
        "{ids:?}"
    );
    assert!(
        ids.contains(&"mcpdiff/client-mutant-no-mcp-name/"),
        "{ids:?}"
    );
    let mut rules_seen = BTreeSet::new();
    for run in runs {
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        for r in run["results"].as_array().expect("results") {
            let i = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[i]["id"], r["ruleId"]);
            assert!(r["partialFingerprints"][sarif::FINGERPRINT_KEY].is_string());
            assert!(
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("mcpdiff/client-mutant-"))
            );
            rules_seen.insert(r["ruleId"].as_str().unwrap_or("").to_string());
        }
    }
    assert!(
        rules_seen.contains("CLIENT-B64-COLLISION"),
        "{rules_seen:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A saved run with both revisions (`tests/data/run-revisions.json`: a dual-era server with
/// a legacy mutant, a 2025-11-25-only one): its 2025-11-25 findings are results too, under
/// their `L-*` descriptors in the target's one run, and the log still validates.
#[test]
fn legacy_findings_are_results_under_their_own_rules() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/run-revisions.json"
    ))
    .expect("fixture present");
    let rep: RunReport = serde_json::from_str(&text).expect("an mcpdiff-run/1 report");
    let log: Value = serde_json::from_str(&sarif::render(&rep, &locate)).expect("JSON");
    let errors = schema_errors(&validator(), &log);
    assert!(errors.is_empty(), "{errors:#?}");
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), rep.targets.len(), "one run per target");
    let mut legacy = 0;
    for run in runs {
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        for r in run["results"].as_array().expect("results") {
            let id = r["ruleId"].as_str().expect("ruleId");
            let i = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[i]["id"], id, "the rule index resolves");
            if id.starts_with("L-") {
                legacy += 1;
                assert_eq!(r["properties"]["specRevision"], "2025-11-25");
                assert_eq!(rules[i]["properties"]["specRevision"], "2025-11-25");
                assert!(rules[i]["help"]["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("Spec: MCP 2025-11-25")));
            }
        }
        let revs = run["properties"]["revisions"]
            .as_array()
            .expect("revisions");
        assert_eq!(revs.len(), 2);
    }
    // exactly the legacy mutant's rule, on the one target that carries it
    let expected: usize = rep
        .targets
        .iter()
        .map(|t| mcpdiff::report::legacy_view::legacy_rules(t).len())
        .sum();
    assert_eq!((legacy, expected), (1, 1));
}
