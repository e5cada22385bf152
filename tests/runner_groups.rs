//! Case-stream groups end to end, in process (no network): targets whose surfaces differ in
//! details outside the case-stream key, or by one tool, share one case stream; each target is
//! judged against its own surface; a disagreement between clean targets is reported even
//! when a third target broke a rule on the same case.

use mcpdiff::runner::disagree::answer_class;
use mcpdiff::runner::{
    self, shrink::ShrinkBudget, CaseSource, Generator, PropsGenerator, Quiet, RunConfig, RunResult,
    Sender, Target,
};
use mcpdiff_oracle::reference::{null_response, respond, to_observation, Response};
use mcpdiff_oracle::{check, fixture, judge, Case, Observation, Surface};
use mcpdiff_props::gen::CaseGen;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Answerer = Arc<dyn Fn(&Case) -> Observation + Send + Sync>;

/// An in-process target: answers with a function and remembers every case it was sent.
#[derive(Clone)]
struct Fake {
    answer: Answerer,
    seen: Arc<Mutex<Vec<Case>>>,
}

impl Sender for Fake {
    async fn send(&self, case: Case) -> Observation {
        self.send_ref(&case).await
    }

    async fn send_ref(&self, case: &Case) -> Observation {
        self.seen.lock().expect("not poisoned").push(case.clone());
        (self.answer)(case)
    }
}

fn target(name: &str, surface: Surface, answer: Answerer) -> Target<Fake> {
    Target {
        name: name.into(),
        url: format!("inproc://{name}"),
        sender: Fake {
            answer,
            seen: Arc::default(),
        },
        gen_surface: surface.clone(),
        surface,
        notes: Vec::new(),
    }
}

/// The reference server declaring `surface` (so it is conformant to its own surface).
fn reference(name: &str, surface: Surface) -> Target<Fake> {
    let s = surface.clone();
    target(
        name,
        surface,
        Arc::new(move |c| to_observation(&respond(c, &s))),
    )
}

fn config(cases: u64) -> RunConfig {
    RunConfig {
        // one case at a time: every target sees the cases in run order
        concurrency: 1,
        shrink: ShrinkBudget {
            max_requests: 20,
            max_time: Duration::from_secs(2),
            max_time_per_target: Duration::from_secs(5),
            deadline: None,
        },
        ..RunConfig::new(cases, 11, Duration::from_secs(60))
    }
}

async fn run_with<G: Generator>(targets: &[Target<Fake>], gen: &G, cases: u64) -> RunResult {
    let copies = targets
        .iter()
        .map(|t| Target {
            name: t.name.clone(),
            url: t.url.clone(),
            sender: t.sender.clone(),
            surface: t.surface.clone(),
            gen_surface: t.gen_surface.clone(),
            notes: Vec::new(),
        })
        .collect();
    runner::run(copies, gen, &config(cases), &Quiet).await
}

fn seen(t: &Target<Fake>) -> Vec<Case> {
    t.sender.seen.lock().expect("not poisoned").clone()
}

fn findings(r: &RunResult, name: &str) -> Vec<String> {
    let t = r.targets.iter().find(|t| t.name == name).expect("target");
    t.findings.iter().map(|f| f.rule.0.to_string()).collect()
}

#[tokio::test]
async fn surfaces_differing_in_details_share_one_case_stream() {
    let mut detailed = fixture::surface();
    detailed.capabilities.logging = !detailed.capabilities.logging;
    detailed.supported_versions.push("2025-06-18".into());
    if let Some(schema) = detailed.tools[0].input_schema.as_object_mut() {
        schema.insert(
            "$schema".into(),
            json!("http://json-schema.org/draft-07/schema#"),
        );
    }
    assert_ne!(detailed, fixture::surface());
    let targets = [
        reference("plain", fixture::surface()),
        reference("detailed", detailed),
    ];
    let r = run_with(&targets, &PropsGenerator::default(), 200).await;
    let (a, b) = (seen(&targets[0]), seen(&targets[1]));
    assert!(a.len() >= 200, "plain got {} cases", a.len());
    // one stream: the same cases in the same order (shrinking sends nothing: no findings)
    assert_eq!(a, b);
    assert!(
        findings(&r, "plain").is_empty(),
        "{:?}",
        findings(&r, "plain")
    );
    assert!(findings(&r, "detailed").is_empty());
}

