//! The client matrix rendered for the terminal, Markdown and HTML. The Markdown and HTML
//! sections are appended to the run's review when the run had client targets.

use super::clients::{ClientTargetReport, FindingGroup};
use super::html::esc;
use std::fmt::Write;

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn rules_broken(r: &ClientTargetReport) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = r.findings.iter().map(|f| f.rule.0).collect();
    v.dedup();
    v
}

/// One finding group's example on one line (also the terminal form).
fn example(f: &FindingGroup) -> String {
    let e = &f.example;
    format!(
        "{}{}{}; sent {}; allowed {}",
        e.tool
            .as_deref()
            .map(|t| format!("tool {t:?} "))
            .unwrap_or_default(),
        e.header
            .as_deref()
            .map(|h| format!("{h} "))
            .unwrap_or_default(),
        e.detail,
        e.sent
            .as_deref()
            .map_or("nothing".to_string(), |v| format!("{v:?}")),
        serde_json::to_string(&e.allowed).unwrap_or_default()
    )
}

fn repro(f: &FindingGroup) -> Option<String> {
    f.repro.as_ref().map(|r| {
        format!(
            "{} (driver re-run {}): {} arguments {}",
            if r.reproduced {
                "minimal"
            } else {
                "not reproduced alone"
            },
            if r.reproduced {
                "reproduces"
            } else {
                "does not reproduce"
            },
            r.definition,
            r.arguments
                .as_ref()
                .map_or("(none)".to_string(), |a| a.to_string())
        )
    })
}

/// The client section of the Markdown review.
pub fn markdown(rows: &[ClientTargetReport]) -> String {
    let mut o = String::from("\n## Client targets\n\n");
    o.push_str(
        "| client | sdk | era | verdict | kept | wrongly kept | wrongly dropped | requests | rules broken |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for r in rows {
        let _ = writeln!(
            o,
            "| `{}` | {} {} | {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            md_cell(&r.package),
            r.version,
            r.era,
            r.verdict,
            r.kept.as_ref().map_or("-".into(), |k| k.len().to_string()),
            r.wrongly_kept.len(),
            r.wrongly_dropped.len(),
            r.requests,
            md_cell(&rules_broken(r).join(", "))
        );
    }
    for r in rows {
        if r.findings.is_empty() && r.note.is_none() {
            continue;
        }
        let _ = writeln!(o, "\n### `{}`\n", r.name);
        if let Some(n) = &r.note {
            let _ = writeln!(o, "Note: {}\n", md_cell(n));
        }
        for f in &r.findings {
            let _ = writeln!(
                o,
                "- **{} {}** ×{} — {}  \n  > {} ({})",
                f.level,
                f.rule,
                f.count,
                md_cell(&example(f)),
                md_cell(&f.sentence),
                f.spec
            );
            if let Some(line) = repro(f) {
                let _ = writeln!(o, "  \n  {}", md_cell(&line));
            }
        }
    }
    o
}

/// The client section of the HTML report.
pub fn html(rows: &[ClientTargetReport]) -> String {
    let mut o = String::from("<h2 id=\"clients\">Client targets</h2>\n<table><tr><th>client</th><th>sdk</th><th>era</th><th>verdict</th><th>kept</th><th>wrongly kept</th><th>wrongly dropped</th><th>requests</th><th>rules broken</th></tr>\n");
    for r in rows {
        let _ = writeln!(
            o,
            "<tr><td><code>{}</code></td><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&r.name),
            esc(&r.package),
            esc(&r.version),
            esc(&r.era),
            r.verdict,
            r.kept.as_ref().map_or("-".into(), |k| k.len().to_string()),
            esc(&r.wrongly_kept.join(", ")),
            esc(&r.wrongly_dropped.join(", ")),
            r.requests,
            esc(&rules_broken(r).join(", "))
        );
    }
    o.push_str("</table>\n");
    for r in rows {
        for f in &r.findings {
            let _ = writeln!(
                o,
                "<div class=\"finding\"><h3>{} — {} {} ×{}</h3><p>{}</p><blockquote>{} <span class=\"muted\">({})</span></blockquote>{}</div>",
                esc(&r.name),
                f.level,
                esc(f.rule.0),
                f.count,
                esc(&example(f)),
                esc(&f.sentence),
                esc(&f.spec),
                repro(f).map(|l| format!("<pre>{}</pre>", esc(&l))).unwrap_or_default()
            );
        }
    }
    o
}

/// The client matrix for the terminal.
pub fn terminal(rows: &[ClientTargetReport]) -> String {
    let mut s = String::from("\nClient targets (tool set served by the recording server)\n");
    s.push_str(&format!(
        "  {:<16} {:<34} {:>8} {:>6} {:>7} {:>8} {:>6}  {}\n",
        "target", "sdk", "verdict", "kept", "wrongly", "requests", "legacy", "rules broken"
    ));
    for r in rows {
        let kept = r
            .kept
            .as_ref()
            .map_or("-".to_string(), |k| k.len().to_string());
        let wrong = format!("+{}/-{}", r.wrongly_kept.len(), r.wrongly_dropped.len());
        let mut broken: Vec<&str> = r.findings.iter().map(|f| f.rule.0).collect();
        broken.dedup();
        s.push_str(&format!(
            "  {:<16} {:<34} {:>8} {:>6} {:>7} {:>8} {:>6}  {}\n",
            r.name,
            format!("{} {}", r.package, r.version),
            r.verdict.to_string(),
            kept,
            wrong,
            r.requests,
            r.legacy_requests,
            if broken.is_empty() {
                "-".to_string()
            } else {
                broken.join(", ")
            }
        ));
        if let Some(n) = &r.note {
            s.push_str(&format!("      note: {n}\n"));
        }
        for f in &r.findings {
            s.push_str(&format!(
                "      {} {} x{}: {}\n",
                f.level,
                f.rule,
                f.count,
                example(f)
            ));
            if let Some(r) = &f.repro {
                s.push_str(&format!(
                    "        minimal ({}): {} arguments {}\n",
                    if r.reproduced {
                        "re-run reproduces"
                    } else {
                        "not reproduced alone"
                    },
                    r.definition,
                    r.arguments
                        .as_ref()
                        .map_or("(none)".to_string(), |a| a.to_string())
                ));
            }
        }
        for e in r.driver_errors.iter().take(3) {
            s.push_str(&format!("      driver: {e}\n"));
        }
    }
    s
}
