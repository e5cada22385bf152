//! The per-revision parts of the HTML report (`html.rs`): the targets table, one row per
//! target and protocol revision (status, score, counts), and the 2025-11-25 part (its rules ×
//! targets matrix and its findings by rule, from the legacy sequences).

use super::html::{anchor, diff, esc};
use super::json::RunReport;
use super::legacy_view;
use super::review;
use super::revisions::{self, RevisionStatus};
use mcpdiff_oracle::Revision;
use std::fmt::Write;

/// The targets table: one row per (target, revision), then each target's era and evidence.
pub(super) fn summary(o: &mut String, r: &RunReport) {
    let _ = writeln!(
        o,
        "<h2>Targets</h2><table><tr><th>target</th><th>endpoint</th><th>revision</th>\
         <th>status</th><th>score</th><th>MUST</th><th>SHOULD</th><th>not observed</th>\
         <th>passed</th></tr>"
    );
    for t in &r.targets {
        let revs = revisions::of(t);
        for (i, rev) in revs.iter().enumerate() {
            let head = if i == 0 {
                format!(
                    "<td rowspan=\"{}\"><b>{}</b></td><td rowspan=\"{}\"><code>{}</code></td>",
                    revs.len(),
                    esc(&t.name),
                    revs.len(),
                    esc(&t.url)
                )
            } else {
                String::new()
            };
            let status = format!(
                "{}{}",
                esc(rev.status.words()),
                rev.reason.as_ref().map_or_else(String::new, |w| format!(
                    "<br><span class=\"muted\">{}</span>",
                    esc(w)
                ))
            );
            let counts = match (rev.status, rev.revision) {
                (RevisionStatus::Graded, Revision::V2026_07_28) => {
                    let count = |sev: &str| t.findings.iter().filter(|f| f.severity == sev).count();
                    format!(
                        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                        count("blocking"),
                        count("advisory"),
                        t.not_observed.len(),
                        t.passed.len()
                    )
                }
                (RevisionStatus::Graded, Revision::V2025_11_25) => {
                    let (must, should, _, passed) = legacy_view::counts(t);
                    format!(
                        "<td>{must}</td><td>{should}</td><td>{}</td><td>{passed}</td>",
                        rev.not_determined
                    )
                }
                _ => "<td>-</td><td>-</td><td>-</td><td>-</td>".to_string(),
            };
            let score = match rev.score {
                Some(x) => format!(
                    "<td class=\"{}\">{x:.2}</td>",
                    if x == 0.0 {
                        "must"
                    } else if x < 1.0 {
                        "should"
                    } else {
                        "pass"
                    }
                ),
                None => "<td class=\"nobs\">-</td>".to_string(),
            };
            let _ = writeln!(
                o,
                "<tr>{head}<td>{}</td><td>{status}</td>{score}{counts}</tr>",
                rev.revision
            );
        }
    }
    let _ = writeln!(o, "</table>");
    for t in &r.targets {
        let era = match &t.revision {
            Some(v) => esc(v.verdict.describe()),
            None => "not determined".to_string(),
        };
        let _ = writeln!(
            o,
            "<p class=\"muted\">{}: appears to implement {era}; {}</p>",
            esc(&t.name),
            esc(&review::score_line(t))
        );
        for rev in revisions::of(t) {
            let ev = legacy_view::evidence_for(t, rev.revision);
            if !ev.is_empty() {
                let _ = writeln!(
                    o,
                    "<p class=\"muted\">{} {}: {}</p>",
                    esc(&t.name),
                    rev.revision,
                    ev.iter().map(|e| esc(e)).collect::<Vec<_>>().join("<br>")
                );
            }
        }
        for l in super::undetermined::lines(t) {
            let _ = writeln!(o, "<p class=\"muted\">{}: {}</p>", esc(&t.name), esc(&l));
        }
    }
}

/// The 2025-11-25 part: rules × targets of the legacy sequences, then their findings.
pub(super) fn legacy_part(o: &mut String, r: &RunReport) {
    let _ = writeln!(o, "<h2 id=\"r2025-11-25\">2025-11-25</h2>");
    let mut ids: Vec<String> = Vec::new();
    for t in &r.targets {
        if let Some(out) = legacy_view::outcome(t) {
            let broken = out.findings.iter().map(|f| &f.rule);
            for id in out.rules_checked.iter().chain(broken) {
                if !ids.contains(id) {
                    ids.push(id.clone());
                }
            }
        }
    }
    ids.sort();
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
    let revs: Vec<_> = r
        .targets
        .iter()
        .map(|t| {
            revisions::of(t)
                .into_iter()
                .find(|x| x.revision == Revision::V2025_11_25)
        })
        .collect();
    for id in &ids {
        let level = review::level_of(id).map_or("?", |l| l.as_str());
        let _ = write!(o, "<tr><td><code>{}</code></td><td>{level}</td>", esc(id));
        for (ti, t) in r.targets.iter().enumerate() {
            let graded = revs[ti]
                .as_ref()
                .is_some_and(|x| x.status == RevisionStatus::Graded);
            let found = legacy_view::legacy_rules(t)
                .into_iter()
                .find(|f| f.rule == id);
            let checked = legacy_view::outcome(t).is_some_and(|x| x.rules_checked.contains(id));
            let _ = match (graded, found) {
                (true, Some(f)) => write!(
                    o,
                    "<td class=\"c {}\"><a href=\"#{}\">{} fail</a></td>",
                    if f.blocking() { "must" } else { "should" },
                    anchor(ti, &format!("L2025-{id}")),
                    esc(f.level)
                ),
                (true, None) if checked => write!(o, "<td class=\"c pass\">pass</td>"),
                (true, None) => write!(o, "<td class=\"c absent\">-</td>"),
                (false, _) => write!(
                    o,
                    "<td class=\"c nobs\">{}</td>",
                    revs[ti].as_ref().map_or("-", |x| x.status.words())
                ),
            };
        }
        let _ = writeln!(o, "</tr>");
    }
    let _ = writeln!(o, "</table>");
    let _ = writeln!(o, "<h3>2025-11-25 findings</h3>");
    let mut any = false;
    for (ti, t) in r.targets.iter().enumerate() {
        for f in legacy_view::legacy_rules(t) {
            any = true;
            let _ = writeln!(
                o,
                "<div class=\"finding {}\" id=\"{}\"><h3>{} — {} <code>{}</code> (2025-11-25)</h3>\
                 <p><b>Spec (2025-11-25):</b> <code>{}</code></p><blockquote>{}</blockquote>\
                 <p><b>Expected vs observed</b> ({} step(s) broke it; first at <code>{}</code>):</p>{}\
                 <p><b>Steps</b> (the last one broke it): {}</p><p><b>Request:</b></p><pre>{}</pre></div>",
                if f.blocking() { "must" } else { "should" },
                anchor(ti, &format!("L2025-{}", f.rule)),
                esc(&t.name),
                esc(f.level),
                esc(f.rule),
                esc(f.spec),
                esc(f.sentence),
                f.count,
                esc(&f.at()),
                diff(&f.first.expected, &f.first.observed),
                esc(&f.steps()),
                esc(&f.first.request)
            );
        }
    }
    if !any {
        let _ = writeln!(o, "<p>No 2025-11-25 finding on any target.</p>");
    }
}