#[tokio::test]
async fn a_target_lacking_a_tool_is_judged_against_its_own_surface() {
    let full = fixture::surface();
    // the annotated tool: a call of it with a mismatching `Mcp-Param-*` header must be
    // refused by a server that declares it, not by one that does not
    let missing = fixture::HEADER_TOOL.to_string();
    let mut lacking = full.clone();
    lacking.tools.retain(|t| t.name != missing);
    let targets = [reference("lacking", lacking), reference("full", full)];
    let r = run_with(&targets, &PropsGenerator::default(), 300).await;
    let (a, b) = (seen(&targets[0]), seen(&targets[1]));
    assert_eq!(a, b, "one case stream for both");
    let calls_missing = a
        .iter()
        .filter(|c| {
            let body: Value = serde_json::from_slice(&c.body).unwrap_or_default();
            body["method"] == "tools/call" && body["params"]["name"] == missing.as_str()
        })
        .count();
    assert!(
        calls_missing > 0,
        "the stream calls the tool 'lacking' has not"
    );
    // judged against the full surface, its answers to the header cases would be findings
    assert!(
        findings(&r, "lacking").is_empty(),
        "{:?}",
        findings(&r, "lacking")
    );
    assert!(findings(&r, "full").is_empty());
    // the calls of the missing tool held the two to different verdicts: not compared
    assert_eq!(r.disagreement_total, 0, "{:?}", r.disagreements);
}

/// Always the same case.
struct Fixed(Case);

impl CaseSource for Fixed {
    fn case(&self, _seed: u64, _index: u64) -> Case {
        self.0.clone()
    }
}

impl Generator for Fixed {
    type Source = Fixed;
    fn for_surface(&self, _surface: &Surface) -> Fixed {
        Fixed(self.0.clone())
    }
}

/// A generated case and an answer the oracle allows on it, in another class than the
/// reference server's answer.
fn allowed_alternative(surface: &Surface) -> (Case, Observation) {
    let gen = CaseGen::new(surface);
    for i in 0..5000 {
        let case = gen.case(1, i);
        let verdict = judge(&case, surface);
        let canonical = to_observation(&respond(&case, surface));
        let id = serde_json::from_slice::<Value>(&case.body)
            .ok()
            .and_then(|b| b.get("id").cloned())
            .unwrap_or(Value::Null);
        let error = |status, code: i64| {
            Response::json(
                status,
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": "no"}}),
            )
        };
        let alternatives = [
            Response::empty(400),
            Response::empty(404),
            Response::empty(406),
            Response::empty(415),
            error(400, -32600),
            error(400, -32602),
            error(200, -32601),
            error(404, -32601),
        ];
        for alt in alternatives {
            let obs = to_observation(&alt);
            if check(&verdict, &obs).is_empty() && answer_class(&obs) != answer_class(&canonical) {
                return (case, obs);
            }
        }
    }
    panic!("no case with two allowed answer classes in 5000 generated cases");
}

#[tokio::test]
async fn clean_targets_disagree_even_beside_a_target_with_a_finding() {
    let surface = fixture::surface();
    let (case, alt) = allowed_alternative(&surface);
    let targets = [
        reference("ref", surface.clone()),
        target("alt", surface.clone(), Arc::new(move |_| alt.clone())),
        target(
            "broken",
            surface.clone(),
            Arc::new(|c| to_observation(&null_response(c))),
        ),
        reference("mutant:quiet", surface),
    ];
    let r = run_with(&targets, &Fixed(case), 3).await;
    assert!(
        !findings(&r, "broken").is_empty(),
        "the null server breaks rules"
    );
    assert!(findings(&r, "ref").is_empty() && findings(&r, "alt").is_empty());
    assert_eq!(r.disagreement_total, 3, "{:?}", r.disagreements);
    // one kept per pattern of answers: the lowest case index
    assert_eq!(r.disagreements.len(), 1);
    let d = &r.disagreements[0];
    assert_eq!(d.case_index, 0);
    let names: Vec<&str> = d.answers.keys().map(String::as_str).collect();
    // the target with a finding and the mutant are not compared
    assert_eq!(names, ["alt", "ref"]);
}
