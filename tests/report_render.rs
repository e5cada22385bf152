//! The report renderers (Markdown review, JUnit, HTML; the commands that write them from a
//! saved run are tested in `report_commands.rs`). Reports come from two places:
//! `tests/data/run-seed1.json`, a real run saved with `mcpdiff run --cases 300 --seed 1 --json`
//! (reference server + four mutants), and a small hand-built report full of hostile strings.

use mcpdiff::report::json::{
    DisagreementReport, FindingReport, NotObserved, Stats, SurfaceSummary, TargetReport,
};
use mcpdiff::report::{html, junit, markdown, revisions, terminal, RunReport};
use mcpdiff_oracle::{Body, Case, HttpAnswer, Level, Observation, RuleId};
use quick_xml::events::Event;
use std::collections::BTreeMap;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/run-seed1.json");

fn fixture() -> RunReport {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture present");
    serde_json::from_str(&text).expect("fixture is an mcpdiff-run/1 report")
}

fn finding(
    rule: &'static str,
    level: Level,
    severity: &str,
    security: bool,
    baselined: bool,
) -> FindingReport {
    FindingReport {
        rule: RuleId(rule),
        level,
        severity: severity.into(),
        security,
        spec: "basic/transports/streamable-http.mdx#X".into(),
        sentence: "Servers MUST <do> & \"that\".".into(),
        expected: "403".into(),
        observed: "200 application/json result".into(),
        count: 2,
        reproducer: format!("curl -H 'X: ]]></failure>\u{1}' 'http://127.0.0.1:1/mcp' # {rule}"),
        connections: Vec::new(),
        case: Case::post(
            "/mcp",
            &[("Origin", "https://evil.example\u{7}")],
            "{\"a\":\"```\"}",
        ),
        observation: Observation::Http(HttpAnswer::new(200, Some("application/json"), Body::Empty)),
        original_size: 300,
        shrunk_size: 40,
        baselined,
        shrink_cut_short: false,
        original_observed: "200 application/json result".into(),
        original_case: None,
        original_observation: None,
        kind: "served, 2xx, no JSON-RPC error, JSON body".into(),
        original_kind: "served, 2xx, no JSON-RPC error, JSON body".into(),
        kept_original: None,
        alone: None,
    }
}

/// A hand-built report: one target with a MUST, a security MUST, a SHOULD, a baselined MUST
/// and a not-observed rule; one clean target; one disagreement.
fn hand_built() -> RunReport {
    let surface = SurfaceSummary {
        supported_versions: vec!["2026-07-28".into()],
        tools: vec![],
        annotated_tools: vec![],
        resources: 0,
        resource_templates: 0,
        prompts: 0,
        protected: false,
    };
    let bad = TargetReport {
        name: "bad<&>".into(),
        url: "http://127.0.0.1:1/mcp".into(),
        version: None,
        score: 0.0,
        blocking: true,
        cases: 10,
        transport_failures: 0,
        findings: vec![
            finding("SHTTP-EP-POST", Level::Must, "blocking", false, false),
            finding("SHTTP-ORIGIN-403", Level::Must, "blocking", true, false),
            finding(
                "SHTTP-BC-SESSION-IGNORE",
                Level::Should,
                "advisory",
                false,
                false,
            ),
            finding("SHTTP-REQ-CT", Level::Must, "blocking", false, true),
        ],
        passed: vec!["SHTTP-NOTIF-202".into(), "SHTTP-SSE-XACCEL".into()],
        not_observed: vec![NotObserved {
            rule: RuleId("BASE-MISSING-CAP-32021"),
            level: Level::Must,
            reason: "no generated case exercised it".into(),
        }],
        notes: vec!["tool 'x' not called".into()],
        surface: surface.clone(),
        revision: None,
        revisions: Vec::new(),
        toolset: None,
        undetermined: Vec::new(),
        slow_tools: Vec::new(),
        tls: None,
        tally: None,
    };
    let good = TargetReport {
        name: "good".into(),
        url: "http://127.0.0.1:2/mcp".into(),
        version: None,
        score: 1.0,
        blocking: false,
        findings: vec![],
        passed: vec!["SHTTP-EP-POST".into(), "SHTTP-ORIGIN-403".into()],
        not_observed: vec![],
        notes: vec![],
        ..bad.clone()
    };
    RunReport {
        schema: "mcpdiff-run/1".into(),
        mcpdiff_version: "0.1.0".into(),
        seed: 7,
        stats: Stats {
            cases: 10,
            requests: 30,
            seconds: 1.5,
            cases_per_second: 6.6,
            stopped_by_time: false,
            disagreements_total: 1,
        },
        targets: vec![bad, good],
        disagreements: vec![DisagreementReport {
            case_index: 3,
            answers: BTreeMap::from([
                ("bad<&>".to_string(), "400 error -32020".to_string()),
                ("good".to_string(), "405 empty".to_string()),
            ]),
            case: Case::post("/mcp", &[], "<script>"),
        }],
        baseline_stale: vec![],
        clients: vec![],
        shard: None,
    }
}

