//! Where entries come from: the oracle's probe set (the seed corpus), the shrunk findings of
//! a run (`mcpdiff run --save-corpus`, server findings and client findings), and inputs
//! libFuzzer saved (`mcpdiff corpus import`).
//! Every builder records the pure reference server's answer or the target's own, so a later
//! replay can tell "fixed" from "still failing".

use super::client::entries_from_clients;
use super::entry::{Entry, Recorded};
use super::error::CorpusError;
use super::store::{save, save_client, Saved};
use crate::clients::ClientTargetReport;
use crate::runner::legacy::RevisionOutcome;
use crate::runner::RunResult;
use mcpdiff_oracle::reference::{probes, respond, to_observation};
use mcpdiff_oracle::{assess, check, fixture, judge, Case, Surface};
use std::path::{Path, PathBuf};

/// How the pure reference server is named in entries.
pub const PURE_REFERENCE: (&str, &str) = ("reference", "in-process (pure)");

/// The pure reference server's answer to `case`, as a record.
pub fn reference_record(case: &Case, surface: &Surface) -> Recorded {
    let obs = to_observation(&respond(case, surface));
    let failing = check(&judge(case, surface), &obs)
        .into_iter()
        .map(|f| f.rule)
        .collect();
    Recorded::new(PURE_REFERENCE.0, PURE_REFERENCE.1, obs, failing)
}

/// The seed corpus: the first probe of every rule the probe set covers (one file per rule),
/// against the fixture surface, with the pure reference server's answer.
pub fn seed_entries() -> Vec<Entry> {
    let surface = fixture::surface();
    let mut out: Vec<Entry> = Vec::new();
    for p in probes(&surface) {
        let rule = p.rule.0.to_string();
        if out.iter().any(|e| e.rules[0] == rule) {
            continue;
        }
        // a rule that binds only a target the fixture is not (`fixture::own_surface_rules`)
        let on = fixture::surface_for(p.rule, &surface);
        let mut e = Entry::new(vec![rule], "probe", &p.case, &on);
        e.record(reference_record(&p.case, &on));
        out.push(e);
    }
    out
}

/// Save every entry; `(created, updated, unchanged)` counts, or the first error.
pub fn save_all(dir: &Path, entries: &[Entry]) -> Result<(usize, usize, usize), CorpusError> {
    let mut n = (0, 0, 0);
    for e in entries {
        match save(dir, e)?.1 {
            Saved::Created => n.0 += 1,
            Saved::Updated => n.1 += 1,
            Saved::Unchanged => n.2 += 1,
        }
    }
    Ok(n)
}

/// One entry per shrunk finding of a run, with the target's answer to the shrunk case (for a
/// connection probe's finding, with its whole sequence: `corpus::connection`), but for a
/// finding whose reproducer did not fail again alone (`ShrunkFinding::alone`: replayed
/// alone, as an entry is, it would pass the target that failed it) and a benign input's
/// finding explained away by its plain twin (`ShrunkFinding::twin`: not reported).
pub fn run_entries(result: &RunResult, seed: u64) -> Vec<Entry> {
    let source = format!("mcpdiff run --seed {seed}");
    let mut out = Vec::new();
    for t in &result.targets {
        for f in t.findings.iter().filter(|f| f.stands_alone()) {
            // A connection probe's finding (BASE-STATELESS-NO-PRIOR, `*-LIST-STABLE`) exists
            // only in a sequence of requests on chosen connections: its entry keeps the whole
            // sequence (`corpus::connection`)
            if !f.connections.is_empty() {
                let found = (&f.case, &f.observation);
                let at = (t.name.as_str(), t.url.as_str());
                out.extend(super::connection::entry(
                    f.rule.0,
                    &source,
                    found,
                    &f.connections,
                    at,
                    &t.surface,
                ));
                continue;
            }
            // AUTH-* findings: judged by the authorization judge (`corpus::auth`)
            if f.rule.0.starts_with("AUTH-") {
                let found = (&f.case, &f.observation);
                let at = (t.name.as_str(), t.url.as_str());
                out.extend(super::auth::entry(f.rule.0, &source, found, at, &t.surface));
                continue;
            }
            let mut e = Entry::new(vec![f.rule.0.to_string()], &source, &f.case, &t.surface);
            // as the run judged it: rules an answer cut by a limit left open are not failing
            let found = assess(&f.case, &t.surface, &f.observation).settled.findings;
            let failing = found.into_iter().map(|x| x.rule).collect();
            e.record(Recorded::new(
                &t.name,
                &t.url,
                f.observation.clone(),
                failing,
            ));
            out.push(e);
        }
    }
    out
}

