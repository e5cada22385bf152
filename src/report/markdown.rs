//! The review as Markdown (`--markdown PATH`, and what `mcpdiff report` prints): fit for a
//! PR comment, readable as plain text. The summary table has one row per target and
//! revision. Per target: 1. Revision (each revision's status, score and evidence), then one
//! part per revision, 2026-07-28 first: its five sections in a fixed order (Blocking
//! findings (MUST); Security findings; SHOULD findings and deprecated features; Not
//! determined; Passed), then 2025-11-25's findings by rule; then the run's disagreements.
//!
//! Pure: `RunReport` in, `String` out. Never folds "not observed" into "passed".

use super::json::{FindingReport, RunReport, TargetReport};
use super::legacy_view;
use super::markdown_revisions;
use super::review::{self, case_text, why_it_matters};
use super::revisions::{self, RevisionReport, RevisionStatus};
use mcpdiff_oracle::Revision;
use std::fmt::Write;

/// The six section headings, in order (tests check the order).
pub const SECTIONS: [&str; 6] = [
    "1. Revision",
    "2. Blocking findings (MUST)",
    "3. Security findings",
    "4. SHOULD findings and deprecated features",
    "5. Not determined",
    "6. Passed",
];

/// A fenced code block whose fence is longer than any backtick run inside `body`.
pub(super) fn fence(out: &mut String, lang: &str, body: &str) {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let f = "`".repeat((longest + 1).max(3));
    let _ = writeln!(out, "{f}{lang}\n{}\n{f}", body.trim_end_matches('\n'));
}

/// Inline code that survives backticks in `s`.
pub(super) fn code(s: &str) -> String {
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

/// Plain text for a GFM table cell: one line, every ASCII punctuation backslash-escaped
/// (so `|` is `\|` and a `\` can never escape the cell's closing pipe), control bytes
/// spelled out.
pub(super) fn cell(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' | '\t' => o.push(' '),
            c if c.is_ascii_punctuation() => {
                o.push('\\');
                o.push(c);
            }
            c if c.is_control() => {
                let _ = write!(o, "\\u{{{:x}}}", c as u32);
            }
            c => o.push(c),
        }
    }
    o
}

/// A table cell in a code span when `s` can be one there. GFM splits cells before it parses
/// code spans, and inside a code span a backslash is literal, so a value with `|`, `\`, a
/// backtick or a line break is written as escaped plain text instead.
pub(super) fn code_cell(s: &str) -> String {
    if s.is_empty()
        || s.chars()
            .any(|c| matches!(c, '|' | '\\' | '`') || c.is_control())
    {
        cell(s)
    } else {
        format!("`{s}`")
    }
}

pub fn render(r: &RunReport) -> String {
    let mut out = String::new();
    let s = &r.stats;
    let _ = writeln!(out, "# mcpdiff review\n");
    let _ = writeln!(
        out,
        "mcpdiff {} · {} · seed {} · {} cases · {} requests · {:.1} s{}\n",
        r.mcpdiff_version,
        r.schema,
        r.seed,
        s.cases,
        s.requests,
        s.seconds,
        if s.stopped_by_time {
            " · stopped by --max-time"
        } else {
            ""
        }
    );
    // one row per (target, revision): the revisions are scored apart
    let _ = writeln!(
        out,
        "| target | revision | status | score | MUST | security | SHOULD | not determined | passed |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    for t in &r.targets {
        for rev in revisions::of(t) {
            let _ = writeln!(out, "{}", markdown_revisions::summary_row(t, &rev));
        }
    }
    for t in &r.targets {
        target(&mut out, t);
    }
    disagreements(&mut out, r);
    if !r.clients.is_empty() {
        out.push_str(&super::client_matrix::markdown(&r.clients));
    }
    if !r.baseline_stale.is_empty() {
        let _ = writeln!(out, "\n## Stale baseline entries\n");
        for k in &r.baseline_stale {
            let _ = writeln!(
                out,
                "- {} {} no longer reproduces",
                code(&k.target),
                code(k.rule.0)
            );
        }
    }
    out
}

