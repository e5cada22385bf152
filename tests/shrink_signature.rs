//! A shrink never changes the kind of a failure.
//!
//! The shrinker runs against the pure mutants in process (`respond_mutant`: no sockets, so
//! every mutant's failures on the probes and on generated cases can be shrunk in seconds), and
//! each reproducer is checked against the original with the oracle alone: same rule failing,
//! same signature (`mcpdiff_oracle::signature`), no rule the original did not trigger. The
//! Origin slippage an outside audit found (a served `200` shrunk into a body defect refused
//! with `400`) is reproduced with a rule-only shrinker and shown gone. Last, a saved run of
//! the binary: no finding's reproducer differs in kind from its original observation.

use mcpdiff::report::RunReport;
use mcpdiff::runner::shrink::{self, candidates, settle, ShrinkBudget};
use mcpdiff_oracle::reference::mutants::{ERROR_ID_NULL, ORIGIN_UNCHECKED, RESULT_ID_STRING};
use mcpdiff_oracle::reference::{probes, respond_mutant, to_observation, Mutant, MUTANTS};
use mcpdiff_oracle::rules::{self, RuleId};
use mcpdiff_oracle::signature::{no_new_defects, Signature};
use mcpdiff_oracle::{check, fixture, judge, Case, Observation, Surface};
use mcpdiff_props::gen::CaseGen;
use std::time::Duration;

fn answer(mutant: &Mutant, case: &Case, s: &Surface) -> Observation {
    to_observation(&respond_mutant(mutant, case, s))
}

fn fails(rule: RuleId, case: &Case, obs: &Observation, s: &Surface) -> bool {
    check(&judge(case, s), obs).iter().any(|f| f.rule == rule.0)
}

fn budget(requests: usize) -> ShrinkBudget {
    ShrinkBudget {
        max_requests: requests,
        max_time: Duration::from_secs(5),
        max_time_per_target: Duration::from_secs(60),
        deadline: None,
    }
}

fn shrink_against(
    mutant: &Mutant,
    case: &Case,
    obs: &Observation,
    rule: RuleId,
    s: &Surface,
    requests: usize,
) -> (Case, Observation) {
    let (c, o, _) = futures::executor::block_on(shrink::shrink(
        case.clone(),
        obs.clone(),
        rule,
        s,
        budget(requests),
        |c| {
            let o = answer(mutant, &c, s);
            async move { o }
        },
    ));
    (c, o)
}

/// The oracle's own reading of "the same failure": what the test demands, written without
/// the shrinker's `CaseKeep`.
fn assert_same_failure(
    what: &str,
    rule: RuleId,
    s: &Surface,
    original: (&Case, &Observation),
    shrunk: (&Case, &Observation),
) {
    let (v0, v1) = (judge(original.0, s), judge(shrunk.0, s));
    assert!(
        fails(rule, shrunk.0, shrunk.1, s),
        "{what}: the reproducer no longer fails {}",
        rule.0
    );
    let (k0, k1) = (
        Signature::of(rule, &v0, original.1),
        Signature::of(rule, &v1, shrunk.1),
    );
    assert_eq!(
        k0, k1,
        "{what}: {} changed kind from \"{}\" to \"{}\"",
        rule.0, k0.kind, k1.kind
    );
    let had: Vec<RuleId> = v0.rules().collect();
    let new: Vec<&str> = v1
        .rules()
        .filter(|r| !had.contains(r))
        .map(|r| r.0)
        .collect();
    assert!(new.is_empty(), "{what}: new defects {new:?}");
}

