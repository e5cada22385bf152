//! The end of `mcpdiff rules --coverage`: per revision and keyword family, how many rules are
//! judged, observable but not judged yet, and not observable over HTTP
//! (`mcpdiff_oracle::rules::surface_summary`); then the gaps by id and level, and the
//! unobservable rules with their reasons. The JSON form is the same data under `surface`.

use mcpdiff_oracle::rules::surface_summary::RevisionSummary;
use std::io::{self, Write};

pub fn write_surface(out: &mut impl Write, surface: &[RevisionSummary]) -> io::Result<()> {
    writeln!(
        out,
        "\nServer surface: judged / observable but not judged / not observable over HTTP \
         (percent of the observable ones judged)"
    )?;
    writeln!(
        out,
        "{:<12} {:<7} {:>7} {:>11} {:>15} {:>9}",
        "revision", "family", "judged", "unjudged", "not observable", "judged %"
    )?;
    for s in surface {
        for f in &s.families {
            writeln!(
                out,
                "{:<12} {:<7} {:>7} {:>11} {:>15} {:>8.1}%",
                s.revision.as_str(),
                f.family.as_str(),
                f.judged,
                f.observable_unjudged.len(),
                f.not_observable.len(),
                f.judged_percent
            )?;
        }
        if s.observations > 0 {
            writeln!(
                out,
                "{:<12} ({} keyword-less observation rules, in no family)",
                s.revision.as_str(),
                s.observations
            )?;
        }
    }
    for s in surface {
        writeln!(out, "\n{}: observable but not judged", s.revision.as_str())?;
        let mut none = true;
        for g in s.families.iter().flat_map(|f| &f.observable_unjudged) {
            none = false;
            writeln!(out, "  {:<40} {}", g.rule.0, g.level)?;
        }
        if none {
            writeln!(out, "  (none)")?;
        }
        writeln!(out, "{}: not observable over HTTP", s.revision.as_str())?;
        let mut none = true;
        for u in s.families.iter().flat_map(|f| &f.not_observable) {
            none = false;
            writeln!(
                out,
                "  {:<40} {:<10} {}",
                u.rule.0,
                u.level.as_str(),
                u.reason
            )?;
        }
        if none {
            writeln!(out, "  (none)")?;
        }
    }
    Ok(())
}
