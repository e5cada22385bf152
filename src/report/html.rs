//! The HTML report (`--html PATH`): one self-contained file (inline CSS, no script, no
//! network), like Autobahn's matrix: rules × targets, one colour per verdict (pass, MUST
//! fail, SHOULD fail, MAY tallied, not observed); split by protocol revision first: a targets
//! table with one row per (target, revision), then per revision its own matrix and findings
//! (2026-07-28 with the Disagreements; 2025-11-25 from the legacy sequences); the revision each
//! target appears to implement; and for each failing cell the finding: spec sentence,
//! why it matters, a diff of expected vs observed (crate `similar`), the minimized case, the
//! reproducer and the target's full observation.
//!
//! Pure: `RunReport` in, `String` out. Every text from the report is HTML-escaped; URLs
//! appear only as text, never as `href`/`src`, so opening the file makes no request.

pub use super::html_escape::esc;
use super::html_revisions;
use super::json::{FindingReport, RunReport, TargetReport};
use super::review::{self, case_text, why_it_matters, Cell};
use super::revisions::{self, RevisionStatus};
use mcpdiff_oracle::Revision;
use similar::{ChangeTag, TextDiff};
use std::fmt::Write;

const CSS: &str = "
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222}
h1,h2,h3{margin:.8em 0 .3em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}
th.t{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}
td.c{text-align:center;min-width:5em}
td.c a{color:inherit;text-decoration:none;display:block}
.pass{background:#c8efc8}.must{background:#f4a3a3;font-weight:bold}.should{background:#f7d59a}
.may{background:#e6e0f8}.nobs{background:#e4e4e4;color:#505050}.absent{background:#fff;color:#767676}
td.base{outline:2px dashed #555;outline-offset:-3px}
.legend span{display:inline-block;padding:1px 6px;margin:0 2px}
.legend span.base{border:2px dashed #555;padding:0 4px}
.dis td.req{min-width:34em}.dis th{word-break:break-all}
pre{background:#f6f6f6;border:1px solid #ddd;padding:6px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.finding{border-left:5px solid #ccc;padding:.2em 1em;margin:1em 0}
.finding.must{background:none;border-color:#d33;font-weight:normal}.finding.should{background:none;border-color:#e90}
.finding.may{background:none;border-color:#98c}
del{background:#fbb;text-decoration:none}ins{background:#bfb;text-decoration:none}
.diff .d{color:#900}.diff .i{color:#060}
blockquote{margin:.3em 0 .3em 1em;color:#444;border-left:3px solid #ddd;padding-left:.6em}
.muted{color:#606060}
";

/// The anchor of one (target, rule) finding.
pub(super) fn anchor(ti: usize, rule: &str) -> String {
    let id: String = rule
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("f{ti}-{id}")
}

/// A unified diff of expected vs observed with word-level emphasis, as HTML.
pub fn diff(expected: &str, observed: &str) -> String {
    let old = format!("{expected}\n");
    let new = format!("{observed}\n");
    let d = TextDiff::from_lines(&old, &new);
    let mut out = String::from("<pre class=\"diff\">");
    for op in d.ops() {
        for change in d.iter_inline_changes(op) {
            let (sign, class) = match change.tag() {
                ChangeTag::Delete => ("- expected  ", "d"),
                ChangeTag::Insert => ("+ observed  ", "i"),
                ChangeTag::Equal => ("  both      ", "e"),
            };
            let _ = write!(out, "<span class=\"{class}\">{sign}");
            // similar only emphasizes words when the lines are alike; when nothing is
            // emphasized on a changed line, the whole line is the change
            let whole = !change.iter_strings_lossy().any(|(emph, _)| emph);
            for (emph, text) in change.iter_strings_lossy() {
                let emph = emph || whole;
                let text = esc(text.trim_end_matches('\n'));
                match (emph, change.tag()) {
                    (true, ChangeTag::Delete) => {
                        let _ = write!(out, "<del>{text}</del>");
                    }
                    (true, ChangeTag::Insert) => {
                        let _ = write!(out, "<ins>{text}</ins>");
                    }
                    _ => out.push_str(&text),
                }
            }
            out.push_str("</span>\n");
        }
    }
    out.push_str("</pre>");
    out
}

pub fn render(r: &RunReport) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>mcpdiff report (seed {})</title><style>{CSS}</style></head><body>\n",
        r.seed
    );
    let s = &r.stats;
    let _ = writeln!(
        o,
        "<h1>mcpdiff report</h1><p class=\"muted\">mcpdiff {} · {} · seed {} · {} cases · \
         {} requests · {:.1} s{}</p>",
        esc(&r.mcpdiff_version),
        esc(&r.schema),
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
    html_revisions::summary(&mut o, r);
    // split by revision first, then by rule: each revision has its own matrix and findings
    let _ = writeln!(o, "<h2 id=\"r2026-07-28\">2026-07-28</h2>");
    matrix(&mut o, r);
    disagreements(&mut o, r);
    let _ = writeln!(o, "<h3 id=\"findings\">2026-07-28 findings</h3>");
    let mut any = false;
    for (ti, t) in r.targets.iter().enumerate() {
        for f in &t.findings {
            any = true;
            finding(&mut o, ti, t, f);
        }
    }
    if !any {
        let _ = writeln!(o, "<p>No 2026-07-28 finding on any target.</p>");
    }
    html_revisions::legacy_part(&mut o, r);
    if !r.clients.is_empty() {
        o.push_str(&super::client_matrix::html(&r.clients));
    }
    o.push_str("</body></html>\n");
    o
}

fn matrix(o: &mut String, r: &RunReport) {
    let _ = writeln!(
        o,
        "<h3>2026-07-28: rules × targets</h3><p class=\"legend\">Legend: <span class=\"pass\">pass</span> \
         <span class=\"must\">MUST fail</span> <span class=\"should\">SHOULD fail</span> \
         <span class=\"may\">MAY (tallied) / observation</span> <span class=\"nobs\">not observed</span> \
         <span class=\"base\">baselined</span> \
         · a failing cell links to its finding; hover a not-observed cell for the reason.</p>"
    );
    let _ = write!(o, "<table><tr><th>rule</th><th>level</th>");
    for t in &r.targets {
        let _ = write!(
            o,
            "<th class=\"t\" title=\"{}\">{}</th>",
            esc(&t.url),
            esc(&t.name)
        );
    }
    let _ = writeln!(o, "</tr>");
    let not_graded: Vec<Option<&str>> = r
        .targets
        .iter()
        .map(|t| {
            revisions::of(t)
                .into_iter()
                .find(|x| x.revision == Revision::V2026_07_28)
                .filter(|x| x.status != RevisionStatus::Graded)
                .map(|x| x.status.words())
        })
        .collect();
    for rule in review::rules_of(r) {
        let level = review::level_of(&rule).map_or("?", |l| l.as_str());
        let _ = write!(
            o,
            "<tr><td><code>{}</code></td><td>{level}</td>",
            esc(&rule)
        );
        for (ti, t) in r.targets.iter().enumerate() {
            // a target that does not speak 2026-07-28 has no cell there: say why
            if let Some(words) = &not_graded[ti] {
                let _ = write!(o, "<td class=\"c nobs\">{words}</td>");
                continue;
            }
            let c = review::cell(t, &rule);
            let (label, class) = c.label();
            let base = t.findings.iter().any(|f| f.rule.0 == rule && f.baselined);
            let cls = if base {
                format!("c {class} base")
            } else {
                format!("c {class}")
            };
            match c {
                Cell::MustFail | Cell::ShouldFail | Cell::MayFail | Cell::Observed => {
                    let _ = write!(
                        o,
                        "<td class=\"{cls}\"><a href=\"#{}\">{label}</a></td>",
                        anchor(ti, &rule)
                    );
                }
                Cell::NotObserved => {
                    let why = t
                        .not_observed
                        .iter()
                        .find(|n| n.rule.0 == rule)
                        .map_or(String::new(), |n| n.reason.clone());
                    let _ = write!(
                        o,
                        "<td class=\"{cls}\" title=\"{}\">{label}</td>",
                        esc(&why)
                    );
                }
                _ => {
                    let _ = write!(o, "<td class=\"{cls}\">{label}</td>");
                }
            }
        }
        let _ = writeln!(o, "</tr>");
    }
    let _ = writeln!(o, "</table>");
}

fn disagreements(o: &mut String, r: &RunReport) {
    let _ = writeln!(o, "<h3 id=\"disagreements\">Disagreements</h3>");
    if r.disagreements.is_empty() {
        let _ = writeln!(
            o,
            "<p>None: targets of one case stream that broke no rule answered alike wherever \
             the oracle allows several answers.</p>"
        );
        return;
    }
    let _ = writeln!(
        o,
        "<p>{} case(s) where targets answered differently and the oracle allows each answer \
         (interop risk, not a violation); {} example(s):</p>",
        r.stats.disagreements_total,
        r.disagreements.len()
    );
    let _ = write!(o, "<table class=\"dis\"><tr><th>case</th>");
    for t in &r.targets {
        let _ = write!(o, "<th>{}</th>", esc(&t.name));
    }
    let _ = writeln!(o, "<th>request</th></tr>");
    for d in &r.disagreements {
        let _ = write!(o, "<tr><td>#{}</td>", d.case_index);
        for t in &r.targets {
            let a = d.answers.get(&t.name).map_or("-", String::as_str);
            let _ = write!(o, "<td>{}</td>", esc(a));
        }
        let _ = writeln!(
            o,
            "<td class=\"req\"><pre>{}</pre></td></tr>",
            esc(&case_text(&d.case))
        );
    }
    let _ = writeln!(o, "</table>");
}

fn finding(o: &mut String, ti: usize, t: &TargetReport, f: &FindingReport) {
    let class = match f.severity.as_str() {
        "blocking" => "must",
        "advisory" => "should",
        _ => "may",
    };
    let (family, why) = why_it_matters(f.rule.0);
    let obs = serde_json::to_string_pretty(&f.observation).unwrap_or_default();
    let _ = writeln!(
        o,
        "<div class=\"finding {class}\" id=\"{}\"><h3>{} — {} <code>{}</code> ({}){}{}</h3>\
         <p><b>Spec:</b> <code>{}</code></p><blockquote>{}</blockquote>\
         <p><b>Why it matters:</b> {}</p>\
         <p><b>Expected vs observed</b> ({} generated case(s) broke it):</p>{}{}\
         <p><b>Minimized case</b> ({} → {} bytes{}):</p><pre>{}</pre>\
         <p><b>Reproduce:</b></p><pre>{}</pre>\
         <details><summary>Full observation</summary><pre>{}</pre></details></div>",
        anchor(ti, f.rule.0),
        esc(&t.name),
        esc(f.level.as_str()),
        esc(f.rule.0),
        esc(family),
        if f.security { " [security]" } else { "" },
        if f.baselined { " [baseline]" } else { "" },
        esc(&f.spec),
        esc(&f.sentence),
        esc(why),
        f.count,
        diff(&f.expected, &f.observed),
        f.original_line().map_or_else(String::new, |l| format!(
            "<p><b>Original observation:</b> {}</p>",
            esc(&l)
        )),
        f.original_size,
        f.shrunk_size,
        super::undetermined::shrink_note(f),
        esc(&case_text(&f.case)),
        esc(&f.reproducer),
        esc(&obs)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_marks_both_sides() {
        let d = diff("403", "202 - empty");
        assert!(d.contains("- expected"), "{d}");
        assert!(d.contains("+ observed"), "{d}");
        assert!(d.contains("202 - empty"), "{d}");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<a href='x'>&</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"
        );
    }
}
