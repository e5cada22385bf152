//! The run pipeline through the library, without the CLI: start the in-process reference
//! server and one mutant, add an endpoint nothing listens on, run the server matrix with a
//! tool set, and read each target's evidence and findings from the values the pipeline
//! returns (not from printed output).

use mcpdiff::baseline::Baseline;
use mcpdiff::card::CardStatus;
use mcpdiff::pipeline::{self, CardEvidence, Settings, StartOptions, TargetSpec};
use mcpdiff::runner::revision::RevisionVerdict;
use mcpdiff::runner::Progress;
use mcpdiff::serve::tools::fixture_with;
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::Undetermined;
use mcpdiff_props::toolgen::generate_toolset;
use std::sync::Mutex;

const MUTANT: &str = "origin-unchecked";
/// Loopback port 1: nothing listens there, so every connection is refused.
const NOBODY: &str = "http://127.0.0.1:1/mcp";

/// Keeps the pipeline's lines.
#[derive(Default)]
struct Lines(Mutex<Vec<String>>);

impl Progress for Lines {}

impl pipeline::Events for Lines {
    fn line(&self, text: &str) {
        self.0.lock().expect("lines").push(text.to_string());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pipeline_yields_evidence_and_findings_per_target() {
    let set = generate_toolset(5, 12);
    let served = fixture_with(&set).expect("the fixture takes the tool set");
    let mutants = vec![MUTANT.to_string()];
    let plan = pipeline::plan(&[], None, false, Some(&mutants), None);
    assert!(plan.in_process && plan.bundled.is_none() && plan.clients.is_none());
    let opts = StartOptions {
        mutants: Some(&mutants),
        served_surface: &served,
        target_env: &[],
        has_user_urls: true,
    };
    let started = pipeline::start(&plan, &opts, &|_| {})
        .await
        .expect("in-process servers start");
    let mut specs = started.specs.clone();
    specs.push(TargetSpec::user_url(NOBODY));
    let settings = Settings {
        toolset: Some(set.clone()),
        ..Settings::new(Client::new(Limits::default()), 150, 3)
    };
    let lines = Lines::default();
    let never = std::future::pending::<()>();
    let matrix = pipeline::run_matrix(&specs, &settings, &lines, never)
        .await
        .expect("not interrupted");
    started.stop().await;

    // one evidence value per fuzzed target, found by its name
    let mutant_name = format!("mutant:{MUTANT}");
    assert_eq!(matrix.evidence.len(), 2);
    let valid = set.valid_tools().count();
    for name in ["reference", mutant_name.as_str()] {
        let e = matrix
            .evidence_of(name)
            .expect("evidence of each started target");
        assert!(e.loopback, "{name}");
        // the in-process reference is the dual-era one; the mutants stay modern-only
        let (era, card) = if name == "reference" {
            // its bare GET (no session, no version header) selects 2025-11-25 (the legacy
            // route, D-L1) and is refused 400 without a session, so the card scan, which
            // wants 2xx or 405/406 there, is only partial
            (RevisionVerdict::DualEra, CardStatus::Partial)
        } else {
            (RevisionVerdict::Modern, CardStatus::Pass)
        };
        assert_eq!(e.revision.verdict, era, "{name}: {e:?}");
        assert!(
            matches!(&e.card, CardEvidence::Scanned { status, .. } if *status == card),
            "{name}: {:?}",
            e.card
        );
        let published = e.toolset.as_ref().expect("compared with the tool set");
        assert_eq!(published.tools, set.tools.len(), "{name}");
        assert_eq!(published.valid_published, valid, "{name}");
        assert!(published.valid_missing.is_empty(), "{name}: {published:?}");
        assert_eq!(e.version, None, "in-process servers have no pinned version");
    }

    // the endpoint nothing listens on is untested (unreachable), and said so
    assert_eq!(matrix.untested_names(), vec![NOBODY]);
    assert_eq!(matrix.untested[0].reason, Undetermined::Unreachable);
    let lines = lines.0.lock().expect("lines").clone();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{NOBODY} not tested"))),
        "{lines:?}"
    );

    // the report reads each target's evidence, whatever the order of the targets
    let rep = matrix.report(&Baseline::default(), &settings.client);
    assert_eq!(rep.targets.len(), 3);
    for t in &rep.targets[..2] {
        let e = matrix.evidence_of(&t.name).expect("evidence");
        assert_eq!(t.revision.as_ref(), Some(&e.revision), "{}", t.name);
        assert_eq!(t.toolset.as_ref(), e.toolset.as_ref(), "{}", t.name);
        assert!(
            t.notes.contains(&e.card.note()),
            "{}: {:?}",
            t.name,
            t.notes
        );
    }
    let untested = rep.targets.iter().find(|t| t.url == NOBODY).expect("entry");
    assert_eq!(untested.cases, 0);

    // the reference breaks nothing; the mutant breaks the rule it exists to break
    let broken = "SHTTP-ORIGIN-403";
    let reference = rep
        .targets
        .iter()
        .find(|t| t.name == "reference")
        .expect("reference");
    assert!(reference.findings.is_empty(), "{:?}", reference.findings);
    assert!(!reference.blocking);
    let mutant = rep
        .targets
        .iter()
        .find(|t| t.name == mutant_name)
        .expect("mutant");
    let rules: Vec<&str> = mutant.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, vec![broken], "{:?}", mutant.findings);
    assert!(mutant.blocking);
    // the runner's result and the report agree on what was judged
    assert!(matrix.result.cases >= 150);
    let outcome = matrix.result.targets.iter().find(|t| t.name == mutant_name);
    assert_eq!(Some(mutant.cases), outcome.map(|o| o.tally.cases));
}
