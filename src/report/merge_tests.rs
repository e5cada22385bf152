//! `report::merge` on hand-made shard entries: which shard's finding is kept, and a finding
//! explained away by a rule another shard isolates.

use super::*;
use crate::report::tally_report::RuleCountReport;
use crate::report::undetermined::untested;
use mcpdiff_oracle::rules::{RuleId, B64_DECODE, HDR_MISMATCH, ORIGIN_403, PV_MISMATCH};
use mcpdiff_oracle::Undetermined;

/// A finding of the committed report, renamed to `rule`, its kind saying where it is from.
fn finding(rule: RuleId, from: &str) -> FindingReport {
    let rep: RunReport = serde_json::from_str(include_str!("../../tests/data/run-seed1.json"))
        .expect("the fixture parses");
    let mut f = rep.targets[1].findings[0].clone();
    f.rule = rule;
    f.kind = from.to_string();
    f
}

fn witness(rule: RuleId, index: u64, co_failing: &[RuleId]) -> WitnessReport {
    WitnessReport {
        rule,
        index,
        co_failing: co_failing.iter().map(|r| r.0.to_string()).collect(),
        defects: 0,
        count: 2,
        blamed_on: co_failing.iter().map(|r| r.0.to_string()).collect(),
    }
}

/// One shard's entry of target `t`: these findings and witnesses, each rule failed.
fn shard(k: u64, findings: Vec<FindingReport>, witnesses: Vec<WitnessReport>) -> Input {
    let mut t = untested("t", "http://127.0.0.1:9/mcp", Undetermined::TimedOut, "x");
    t.undetermined.clear();
    t.cases = 10;
    let rules = witnesses
        .iter()
        .map(|w| {
            let c = RuleCountReport {
                exercised: 3,
                failed: 2,
            };
            (w.rule, c)
        })
        .collect();
    t.findings = findings;
    t.tally = Some(TallyReport { rules, witnesses });
    let mut report: RunReport =
        serde_json::from_str(include_str!("../../tests/data/run-seed1.json"))
            .expect("the fixture parses");
    report.targets = vec![t];
    report.shard = Some(Shard { index: k, count: 2 });
    Input {
        name: format!("r{k}.json"),
        report,
    }
}

#[test]
fn the_preferred_witness_wins_and_an_isolated_rule_explains_others_away() {
    // ORIGIN_403: shard 1 shares the blame with a rule isolated nowhere, shard 2 isolates
    // it later in the stream: shard 2's finding is the one an unsharded run keeps.
    // HDR_MISMATCH: shard 1 blames it on B64_DECODE too, which shard 2 isolates: explained
    // away, as an unsharded run would explain it.
    let one = shard(
        1,
        vec![finding(ORIGIN_403, "1"), finding(HDR_MISMATCH, "1")],
        vec![
            witness(ORIGIN_403, 4, &[PV_MISMATCH]),
            witness(HDR_MISMATCH, 6, &[B64_DECODE]),
        ],
    );
    let two = shard(
        2,
        vec![finding(ORIGIN_403, "2"), finding(B64_DECODE, "2")],
        vec![witness(ORIGIN_403, 9, &[]), witness(B64_DECODE, 11, &[])],
    );
    let merged = merge(vec![two, one], 20).expect("both shards");
    let t = &merged.targets[0];
    let mut got: Vec<(&str, &str, u64)> = t
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), f.kind.as_str(), f.count))
        .collect();
    got.sort_unstable();
    let mut want = vec![(ORIGIN_403.0, "2", 4), (B64_DECODE.0, "2", 2)];
    want.sort_unstable();
    assert_eq!(got, want);
    assert_eq!(t.cases, 20);
    // shard 1 reported HDR_MISMATCH: the merge says why it is gone
    let why = format!(
        "{} not reported: its failing case also broke {}, which failed alone elsewhere",
        HDR_MISMATCH.0, B64_DECODE.0
    );
    assert!(t.notes.contains(&why), "{:?}", t.notes);
    let tally = t.tally.as_ref().expect("summed");
    assert_eq!(tally.rules[&ORIGIN_403].exercised, 6);
    assert!(t.passed.is_empty());
    assert_eq!(t.score, 0.0, "a MUST failed");
}

#[test]
fn merged_revisions_are_derived_again_from_the_joined_counts() {
    // shard 1 saw no failure (its 2026-07-28 entry says 1.0), shard 2 broke ORIGIN_403: the
    // merged entry's 2026-07-28 revision is the joined one, and the selection (2026-07-28
    // alone) is kept
    let selected = [mcpdiff_oracle::Revision::V2026_07_28];
    let mut one = shard(1, vec![], vec![]);
    one.report.targets[0].passed = vec![ORIGIN_403.0.to_string()];
    one.report.targets[0].score = 1.0;
    let mut two = shard(
        2,
        vec![finding(ORIGIN_403, "2")],
        vec![witness(ORIGIN_403, 9, &[])],
    );
    for input in [&mut one, &mut two] {
        let t = &mut input.report.targets[0];
        t.revisions = crate::report::revisions::derive(t, &selected);
    }
    assert_eq!(one.report.targets[0].revisions[0].score, Some(1.0));
    let merged = merge(vec![one, two], 20).expect("both shards");
    let revs = &merged.targets[0].revisions;
    assert_eq!(revs.len(), 1);
    assert_eq!(revs[0].score, Some(0.0));
    assert_eq!(revs[0].findings.len(), 1);
    assert!(revs[0].blocking());
}
