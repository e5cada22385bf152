//! Joining the JSON reports of the N shards of one run (`run --shard K/N`) into the report
//! the unsharded run would have written (`mcpdiff merge`). The shards ran disjoint parts of
//! one case stream against the same targets, so per target:
//!
//! - rule counts add up (`TallyReport`); a rule passed when it was exercised and never broke
//!   in any shard, and the score is computed from the summed counts by the run's own scoring
//!   (`tally::score_of`);
//! - per rule, the finding kept is the one whose witness the unsharded tally would have kept
//!   (`tally::preference`: isolating, fewest defects, lowest run index), with the counts of
//!   every shard; a finding another rule explains away (that rule failed alone in some
//!   shard: `WitnessReport::blamed_on`) is left out as the run leaves it out;
//! - a rule is not observed only when no shard observed it; answers that decided nothing
//!   add up per reason and rule.
//!
//! Inputs of different seeds, schemas or shard counts, and missing or repeated shards, are
//! refused with one line.

use super::build::sort_findings;
use super::json::{DisagreementReport, FindingReport, RunReport, Stats, TargetReport, SCHEMA};
pub use super::merge_error::MergeError;
use super::tally_report::{TallyReport, WitnessReport};
use super::undetermined::{is_untested, RuleCases, SlowToolReport, UndeterminedReport};
use crate::runner::Shard;
use std::collections::{BTreeMap, BTreeSet};

/// One input: a name for the errors (its path) and the report read from it.
pub struct Input {
    pub name: String,
    pub report: RunReport,
}

/// Merge the reports of every shard of one run; `max_disagreements` caps the examples kept
/// (one per pattern of answers, as a run keeps them). Err: one line saying what to pass.
pub fn merge(mut inputs: Vec<Input>, max_disagreements: usize) -> Result<RunReport, MergeError> {
    check(&inputs)?;
    inputs.sort_by_key(|i| shard_of(&i.report).index);
    let reports: Vec<&RunReport> = inputs.iter().map(|i| &i.report).collect();
    let first = reports[0];
    let mut names: Vec<&str> = Vec::new();
    for r in &reports {
        for t in &r.targets {
            if !names.contains(&t.name.as_str()) {
                names.push(&t.name);
            }
        }
    }
    let targets = names
        .iter()
        .map(|name| {
            let entries: Vec<&TargetReport> = reports
                .iter()
                .filter_map(|r| r.targets.iter().find(|t| t.name == *name))
                .collect();
            merge_target(&entries)
        })
        .collect();
    let cases: u64 = reports.iter().map(|r| r.stats.cases).sum();
    // the shards ran side by side: the run took as long as its longest shard
    let seconds = reports.iter().map(|r| r.stats.seconds).fold(0.0, f64::max);
    let stats = Stats {
        cases,
        requests: reports.iter().map(|r| r.stats.requests).sum(),
        seconds,
        cases_per_second: if seconds > 0.0 {
            cases as f64 / seconds
        } else {
            0.0
        },
        stopped_by_time: reports.iter().any(|r| r.stats.stopped_by_time),
        disagreements_total: reports.iter().map(|r| r.stats.disagreements_total).sum(),
    };
    // a baseline entry is stale when no shard reproduced it
    let baseline_stale = first
        .baseline_stale
        .iter()
        .filter(|k| {
            reports.iter().all(|r| {
                r.baseline_stale
                    .iter()
                    .any(|x| x.target == k.target && x.rule == k.rule)
            })
        })
        .cloned()
        .collect();
    Ok(RunReport {
        schema: first.schema.clone(),
        mcpdiff_version: first.mcpdiff_version.clone(),
        seed: first.seed,
        stats,
        targets,
        disagreements: disagreements(&reports, max_disagreements),
        baseline_stale,
        clients: reports
            .iter()
            .find(|r| !r.clients.is_empty())
            .map(|r| r.clients.clone())
            .unwrap_or_default(),
        shard: None,
    })
}

fn shard_of(r: &RunReport) -> Shard {
    r.shard.unwrap_or(Shard::WHOLE)
}

