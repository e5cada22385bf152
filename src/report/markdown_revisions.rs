//! The per-revision parts of the Markdown review (`markdown.rs`): the summary table's row of
//! one target on one revision, and a target's 2025-11-25 part (its findings by rule, each with
//! the sequence step that broke it and the request to replay).

use super::json::TargetReport;
use super::legacy_view;
use super::markdown::{cell, code, code_cell, fence};
use super::review;
use super::revisions::{RevisionReport, RevisionStatus};
use mcpdiff_oracle::Revision;
use std::fmt::Write;

/// One row of the summary table: `t` on `rev`.
pub(super) fn summary_row(t: &TargetReport, rev: &RevisionReport) -> String {
    let head = format!(
        "| {} | {} | {} | {} |",
        code_cell(&t.name),
        rev.revision,
        cell(rev.status.words()),
        rev.score.map_or("\\-".to_string(), |s| format!("{s:.2}"))
    );
    if rev.status != RevisionStatus::Graded {
        return format!("{head} \\- | \\- | \\- | \\- | \\- |");
    }
    match rev.revision {
        Revision::V2026_07_28 => {
            let sec = review::sections(t);
            let count = |sev: &str| t.findings.iter().filter(|f| f.severity == sev).count();
            format!(
                "{head} {} | {} | {} | {} | {} |",
                count("blocking"),
                sec.security.len(),
                count("advisory"),
                t.not_observed.len(),
                t.passed.len()
            )
        }
        Revision::V2025_11_25 => {
            let (must, should, _, passed) = legacy_view::counts(t);
            format!(
                "{head} {must} | \\- | {should} | {} | {passed} |",
                rev.not_determined
            )
        }
    }
}

/// The 2025-11-25 part of a target: its findings by rule (MUST, then SHOULD), each with the
/// sequence step that broke it and the request to replay.
pub(super) fn legacy(out: &mut String, t: &TargetReport, r: &RevisionReport) {
    let _ = writeln!(out, "\n### {}\n", legacy_view::headline(r));
    let Some(o) = legacy_view::outcome(t).filter(|_| r.status == RevisionStatus::Graded) else {
        return;
    };
    let _ = writeln!(
        out,
        "**score {:.2}** · {} rule(s) checked · {} step(s) · {} not determined\n",
        o.score,
        o.rules_checked.len(),
        o.steps,
        o.not_determined
    );
    let found = legacy_view::legacy_rules(t);
    for (title, blocking) in [
        ("Blocking findings (MUST)", true),
        ("SHOULD findings", false),
    ] {
        let _ = writeln!(out, "\n#### 2025-11-25 {title}\n");
        let mine: Vec<_> = found.iter().filter(|f| f.blocking() == blocking).collect();
        if mine.is_empty() {
            let _ = writeln!(out, "None.");
        }
        for f in mine {
            let _ = writeln!(out, "##### {} {}\n", f.level, code(f.rule));
            let _ = writeln!(out, "- **Spec (2025-11-25):** {}", code(f.spec));
            let _ = writeln!(out, "  > {}", f.sentence.replace('\n', " "));
            let _ = writeln!(out, "- **Expected:** {}", f.first.expected);
            let _ = writeln!(out, "- **Observed:** {}", f.first.observed);
            let _ = writeln!(
                out,
                "- **Steps:** {} step(s) broke it; first at {} (steps: {})\n",
                f.count,
                code(&f.at()),
                f.steps()
            );
            let _ = writeln!(out, "Request:\n");
            fence(out, "http", &f.first.request);
            out.push('\n');
        }
    }
    if !o.rules_checked.is_empty() {
        let ids: Vec<String> = o.rules_checked.iter().map(|p| code(p)).collect();
        let _ = writeln!(out, "\nRules checked: {}", ids.join(", "));
    }
}