fn target(out: &mut String, t: &TargetReport) {
    let sec = review::sections(t);
    let revs = revisions::of(t);
    let _ = writeln!(out, "\n---\n\n## {} — {}\n", code(&t.name), t.url);
    for n in &t.notes {
        let _ = writeln!(out, "> note: {n}");
    }

    let _ = writeln!(out, "\n### {}\n", SECTIONS[0]);
    let _ = writeln!(
        out,
        "Appears to implement: **{}**\n",
        review::revision_headline(t)
    );
    for r in &revs {
        let _ = writeln!(out, "- **{}**", legacy_view::headline(r));
        for e in legacy_view::evidence_for(t, r.revision) {
            let _ = writeln!(out, "  - {e}");
        }
    }
    if let Some(rev) = &t.revision {
        if !rev.versions.is_empty() {
            let _ = writeln!(
                out,
                "- versions named by the target: {}",
                rev.versions.join(", ")
            );
        }
    }
    if !t.surface.supported_versions.is_empty() {
        let _ = writeln!(
            out,
            "- discovery: supportedVersions {}; {} tool(s), {} resource(s), {} prompt(s)",
            t.surface.supported_versions.join(", "),
            t.surface.tools.len(),
            t.surface.resources,
            t.surface.prompts
        );
    }

    for r in &revs {
        match r.revision {
            Revision::V2026_07_28 => modern(out, t, r, &sec),
            Revision::V2025_11_25 => markdown_revisions::legacy(out, t, r),
        }
    }
}

/// The 2026-07-28 part of a target: sections 2 to 6, by rule.
fn modern(out: &mut String, t: &TargetReport, r: &RevisionReport, sec: &review::Sections<'_>) {
    let _ = writeln!(out, "\n### {}\n", legacy_view::headline(r));
    if r.status == RevisionStatus::Graded {
        let _ = writeln!(
            out,
            "**{}** · {} case(s){}\n",
            review::score_line(t),
            t.cases,
            if t.transport_failures > 0 {
                format!(", {} transport failure(s)", t.transport_failures)
            } else {
                String::new()
            }
        );
    }
    for l in super::undetermined::lines(t) {
        let _ = writeln!(out, "> {l}");
    }
    if r.status == RevisionStatus::NotOffered {
        return;
    }
    let _ = writeln!(out, "\n#### {}\n", SECTIONS[1]);
    let blocking_security: Vec<_> = sec
        .security
        .iter()
        .filter(|f| f.severity == "blocking")
        .collect();
    if sec.blocking.is_empty() && blocking_security.is_empty() {
        let _ = writeln!(out, "None.");
    }
    for f in &sec.blocking {
        finding(out, f);
    }
    for f in blocking_security {
        let _ = writeln!(
            out,
            "- {} {} — security finding, see section 3.",
            f.level,
            code(f.rule.0)
        );
    }

    let _ = writeln!(out, "\n#### {}\n", SECTIONS[2]);
    if sec.security.is_empty() {
        let _ = writeln!(out, "None.");
    }
    for f in &sec.security {
        finding(out, f);
    }

    let _ = writeln!(out, "\n#### {}\n", SECTIONS[3]);
    if sec.should.is_empty() {
        let _ = writeln!(out, "No SHOULD finding.");
    }
    for f in &sec.should {
        finding(out, f);
    }
    if !sec.may.is_empty() {
        let _ = writeln!(out, "\nMAY departures (tallied only, never scored):\n");
        for f in &sec.may {
            let _ = writeln!(out, "- {} — observed {}", code(f.rule.0), code(&f.observed));
        }
    }
    if !sec.observations.is_empty() {
        let _ = writeln!(
            out,
            "\nObservations (the sentence has no RFC 2119 keyword; never scored):\n"
        );
        for f in &sec.observations {
            let _ = writeln!(out, "- {} — observed {}", code(f.rule.0), code(&f.observed));
        }
    }
    let _ = writeln!(out, "\n**Deprecated features still answered:**\n");
    match t.revision.as_ref().map(|r| &r.deprecated) {
        Some(d) if !d.is_empty() => {
            for x in d {
                let _ = writeln!(out, "- {x}");
            }
            let _ = writeln!(
                out,
                "- the HTTP+SSE transport (GET endpoint event): not determined (not probed)"
            );
        }
        Some(_) => {
            let _ = writeln!(
                out,
                "- none seen in `server/discover`; the HTTP+SSE transport (GET endpoint event): \
                 not determined (not probed)"
            );
        }
        None => {
            let _ = writeln!(out, "- not determined (the report has no revision probe)");
        }
    }

    let _ = writeln!(out, "\n#### {}\n", SECTIONS[4]);
    if t.not_observed.is_empty() {
        let _ = writeln!(out, "Every judged rule was exercised.");
    } else {
        let _ = writeln!(
            out,
            "{} rule(s) no case exercised (not passes):\n",
            t.not_observed.len()
        );
        for n in &t.not_observed {
            let _ = writeln!(out, "- {} {} — {}", n.level, code(n.rule.0), n.reason);
        }
    }

    let _ = writeln!(out, "\n#### {}\n", SECTIONS[5]);
    if t.passed.is_empty() {
        let _ = writeln!(out, "None.");
    } else {
        let ids: Vec<String> = t.passed.iter().map(|p| code(p)).collect();
        let _ = writeln!(out, "{} rule(s): {}", t.passed.len(), ids.join(", "));
    }
}