#[test]
fn shrinking_never_changes_signature_against_pure_mutants() {
    let s = fixture::surface();
    let probe_cases: Vec<Case> = probes(&s).into_iter().map(|p| p.case).collect();
    let gen = CaseGen::new(&s);
    let generated: Vec<Case> = (0..24).map(|i| gen.case(7, i)).collect();
    let (mut shrunk, mut smaller) = (0usize, 0usize);
    for m in MUTANTS {
        for case in probe_cases.iter().chain(&generated) {
            let obs = answer(m, case, &s);
            let verdict = judge(case, &s);
            // the mutant's own rule, and whatever else this answer broke
            for f in check(&verdict, &obs).into_iter().take(2) {
                let Some(rule) = verdict.rules().find(|r| r.0 == f.rule) else {
                    continue;
                };
                let (c, o) = shrink_against(m, case, &obs, rule, &s, 30);
                let what = format!("mutant {} on {}", m.name, rule.0);
                assert_same_failure(&what, rule, &s, (case, &obs), (&c, &o));
                shrunk += 1;
                smaller += usize::from(shrink::size(&c) < shrink::size(case));
            }
        }
    }
    eprintln!("shrunk {shrunk}, smaller {smaller}");
    // not vacuous: many failures were shrunk, and many got smaller
    assert!(shrunk > 200, "only {shrunk} shrinks");
    assert!(smaller > shrunk / 4, "{smaller} of {shrunk} got smaller");
}

/// A foreign-Origin request with a conformant body and a header that is noise.
fn origin_case(s: &Surface) -> Case {
    let p = probes(s)
        .into_iter()
        .find(|p| p.rule == rules::ORIGIN_403)
        .expect("an Origin probe");
    let mut c = p.case;
    c.set_header("X-Trace", Some(b"0123456789abcdef0123456789abcdef"));
    c
}

/// The shrinker without the signature check: any candidate that still fails the rule.
fn rule_only_shrink(
    mutant: &Mutant,
    case: &Case,
    rule: RuleId,
    s: &Surface,
) -> (Case, Observation) {
    let mut best = (case.clone(), answer(mutant, case, s));
    for _ in 0..100 {
        let next = candidates(&best.0).into_iter().find_map(|c| {
            let o = answer(mutant, &c, s);
            (judge(&c, s).triggers(rule) && fails(rule, &c, &o, s)).then_some((c, o))
        });
        match next {
            Some(n) => best = n,
            None => break,
        }
    }
    best
}

#[test]
fn origin_finding_served_200_stays_served_200() {
    let s = fixture::surface();
    let case = origin_case(&s);
    let obs = answer(&ORIGIN_UNCHECKED, &case, &s);
    let rule = rules::ORIGIN_403;
    let sig = Signature::of(rule, &judge(&case, &s), &obs);
    assert_eq!(
        sig.kind.to_string(),
        "served, 200, no JSON-RPC error, JSON body"
    );
    // the slippage is real: a shrinker that only asks "still fails the rule?" leaves the
    // served 200 behind (a refused body defect, or a notification's 202)
    let (naive, naive_obs) = rule_only_shrink(&ORIGIN_UNCHECKED, &case, rule, &s);
    let naive_sig = Signature::of(rule, &judge(&naive, &s), &naive_obs);
    assert_ne!(naive_sig, sig, "the rule-only shrinker kept the kind");
    assert!(
        !no_new_defects(&judge(&case, &s), &judge(&naive, &s)),
        "the rule-only shrinker planted no defect"
    );
    // the shrinker keeps the 200 and plants nothing
    let (c, o) = shrink_against(&ORIGIN_UNCHECKED, &case, &obs, rule, &s, 200);
    assert_same_failure("origin-unchecked", rule, &s, (&case, &obs), (&c, &o));
    assert_eq!(
        c.header_values("X-Trace").count(),
        0,
        "the noise header stays"
    );
}