/// Refuse what cannot be merged into one run's report.
fn check(inputs: &[Input]) -> Result<(), MergeError> {
    let Some(first) = inputs.first() else {
        return Err(MergeError::NoInputs);
    };
    let (a, ra) = (&first.name, &first.report);
    for i in &inputs[1..] {
        let (b, rb) = (&i.name, &i.report);
        if rb.schema != ra.schema || rb.schema != SCHEMA {
            return Err(MergeError::SchemaDiffers {
                a: a.clone(),
                b: b.clone(),
                schema_a: ra.schema.clone(),
                schema_b: rb.schema.clone(),
            });
        }
        if rb.seed != ra.seed {
            return Err(MergeError::SeedDiffers {
                a: a.clone(),
                b: b.clone(),
                seed_a: ra.seed,
                seed_b: rb.seed,
            });
        }
        let (sa, sb) = (shard_of(ra), shard_of(rb));
        if sa.count != sb.count {
            return Err(MergeError::ShardCountDiffers {
                a: a.clone(),
                b: b.clone(),
                shard_a: sa,
                shard_b: sb,
            });
        }
    }
    let count = shard_of(ra).count;
    let mut by_index: BTreeMap<u64, &str> = BTreeMap::new();
    for i in inputs {
        let s = shard_of(&i.report);
        if let Some(other) = by_index.insert(s.index, &i.name) {
            return Err(MergeError::Repeated {
                shard: s,
                first: other.to_string(),
                second: i.name.clone(),
            });
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            shards: missing,
            count,
        });
    }
    Ok(())
}

/// One target's entries (one per shard that has it, in shard order) as one entry.
fn merge_target(entries: &[&TargetReport]) -> TargetReport {
    let mut out = entries[0].clone();
    let tested: Vec<&TargetReport> = entries
        .iter()
        .copied()
        .filter(|t| !is_untested(t))
        .collect();
    // the entry of a tested shard carries the target's evidence (surface, notes, revision)
    if let Some(t) = tested.first() {
        out = (*t).clone();
    }
    out.cases = entries.iter().map(|t| t.cases).sum();
    out.transport_failures = entries.iter().map(|t| t.transport_failures).sum();
    out.undetermined = undetermined(entries);
    out.slow_tools = slow_tools(entries);
    out.not_observed = out
        .not_observed
        .iter()
        .filter(|n| {
            tested
                .iter()
                .all(|t| t.not_observed.iter().any(|x| x.rule == n.rule))
        })
        .cloned()
        .collect();
    if tested.iter().all(|t| t.tally.is_some()) && !tested.is_empty() {
        let (tally, findings, set_aside) = findings_by_witness(&tested);
        for note in set_aside {
            if !out.notes.contains(&note) {
                out.notes.push(note);
            }
        }
        out.passed = tally.passed();
        out.score = tally.score();
        out.findings = findings;
        out.tally = Some(tally);
    } else {
        // reports written before the tallies were recorded: every shard's findings, the
        // first one per rule, and the worst score
        let mut findings: Vec<FindingReport> = Vec::new();
        for t in &tested {
            for f in &t.findings {
                match findings.iter_mut().find(|x| x.rule == f.rule) {
                    Some(x) => x.count += f.count,
                    None => findings.push(f.clone()),
                }
            }
        }
        let failed: BTreeSet<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
        let passed: BTreeSet<String> = tested
            .iter()
            .flat_map(|t| t.passed.iter())
            .filter(|r| !failed.contains(r.as_str()))
            .cloned()
            .collect();
        out.passed = passed.into_iter().collect();
        out.score = tested.iter().map(|t| t.score).fold(1.0, f64::min);
        if tested.is_empty() {
            out.score = 0.0;
        }
        out.findings = findings;
        out.tally = None;
    }
    sort_findings(&mut out.findings);
    out.blocking = out
        .findings
        .iter()
        .any(|f| f.severity == "blocking" && !f.baselined);
    // each revision's entry from the joined counts
    super::revisions::refresh(&mut out);
    out
}

