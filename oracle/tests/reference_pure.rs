//! The reference server scores clean on the probe set, the null server does not, and every
//! mutant is caught on exactly its own rule (no other MUST / MUST NOT rule).

use mcpdiff_oracle::reference::mutants::{MCP_NAME_FROM_NAME, RETIRED_CODE_32002};
use mcpdiff_oracle::reference::{
    null_response, probes, respond, respond_mutant, to_observation, Mutant, Probe, MUTANTS,
};
use mcpdiff_oracle::rules::{self, level_of, Severity, JUDGED_IDS};
use mcpdiff_oracle::{check, fixture, judge, Finding, RuleId};
use std::collections::BTreeSet;

/// Judged ids with no probe and no mutant, and why (none today).
const UNREACHABLE: &[(RuleId, &str)] = &[];

/// Mutants that unavoidably break a second rule, with the companion allowed.
const COMPANIONS: &[(&Mutant, RuleId)] = &[
    // -32002 is retired *and* inside the legacy range -32019..-32000 (a SHOULD NOT); the
    // other retired code, -32042, would break the MUST NOT on undefined reserved codes
    (&RETIRED_CODE_32002, rules::ERRCODE_LEGACY),
    // it refuses every resources/read; the read whose Mcp-Name carries the sentinel (the
    // non-ASCII name no fixture tool has since TOOLS-NAMES, D-130) is the sentinel's benign
    // stimulus, so that refusal is blamed on SHTTP-B64-DECODE (P-BENIGN)
    (&MCP_NAME_FROM_NAME, rules::B64_DECODE),
];

fn findings_of(p: &Probe, answer: mcpdiff_oracle::reference::Response) -> Vec<Finding> {
    findings_on(&fixture::surface(), p, answer)
}

fn findings_on(
    s: &mcpdiff_oracle::Surface,
    p: &Probe,
    answer: mcpdiff_oracle::reference::Response,
) -> Vec<Finding> {
    let v = judge(&p.case, s);
    check(&v, &to_observation(&answer))
}

/// The fixture, and the fixture listed in pages (`serve --page-size`): the page rules
/// (PAGE-STABLE, CACHE-SCOPE-PAGES) have probes, and their mutants show, only on the second.
fn surfaces() -> [mcpdiff_oracle::Surface; 2] {
    [fixture::surface(), fixture::paged_surface()]
}

#[test]
fn every_judged_rule_has_a_probe_that_triggers_it() {
    for id in JUDGED_IDS {
        if UNREACHABLE.iter().any(|(r, _)| r == id) {
            continue;
        }
        let triggered = surfaces().iter().any(|s| {
            probes(s)
                .iter()
                .filter(|p| p.rule == *id)
                .any(|p| judge(&p.case, &fixture::surface_for(p.rule, s)).triggers(*id))
        });
        assert!(triggered, "no probe tagged {id} triggers it");
    }
}

#[test]
fn reference_scores_clean_on_every_probe() {
    for s in surfaces() {
        for p in probes(&s) {
            let on = fixture::surface_for(p.rule, &s);
            let r = respond(&p.case, &on);
            let f = findings_on(&on, &p, r.clone());
            assert!(
                f.is_empty(),
                "probe {} ({:?}): reference answer {r:?} has findings {f:#?}\nverdict: {:#?}",
                p.rule,
                String::from_utf8_lossy(&p.case.body),
                judge(&p.case, &on)
            );
        }
    }
}

#[test]
fn null_server_breaks_a_must() {
    let s = fixture::surface();
    let must = probes(&s)
        .iter()
        .flat_map(|p| findings_of(p, null_response(&p.case)))
        .any(|f| f.level == "MUST" || f.level == "MUST NOT");
    assert!(must);
}

#[test]
fn every_mutant_breaks_exactly_its_rule() {
    let mut covered = BTreeSet::new();
    for m in MUTANTS {
        let mut broken = BTreeSet::new();
        for s in surfaces() {
            // the surface the mutant publishes (the extension mutant advertises one)
            let on = fixture::surface_for(m.rule, &s);
            for p in &probes(&s) {
                for f in findings_on(&on, p, respond_mutant(m, &p.case, &on)) {
                    broken.insert(f.rule);
                }
            }
        }
        assert!(
            broken.contains(m.rule.0),
            "mutant {} does not break {} (breaks {broken:?})",
            m.name,
            m.rule
        );
        for other in &broken {
            let blocking = JUDGED_IDS
                .iter()
                .find(|r| r.0 == other.as_str())
                .is_some_and(|r| level_of(*r).severity() == Severity::Blocking);
            let allowed =
                other == m.rule.0 || COMPANIONS.iter().any(|(n, r)| *n == m && r.0 == other);
            assert!(
                allowed || !blocking,
                "mutant {} also breaks the MUST rule {other}",
                m.name
            );
            // stricter than the brief: SHOULD-level companions must be listed too
            assert!(allowed, "mutant {} also breaks {other}", m.name);
        }
        covered.insert(m.rule);
    }
    for id in JUDGED_IDS {
        let unreachable = UNREACHABLE.iter().any(|(r, _)| r == id);
        assert!(covered.contains(id) || unreachable, "no mutant for {id}");
    }
}

#[test]
fn mutants_are_uniquely_named() {
    let names: BTreeSet<_> = MUTANTS.iter().map(|m| m.name).collect();
    assert_eq!(names.len(), MUTANTS.len());
}