/// `mcpdiff run --save-corpus DIR`: save every shrunk finding; a line for the terminal.
pub fn save_run(dir: &Path, result: &RunResult, seed: u64) -> Result<String, CorpusError> {
    let entries = run_entries(result, seed);
    let (created, updated, unchanged) = save_all(dir, &entries)?;
    let not_alone = result
        .targets
        .iter()
        .flat_map(|t| &t.findings)
        .filter(|f| !f.stands_alone())
        .count();
    Ok(format!(
        "corpus {}: {created} new, {updated} updated, {unchanged} already there{}",
        dir.display(),
        if not_alone == 0 {
            String::new()
        } else {
            format!(
                ", {not_alone} not saved (did not fail again sent alone, or failed as well \
                 without the benign input)"
            )
        }
    ))
}

/// `mcpdiff run --save-corpus DIR`, the 2025-11-25 side: one sequence entry per legacy
/// finding that kept its answers (`corpus::legacy`). `targets`: (name, url, the target's
/// 2025-11-25 outcome, its known legacy versions newest first). A line for the terminal.
pub fn save_legacy_run(
    dir: &Path,
    targets: &[(&str, &str, &RevisionOutcome, Vec<String>)],
    seed: u64,
) -> Result<String, CorpusError> {
    let mut n = (0, 0, 0);
    for (name, url, outcome, versions) in targets {
        for e in super::legacy::entries_of(outcome, name, url, versions, seed) {
            match super::store::save_legacy(dir, &e)?.1 {
                Saved::Created => n.0 += 1,
                Saved::Updated => n.1 += 1,
                Saved::Unchanged => n.2 += 1,
            }
        }
    }
    let (created, updated, unchanged) = n;
    Ok(format!(
        "corpus {} (2025-11-25 sequences): {created} new, {updated} updated, {unchanged} \
         already there",
        dir.display()
    ))
}

/// `mcpdiff run --clients ... --save-corpus DIR`: save every client finding that has a
/// recording to stand on (shrunk when the shrinker reproduced it); a line for the terminal.
pub fn save_clients(
    dir: &Path,
    rows: &[ClientTargetReport],
    seed: u64,
) -> Result<String, CorpusError> {
    let mut n = (0, 0, 0);
    for e in entries_from_clients(rows, seed) {
        match save_client(dir, &e)?.1 {
            Saved::Created => n.0 += 1,
            Saved::Updated => n.1 += 1,
            Saved::Unchanged => n.2 += 1,
        }
    }
    let (created, updated, unchanged) = n;
    Ok(format!(
        "corpus {} (client cases): {created} new, {updated} updated, {unchanged} already there",
        dir.display()
    ))
}

/// An entry for a libFuzzer input (the bytes a `judge`, `reference` or `live` target saved),
/// rebuilt into the same case the target built, judged against the fixture surface. The
/// rule is `rule` when given, else the first rule the reference server fails, else the
/// first rule with an allowed-answer set, else the first rule triggered.
pub fn import_entry(path: &Path, data: &[u8], rule: Option<&str>) -> Result<Entry, CorpusError> {
    let case = mcpdiff_props::fuzz_props::case_from_bytes(data);
    let surface = fixture::surface();
    // an oracle that panics here is the bug the input found: say so instead of crashing
    let verdict = std::panic::catch_unwind(|| judge(&case, &surface))
        .map_err(|_| CorpusError::OraclePanics(path.to_path_buf()))?;
    let record = reference_record(&case, &surface);
    let chosen = match rule {
        Some(r) => r.to_string(),
        None => record
            .failing
            .first()
            .cloned()
            .or_else(|| {
                verdict
                    .answer_sets()
                    .next()
                    .map(|(rule, _)| rule)
                    .or(verdict.rules().next())
                    .map(|rule| rule.0.to_string())
            })
            .unwrap_or_else(|| "NO-RULE".to_string()),
    };
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut e = Entry::new(
        vec![chosen],
        &format!("fuzz import {name}"),
        &case,
        &surface,
    );
    e.record(record);
    Ok(e)
}

/// Import several files into `dir`; one line per file (saved path or error).
pub fn import_files(
    dir: &Path,
    files: &[PathBuf],
    rule: Option<&str>,
) -> Vec<Result<String, CorpusError>> {
    files
        .iter()
        .map(|f| {
            let data = std::fs::read(f).map_err(|e| CorpusError::Read {
                path: f.clone(),
                error: e.to_string(),
            })?;
            let entry = import_entry(f, &data, rule)?;
            let (path, how) = save(dir, &entry)?;
            Ok(format!("{} -> {} ({how:?})", f.display(), path.display()))
        })
        .collect()
}