#[test]
fn a_reproducer_of_another_kind_falls_back_to_the_original() {
    let s = fixture::surface();
    let case = origin_case(&s);
    let obs = answer(&ORIGIN_UNCHECKED, &case, &s);
    let (naive, naive_obs) = rule_only_shrink(&ORIGIN_UNCHECKED, &case, rules::ORIGIN_403, &s);
    let (c, o, why) = settle(
        &s,
        rules::ORIGIN_403,
        (&case, &obs),
        (naive.clone(), naive_obs),
    );
    assert_eq!(c, case);
    assert_eq!(o, obs);
    let why = why.expect("a note");
    assert!(why.contains("the original case is the reproducer"), "{why}");
    assert!(why.contains("served, 200"), "{why}");
    // a reproducer of the same kind stands
    let (good, good_obs) =
        shrink_against(&ORIGIN_UNCHECKED, &case, &obs, rules::ORIGIN_403, &s, 200);
    let (c, _, why) = settle(
        &s,
        rules::ORIGIN_403,
        (&case, &obs),
        (good.clone(), good_obs),
    );
    assert_eq!((c, why), (good, None));
}

#[test]
fn no_reproducer_of_a_saved_run_differs_in_kind() {
    let dir = std::env::temp_dir().join(format!("mcpdiff-shrink-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("run.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args([
            "run",
            "--no-bundled",
            "--cases",
            "300",
            "--seed",
            "1",
            "--json",
        ])
        .arg(&path)
        .output()
        .expect("mcpdiff runs");
    assert!(
        out.status.code() == Some(1),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).expect("the run's JSON");
    let _ = std::fs::remove_dir_all(&dir);
    let report: RunReport = serde_json::from_str(&text).expect("mcpdiff-run/1");
    let s = fixture::surface();
    let mut seen = 0;
    for t in &report.targets {
        for f in &t.findings {
            let rule = rules::RULES
                .iter()
                .find(|r| r.id.0 == f.rule)
                .map(|r| r.id)
                .expect("a known rule");
            let what = format!("{} {}", t.name, f.rule);
            let original = f.original_case.as_ref().expect("original case recorded");
            let original_obs = f.original_observation.as_ref().expect("original answer");
            if f.kept_original.is_some() {
                assert_eq!(
                    (&f.case, &f.observation),
                    (original, original_obs),
                    "{what}"
                );
            }
            assert_same_failure(
                &what,
                rule,
                &s,
                (original, original_obs),
                (&f.case, &f.observation),
            );
            assert_eq!(f.kind, f.original_kind, "{what}");
            assert!(!f.original_observed.is_empty(), "{what}");
            for text in [&f.expected, &f.observed, &f.kind, &f.original_observed] {
                assert!(
                    !["Number(", "may_omit", "Exact(", "Echo {", "NoSessionId"]
                        .iter()
                        .any(|d| text.contains(d)),
                    "{what}: debug output in {text:?}"
                );
            }
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} findings");
}

/// What `check` writes for a mutant's own rule on its probes: words, never debug output.
#[test]
fn expectations_of_mutant_findings_read_as_words() {
    let s = fixture::surface();
    let expected_of = |mutant: &Mutant, rule: RuleId| -> Vec<String> {
        probes(&s)
            .iter()
            .flat_map(|p| check(&judge(&p.case, &s), &answer(mutant, &p.case, &s)))
            .filter(|f| f.rule == rule.0)
            .map(|f| f.expected)
            .collect()
    };
    let ids = expected_of(&ERROR_ID_NULL, rules::ERROR_ID);
    assert!(!ids.is_empty());
    for e in &ids {
        assert!(e.starts_with("an error echoing id "), "{e}");
    }
    let results = expected_of(&RESULT_ID_STRING, rules::RESULT_ID);
    assert!(
        results.iter().any(|e| e == "a result echoing id 1"),
        "{results:?}"
    );
    let origin = expected_of(&ORIGIN_UNCHECKED, rules::ORIGIN_403);
    assert!(origin.iter().all(|e| e == "a refusal: 403"), "{origin:?}");
    let debug = [
        "Number(", "String(", "may_omit", "Exact(", "Range(", "Echo", "RpcError", "Lint",
    ];
    for m in MUTANTS {
        for e in expected_of(m, m.rule) {
            assert!(!debug.iter().any(|d| e.contains(d)), "{}: {e}", m.name);
        }
    }
}