/// The summed tally of the shards, and per failed rule the finding of the shard whose
/// witness an unsharded run keeps, unless a rule isolated in some shard explains it; and a
/// note for each finding a shard reported that the merge sets aside so (the run's wording).
fn findings_by_witness(tested: &[&TargetReport]) -> (TallyReport, Vec<FindingReport>, Vec<String>) {
    let mut tally = TallyReport::default();
    // per rule: the preferred witness, the shard entry it came from, the summed count
    let mut best: BTreeMap<String, (WitnessReport, usize, u64)> = BTreeMap::new();
    for (at, t) in tested.iter().enumerate() {
        let Some(tr) = &t.tally else { continue };
        for (rule, c) in &tr.rules {
            let sum = tally.rules.entry(*rule).or_default();
            sum.exercised += c.exercised;
            sum.failed += c.failed;
        }
        for w in &tr.witnesses {
            match best.get_mut(w.rule.0) {
                Some((kept, from, count)) => {
                    *count += w.count;
                    if w.key() < kept.key() {
                        (*kept, *from) = (w.clone(), at);
                    }
                }
                None => {
                    best.insert(w.rule.0.to_string(), (w.clone(), at, w.count));
                }
            }
        }
    }
    let isolated = |r: &str| best.get(r).is_some_and(|(w, _, _)| w.isolates());
    let (mut findings, mut notes) = (Vec::new(), Vec::new());
    for (rule, (w, from, count)) in &best {
        if let Some(by) = w.blamed_on.iter().find(|r| isolated(r)) {
            let reported = tested
                .iter()
                .any(|t| t.findings.iter().any(|f| f.rule.0 == rule.as_str()));
            if reported {
                notes.push(super::build::blamed_note(rule, by));
            }
            continue;
        }
        // absent from its shard's findings: explained away there, so here too (a rule
        // isolated in one shard is isolated in the merge)
        let Some(f) = tested[*from]
            .findings
            .iter()
            .find(|f| f.rule == rule.as_str())
        else {
            continue;
        };
        let mut f = f.clone();
        f.count = *count;
        findings.push(f);
    }
    tally.witnesses = best
        .into_values()
        .map(|(w, _, count)| WitnessReport { count, ..w })
        .collect();
    (tally, findings, notes)
}

/// Undetermined answers per reason, summed over the shards (the first detail kept).
fn undetermined(entries: &[&TargetReport]) -> Vec<UndeterminedReport> {
    let mut out: Vec<UndeterminedReport> = Vec::new();
    for u in entries.iter().flat_map(|t| t.undetermined.iter()) {
        let Some(m) = out.iter_mut().find(|m| m.reason == u.reason) else {
            out.push(u.clone());
            continue;
        };
        m.cases += u.cases;
        m.detail = m.detail.take().or_else(|| u.detail.clone());
        for rc in &u.rules {
            match m.rules.iter_mut().find(|x| x.rule == rc.rule) {
                Some(x) => x.cases += rc.cases,
                None => m.rules.push(RuleCases {
                    rule: rc.rule.clone(),
                    cases: rc.cases,
                }),
            }
        }
        m.rules.sort_by(|a, b| a.rule.cmp(&b.rule));
    }
    out.sort_by_key(|u| u.reason);
    out
}

/// Slow tools of any shard, their runs summed and the longest waits kept.
fn slow_tools(entries: &[&TargetReport]) -> Vec<SlowToolReport> {
    let mut out: Vec<SlowToolReport> = Vec::new();
    for s in entries.iter().flat_map(|t| t.slow_tools.iter()) {
        let Some(m) = out.iter_mut().find(|m| m.tool == s.tool) else {
            out.push(s.clone());
            continue;
        };
        m.calls += s.calls;
        m.timed_out += s.timed_out;
        m.waited_ms = m.waited_ms.max(s.waited_ms);
        m.longest_finished_ms = m.longest_finished_ms.max(s.longest_finished_ms);
        if m.probe_ms.is_none() {
            (m.probe_ms, m.probe_finished) = (s.probe_ms, s.probe_finished);
        }
        m.suggested_timeout_ms = m.suggested_timeout_ms.max(s.suggested_timeout_ms);
    }
    out
}

/// One example per pattern of answers (the lowest case index), at most `cap`, in case order.
fn disagreements(reports: &[&RunReport], cap: usize) -> Vec<DisagreementReport> {
    let mut all: Vec<&DisagreementReport> = reports
        .iter()
        .flat_map(|r| r.disagreements.iter())
        .collect();
    all.sort_by_key(|d| d.case_index);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for d in all {
        let pattern: Vec<&String> = d.answers.values().collect();
        if seen.insert(pattern) && out.len() < cap {
            out.push(d.clone());
        }
    }
    out
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