/// Parse `xml` fully; return (testsuites, failures, skipped, testcases) as counted by element.
fn xml_counts(xml: &str) -> (usize, usize, usize, usize) {
    let mut r = quick_xml::Reader::from_str(xml);
    let (mut suites, mut fails, mut skips, mut cases) = (0, 0, 0, 0);
    loop {
        match r.read_event().expect("JUnit output is well-formed XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                b"testsuite" => suites += 1,
                b"failure" => fails += 1,
                b"skipped" => skips += 1,
                b"testcase" => cases += 1,
                _ => {}
            },
            Event::Text(t) => {
                t.unescape().expect("text unescapes");
            }
            _ => {}
        }
    }
    (suites, fails, skips, cases)
}

fn check_junit(rep: &RunReport) {
    let must: usize = rep
        .targets
        .iter()
        .map(|t| {
            t.findings
                .iter()
                .filter(|f| f.severity == "blocking" && !f.baselined)
                .count()
        })
        .sum();
    let should: usize = rep
        .targets
        .iter()
        .map(|t| {
            t.findings
                .iter()
                .filter(|f| f.severity == "advisory" && !f.baselined)
                .count()
        })
        .sum();
    let not_observed: usize = rep.targets.iter().map(|t| t.not_observed.len()).sum();
    let judged: usize = rep
        .targets
        .iter()
        .map(|t| t.findings.len() + t.passed.len() + t.not_observed.len())
        .sum();
    let (suites, fails, skips, cases) = xml_counts(&junit::render(rep, false));
    // one suite per target and revision (a revision not graded has no test case)
    let per_revision: usize = rep.targets.iter().map(|t| revisions::of(t).len()).sum();
    assert_eq!(suites, per_revision);
    assert_eq!(fails, must, "one <failure> per MUST finding");
    assert_eq!(skips, not_observed, "one <skipped> per rule not observed");
    assert_eq!(cases, judged, "one <testcase> per judged rule per target");
    let (_, strict_fails, _, _) = xml_counts(&junit::render(rep, true));
    assert_eq!(
        strict_fails,
        must + should,
        "--strict fails SHOULD findings too"
    );
}

#[test]
fn junit_of_a_real_run_has_a_failure_per_must_and_a_skip_per_unobserved_rule() {
    let rep = fixture();
    assert!(rep.targets.iter().any(|t| !t.findings.is_empty()));
    check_junit(&rep);
    let xml = junit::render(&rep, false);
    assert!(xml.contains("classname=\"mutant:origin-unchecked\" name=\"SHTTP-ORIGIN-403\""));
}

#[test]
fn junit_escapes_hostile_text() {
    let rep = hand_built();
    check_junit(&rep);
    let xml = junit::render(&rep, false);
    assert!(!xml.contains('\u{1}'), "control bytes cannot appear in XML");
    assert!(xml.contains("classname=\"bad&lt;&amp;&gt;\""));
}

fn check_markdown(rep: &RunReport) {
    let md = markdown::render(rep);
    for t in &rep.targets {
        let start = md
            .find(&format!("## `{}`", t.name))
            .unwrap_or_else(|| panic!("a section for {}", t.name));
        let end = md[start + 1..]
            .find("\n## ")
            .map_or(md.len(), |e| start + 1 + e);
        let body = &md[start..end];
        let mut at = 0;
        for s in markdown::SECTIONS {
            let pos = body[at..]
                .find(&format!("### {s}"))
                .unwrap_or_else(|| panic!("{}: section '{s}' missing or out of order", t.name));
            at += pos + 1;
        }
        for f in &t.findings {
            assert!(
                body.contains(&f.reproducer),
                "{}: reproducer of {}",
                t.name,
                f.rule
            );
        }
        for n in &t.not_observed {
            let nd = &body[body.find("### 5.").unwrap_or(0)..body.find("### 6.").unwrap_or(0)];
            assert!(
                nd.contains(n.rule.0),
                "{} listed under Not determined",
                n.rule
            );
        }
    }
    assert!(md.contains("## Disagreements"));
}

