//! The terminal summary of a run: per target the score, findings by level with rule, spec
//! citation, expected vs observed and a reproducer, and what was not observed.

use super::json::{RunReport, TargetReport};
use super::legacy_view;
use super::revisions::{self, RevisionReport, RevisionStatus};
use super::undetermined;
use mcpdiff_oracle::Revision;
use std::fmt::Write;

/// Render the summary. `verbose` prints passed rules and every not-observed reason.
pub fn render(r: &RunReport, verbose: bool) -> String {
    let mut out = String::new();
    for t in &r.targets {
        target(&mut out, t, verbose);
    }
    if !r.disagreements.is_empty() {
        let _ = writeln!(
            out,
            "\nDisagreements (targets with the same surface answered differently where the \
             oracle allows it): {} case(s), {} pattern(s) kept",
            r.stats.disagreements_total,
            r.disagreements.len()
        );
        for d in r.disagreements.iter().take(10) {
            let answers: Vec<String> = d.answers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            let _ = writeln!(out, "  case #{}: {}", d.case_index, answers.join("; "));
        }
    }
    let s = &r.stats;
    let _ = writeln!(
        out,
        "\n{} cases, {} requests in {:.1} s ({:.0} cases/s), seed {}{}",
        s.cases,
        s.requests,
        s.seconds,
        s.cases_per_second,
        r.seed,
        if s.stopped_by_time {
            " (stopped by --max-time)"
        } else {
            ""
        }
    );
    out
}

fn target(out: &mut String, t: &TargetReport, verbose: bool) {
    if undetermined::is_untested(t) {
        let _ = writeln!(out, "\n== {}  {}", t.name, t.url);
        for l in undetermined::lines(t) {
            let _ = writeln!(out, "   {l}");
        }
        return;
    }
    let _ = writeln!(out, "\n== {}  {}", t.name, t.url);
    target_lines(out, t);
    for (i, r) in revisions::of(t).iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match r.revision {
            Revision::V2026_07_28 => modern(out, t, r, verbose),
            Revision::V2025_11_25 => legacy(out, t, r),
        }
    }
}

/// The target's lines every revision shares: TLS, notes, the `--tools` comparison.
fn target_lines(out: &mut String, t: &TargetReport) {
    match &t.tls {
        Some(tls) if !tls.verified => {
            let _ = writeln!(out, "   TLS: certificate NOT verified (--insecure)");
        }
        Some(tls) => {
            let by = tls.cacert.as_deref().unwrap_or("the built-in webpki roots");
            let _ = writeln!(out, "   TLS: certificate verified against {by}");
        }
        None => {}
    }
    for n in &t.notes {
        let _ = writeln!(out, "   note: {n}");
    }
    if let Some(c) = &t.toolset {
        toolset_lines(out, c);
    }
}

