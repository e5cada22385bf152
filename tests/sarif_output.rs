//! `--sarif`: the log of a real run (the in-process reference server and every mutant,
//! through the library as `tests/pipeline.rs` does) validates against the official SARIF
//! 2.1.0 schema, and carries what GitHub code scanning needs of each result: a physical
//! location, a rule reference that resolves, and a fingerprint that does not change between
//! runs with the same outcome.
//!
//! The schema, `tests/data/sarif-schema-2.1.0.json`, is the OASIS SARIF 2.1.0 errata01 schema
//! (`Schemata/sarif-schema-2.1.0.json` in the oasis-tcs/sarif-spec repository, the file its
//! `id` names), vendored unchanged: see `tests/data/sarif-schema-2.1.0.ORIGIN.md`.

use mcpdiff::baseline::Baseline;
use mcpdiff::pipeline::{self, Settings, StartOptions};
use mcpdiff::report::json::{FindingReport, TargetReport};
use mcpdiff::report::{sarif, RunReport};
use mcpdiff::runner::Progress;
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::reference::mutants::MUTANTS;
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Duration;

const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/sarif-schema-2.1.0.json"
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
        client: Client::new(Limits::default()),
        allow_tools: Vec::new(),
        toolset: None,
        cases,
        seed,
        rate: None,
        concurrency: 8,
        shrink_budget: 60,
        probes: true,
        max_time: Duration::from_secs(150),
        clients_after: false,
        shard: Default::default(),
    };
    let never = std::future::pending::<()>();
    let specs = started.specs.clone();
    let matrix = pipeline::run_matrix(&specs, &settings, &Quiet, never)
        .await
        .expect("not interrupted");
    started.stop().await;
    matrix.report(&Baseline::default(), &settings.client)
}

fn locate(t: &TargetReport, _: &FindingReport) -> String {
    sarif::default_location(t)
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(SCHEMA).expect("the vendored schema");
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

fn schema_errors(v: &jsonschema::Validator, log: &Value) -> Vec<String> {
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
    assert!(!schema_errors(&v, &broken).is_empty());
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