#[test]
fn markdown_has_the_six_sections_in_order_for_every_target() {
    check_markdown(&fixture());
    check_markdown(&hand_built());
}

#[test]
fn markdown_keeps_security_apart_and_never_calls_unobserved_passed() {
    let md = markdown::render(&hand_built());
    let sec = md.find("### 3. Security findings").expect("section 3");
    let should = md.find("### 4.").expect("section 4");
    let origin = md
        .find("#### MUST `SHTTP-ORIGIN-403`")
        .expect("origin finding rendered");
    assert!(
        sec < origin && origin < should,
        "the Origin finding sits in section 3"
    );
    let passed = &md[md.find("### 6. Passed").expect("section 6")..];
    assert!(!passed[..passed.find("---").unwrap_or(passed.len())].contains("BASE-MISSING-CAP"));
    // a reproducer holding ``` still renders inside one fence
    assert!(md.contains("````http"));
}

fn check_html(rep: &RunReport) {
    let page = html::render(rep);
    let lower = page.to_ascii_lowercase();
    for bad in [
        "src=\"http",
        "href=\"http",
        "<link",
        "<script",
        "@import",
        "url(",
    ] {
        assert!(!lower.contains(bad), "self-contained: found {bad}");
    }
    assert!(page.contains("<style>"));
    assert!(page.contains("Disagreements"));
    for t in &rep.targets {
        for f in &t.findings {
            assert!(
                page.contains(&html::esc(&f.reproducer)),
                "reproducer of {}",
                f.rule
            );
        }
    }
}

#[test]
fn html_is_self_contained_and_holds_every_reproducer() {
    check_html(&fixture());
    check_html(&hand_built());
    let page = html::render(&hand_built());
    assert!(page.contains("&lt;script&gt;"), "disagreement case escaped");
    assert!(page.contains("class=\"c must\""), "MUST cell coloured");
    assert!(page.contains("class=\"c should\""), "SHOULD cell coloured");
    assert!(
        page.contains("class=\"c nobs\""),
        "not-observed cell coloured"
    );
    assert!(
        page.contains("<del>") && page.contains("<ins>"),
        "expected vs observed diff"
    );
}

/// Every renderer shows the original observation beside the reproducer's, and says when the
/// original case was kept as the reproducer.
#[test]
fn every_renderer_shows_the_original_observation() {
    let mut rep = hand_built();
    let f = &mut rep.targets[0].findings[1];
    f.original_observed = "200 application/json result".into();
    f.kind = "refused, 403, no JSON-RPC error, empty body".into();
    f.original_kind = "served, 200, no JSON-RPC error, JSON body".into();
    f.kept_original = Some("the shrunk case failed as \"refused, 4xx\"".into());
    let g = &mut rep.targets[0].findings[0];
    g.original_observed = "500 application/json error -32603".into();
    g.original_kind = g.kind.clone();
    let same = "500 application/json error -32603; same kind as the reproducer (served, 2xx, \
                no JSON-RPC error, JSON body)";
    let kept = "200 application/json result (kept as the reproducer: the shrunk case failed as";
    let text = terminal::render(&rep, false);
    assert!(text.contains(&format!("original: {same}")), "{text}");
    assert!(text.contains(&format!("original: {kept}")), "{text}");
    let md = markdown::render(&rep);
    assert!(
        md.contains(&format!("- **Original observation:** {same}")),
        "{md}"
    );
    assert!(md.contains(kept), "{md}");
    let html = html::render(&rep);
    assert!(
        html.contains("<b>Original observation:</b> 500 application/json"),
        "{html}"
    );
    assert!(html.contains("kept as the reproducer: the shrunk case failed as &quot;refused"));
    let xml = junit::render(&rep, false);
    assert!(
        xml.contains("original: 500 application/json error -32603; same kind"),
        "{xml}"
    );
    // a report written before the original was recorded shows no such line
    let mut f = hand_built().targets[0].findings[2].clone();
    f.original_observed.clear();
    assert_eq!(f.original_line(), None);
}