/// The 2026-07-28 section: the generated cases' findings, by rule.
fn modern(out: &mut String, t: &TargetReport, r: &RevisionReport, verbose: bool) {
    if r.status != RevisionStatus::Graded {
        let _ = writeln!(out, "   {}", legacy_view::headline(r));
        for l in undetermined::lines(t) {
            let _ = writeln!(out, "   {l}");
        }
        return;
    }
    let count = |severity: &str| t.findings.iter().filter(|f| f.severity == severity).count();
    let (blocking, advisory, optional) = (count("blocking"), count("advisory"), count("optional"));
    let _ = writeln!(
        out,
        "   {}   {} MUST finding(s), {} SHOULD finding(s){}, {} rule(s) passed, {} not observed, {} case(s){}",
        legacy_view::headline(r),
        blocking,
        advisory,
        // (a MAY's bound broken is tallied, never scored: named only when there is one)
        if optional > 0 {
            format!(", {optional} MAY finding(s)")
        } else {
            String::new()
        },
        t.passed.len(),
        t.not_observed.len(),
        t.cases,
        if t.transport_failures > 0 {
            format!(", {} transport failure(s)", t.transport_failures)
        } else {
            String::new()
        }
    );
    for l in undetermined::lines(t) {
        let _ = writeln!(out, "   {l}");
    }
    for f in &t.findings {
        let tag = if f.baselined { " [baseline]" } else { "" };
        let sec = if f.security { " [security]" } else { "" };
        let _ = writeln!(
            out,
            "\n   {} {}{}{}  ({}; {} case(s))\n     spec: {}\n     \"{}\"\n     expected: {}\n     observed: {}{}\n     reproduce ({} → {} bytes{}):\n       {}",
            f.level,
            f.rule,
            sec,
            tag,
            f.severity,
            f.count,
            f.spec,
            f.sentence,
            f.expected,
            f.observed,
            f.original_line()
                .map_or_else(String::new, |l| format!("\n     original: {l}")),
            f.original_size,
            f.shrunk_size,
            undetermined::shrink_note(f),
            f.reproducer.replace('\n', "\n       ")
        );
    }
    if !t.not_observed.is_empty() {
        if verbose {
            let _ = writeln!(out, "\n   not observed:");
            for n in &t.not_observed {
                let _ = writeln!(out, "     {} {}: {}", n.level, n.rule, n.reason);
            }
        } else {
            let ids: Vec<&str> = t.not_observed.iter().map(|n| n.rule.0).collect();
            let _ = writeln!(
                out,
                "\n   not observed: {} (use --verbose for reasons)",
                ids.join(", ")
            );
        }
    }
    if verbose && !t.passed.is_empty() {
        let _ = writeln!(out, "\n   passed: {}", t.passed.join(", "));
    }
}

/// The 2025-11-25 section: the legacy sequences' findings, by rule.
fn legacy(out: &mut String, t: &TargetReport, r: &RevisionReport) {
    let (Some(o), RevisionStatus::Graded) = (legacy_view::outcome(t), r.status) else {
        let _ = writeln!(out, "   {}", legacy_view::headline(r));
        return;
    };
    let found = legacy_view::legacy_rules(t);
    let must = found.iter().filter(|f| f.blocking()).count();
    let _ = writeln!(
        out,
        "   {}   {} MUST finding(s), {} SHOULD finding(s), {} rule(s) checked, {} step(s), {} not determined",
        legacy_view::headline(r),
        must,
        found.iter().filter(|f| f.severity() == "advisory").count(),
        o.rules_checked.len(),
        o.steps,
        o.not_determined
    );
    for f in &found {
        let _ = writeln!(
            out,
            "\n   {} {}{}  ({}; {} step(s))\n     spec: {}\n     \"{}\"\n     expected: {}\n     observed: {}\n     at {}; steps: {}\n     request:\n       {}",
            f.level,
            f.rule,
            if f.baselined() { " [baseline]" } else { "" },
            f.severity(),
            f.count,
            f.spec,
            f.sentence,
            f.first.expected,
            f.first.observed,
            f.at(),
            f.steps(),
            f.first.request.trim_end().replace('\n', "\n       ")
        );
    }
}

/// What the target made of `run --tools FILE` (names listed up to a few per kind).
fn toolset_lines(out: &mut String, c: &mcpdiff_oracle::toolset::PublishedCheck) {
    const SHOWN: usize = 6;
    let names = |v: &[String]| {
        let mut s = v.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
        if v.len() > SHOWN {
            s.push_str(&format!(", ... ({} more)", v.len() - SHOWN));
        }
        s
    };
    let _ = writeln!(out, "   {}", c.summary());
    if !c.valid_missing.is_empty() {
        let _ = writeln!(out, "     valid tools missing: {}", names(&c.valid_missing));
    }
    for r in c.relabelled.iter().take(SHOWN) {
        let _ = writeln!(
            out,
            "     relabelled {}: file {} -> published {}",
            r.tool, r.file, r.published
        );
    }
    if !c.invalid_published.is_empty() {
        let listed: Vec<String> = c.invalid_published.iter().map(|i| i.tool.clone()).collect();
        let _ = writeln!(
            out,
            "     invalid tools published (clients MUST drop them): {}",
            names(&listed)
        );
    }
}