fn finding(out: &mut String, f: &FindingReport) {
    let (family, why) = why_it_matters(f.rule.0);
    let tags = match (f.security, f.baselined) {
        (true, true) => " [security] [baseline]",
        (true, false) => " [security]",
        (false, true) => " [baseline]",
        (false, false) => "",
    };
    let _ = writeln!(
        out,
        "##### {} {} — {family}{tags}\n",
        f.level,
        code(f.rule.0)
    );
    let _ = writeln!(out, "- **Spec:** {}", code(&f.spec));
    let _ = writeln!(out, "  > {}", f.sentence.replace('\n', " "));
    let _ = writeln!(out, "- **Why it matters:** {why}");
    let _ = writeln!(out, "- **Expected:** {}", f.expected);
    let _ = writeln!(out, "- **Observed:** {}", f.observed);
    if let Some(l) = f.original_line() {
        let _ = writeln!(out, "- **Original observation:** {l}");
    }
    let _ = writeln!(
        out,
        "- **Cases:** {} generated case(s) broke it; minimized {} → {} bytes{}{}\n",
        f.count,
        f.original_size,
        f.shrunk_size,
        super::undetermined::shrink_note(f),
        if f.baselined {
            "; known in the baseline (does not fail the run)"
        } else {
            ""
        }
    );
    let _ = writeln!(out, "Reproduce:\n");
    fence(out, "sh", &f.reproducer);
    let _ = writeln!(out, "\nMinimized case:\n");
    fence(out, "http", &case_text(&f.case));
    out.push('\n');
}

fn disagreements(out: &mut String, r: &RunReport) {
    let _ = writeln!(out, "\n---\n\n## Disagreements\n");
    if r.disagreements.is_empty() {
        let _ = writeln!(
            out,
            "None: targets of one case stream that broke no rule answered alike wherever \
             the oracle allows several answers ({} case(s) compared).",
            r.stats.cases
        );
        return;
    }
    let _ = writeln!(
        out,
        "{} case(s) where targets answered differently and the oracle allows each answer \
         (interop risk, not a violation); {} example(s):\n",
        r.stats.disagreements_total,
        r.disagreements.len()
    );
    for d in &r.disagreements {
        let answers: Vec<String> = d
            .answers
            .iter()
            .map(|(k, v)| format!("{}: {}", code(k), v))
            .collect();
        let _ = writeln!(out, "- case #{}: {}", d.case_index, answers.join("; "));
        // the request itself, so the difference can be replayed against each target
        let _ = writeln!(out, "\n  ```http\n{}\n  ```", indent(&case_text(&d.case)));
    }
}

/// `text` with every line indented two spaces (inside a list item).
fn indent(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
