//! `mcpdiff rules`: print the oracle's rule table.
//!
//! Human form: one block per rule (id, level, flags, spec section, summary), wrapped to the
//! terminal width (`COLUMNS`, default 100). `--level` filters by keyword family, `--id` prints
//! one rule in full (with its verbatim sentence), `--json` prints a JSON array of rule objects
//! (`id`, `level`, `derived`, `spec`, `sentence`, `summary`, `judged`, `revision`); every
//! revision's table is listed (2026-07-28 first, then the 2025-11-25 `L-*` rules),
//! `--revision` keeps one; `--coverage` lists
//! isolation coverage instead (`rules_coverage.rs`). Output goes through a
//! locked stdout; a closed pipe (`mcpdiff rules | head`) ends the command quietly.

use super::exit::{self, fail};
use mcpdiff_oracle::rules::{all_rules, Level, Revision, Rule};
use std::io::{self, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RulesArgs {
    /// Print a JSON array of objects (id, level, spec, sentence, ...) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Only rules of this keyword family (`must` = MUST and MUST NOT, and so on).
    #[arg(long, value_enum)]
    pub level: Option<LevelFilter>,
    /// Print only this rule, in full (e.g. `SHTTP-HDR-ERR-32020`; case-insensitive).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// Per judged rule, how many probes and how many generated cases per 1,000 isolate it
    /// (it alone decides the expected answer), on the fixture surface with the default
    /// generator (seed 1, 10,000 cases). Pure: nothing is sent.
    #[arg(long)]
    pub coverage: bool,
    /// Only the rules of this protocol revision (`2026-07-28` or `2025-11-25`).
    #[arg(long, value_parser = parse_revision, value_name = "REVISION")]
    pub revision: Option<Revision>,
}

/// `--revision`: one of the revisions the oracle has a table for.
/// Err is a String because clap prints it as the value's error line (`value_parser`).
fn parse_revision(text: &str) -> Result<Revision, String> {
    Revision::ALL
        .into_iter()
        .find(|r| r.as_str() == text.trim())
        .ok_or_else(|| {
            let known: Vec<&str> = Revision::ALL.iter().map(|r| r.as_str()).collect();
            format!("unknown revision {text:?}; use one of {}", known.join(", "))
        })
}

/// A keyword family for `--level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LevelFilter {
    /// MUST and MUST NOT.
    Must,
    /// SHOULD and SHOULD NOT.
    Should,
    /// MAY.
    May,
    /// No RFC 2119 keyword: observations only.
    Observation,
}

impl LevelFilter {
    fn admits(self, level: Level) -> bool {
        match self {
            LevelFilter::Must => matches!(level, Level::Must | Level::MustNot),
            LevelFilter::Should => matches!(level, Level::Should | Level::ShouldNot),
            LevelFilter::May => level == Level::May,
            LevelFilter::Observation => level == Level::Observation,
        }
    }
}

pub fn run(args: RulesArgs) -> ExitCode {
    if args.coverage {
        return super::rules_coverage::run(args.json);
    }
    // `match` rather than `Option::is_none_or`, which is newer than the workspace's rust-version.
    let selected: Vec<&Rule> = all_rules()
        .filter(|r| match args.revision {
            Some(v) => r.revision() == v,
            None => true,
        })
        .filter(|r| match args.level {
            Some(f) => f.admits(r.level),
            None => true,
        })
        .filter(|r| match args.id.as_deref() {
            Some(id) => r.id.0.eq_ignore_ascii_case(id.trim()),
            None => true,
        })
        .collect();
    if let Some(id) = &args.id {
        if selected.is_empty() {
            return fail(&format!(
                "no rule with id {id:?} (see `mcpdiff rules` for the list)"
            ));
        }
    }

    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        write_json(&mut out, &selected)
    } else if args.id.is_some() {
        selected
            .iter()
            .try_for_each(|r| write_full(&mut out, r, width()))
    } else {
        write_table(&mut out, &selected, width())
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`| head`): nothing left to do, and nothing to complain about.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => exit::fail_with(
            "",
            exit::FOUND,
            &format!("could not write the rule table: {e}"),
        ),
    }
}

/// Output width: `COLUMNS` if it is a sensible number, else 100.
fn width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|w| (40..=400).contains(w))
        .unwrap_or(100)
}

/// A rule as `--json` prints it: its row and the revision of the table holding it.
#[derive(serde::Serialize)]
struct RuleOut<'a> {
    #[serde(flatten)]
    rule: &'a Rule,
    revision: Revision,
}

fn write_json(out: &mut impl Write, rules: &[&Rule]) -> io::Result<()> {
    let rows: Vec<RuleOut<'_>> = rules
        .iter()
        .map(|&rule| RuleOut {
            rule,
            revision: rule.revision(),
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &rows).map_err(io::Error::from)?;
    writeln!(out)
}

fn flags(r: &Rule) -> String {
    let mut f = Vec::new();
    if r.revision() != Revision::V2026_07_28 {
        f.push(r.revision().as_str());
    }
    if r.derived {
        f.push("derived");
    }
    if r.judged {
        f.push("judged");
    }
    if f.is_empty() {
        String::new()
    } else {
        format!("  [{}]", f.join(", "))
    }
}

fn write_table(out: &mut impl Write, rules: &[&Rule], width: usize) -> io::Result<()> {
    const INDENT: &str = "    ";
    for r in rules {
        writeln!(out, "{}  {}{}", r.id, r.level.as_str(), flags(r))?;
        for line in wrap(r.spec, width - INDENT.len()) {
            writeln!(out, "{INDENT}{line}")?;
        }
        for line in wrap(r.summary, width - INDENT.len()) {
            writeln!(out, "{INDENT}{line}")?;
        }
    }
    let musts = rules
        .iter()
        .filter(|r| LevelFilter::Must.admits(r.level))
        .count();
    let shoulds = rules
        .iter()
        .filter(|r| LevelFilter::Should.admits(r.level))
        .count();
    let observations = rules
        .iter()
        .filter(|r| LevelFilter::Observation.admits(r.level))
        .count();
    let mays = rules.len() - musts - shoulds - observations;
    writeln!(
        out,
        "\n{} rules: {musts} MUST/MUST NOT, {shoulds} SHOULD/SHOULD NOT, {mays} MAY, \
         {observations} OBSERVATION (no keyword)",
        rules.len()
    )
}

fn write_full(out: &mut impl Write, r: &Rule, width: usize) -> io::Result<()> {
    const LABEL: usize = 10;
    let field = |out: &mut dyn Write, label: &str, text: &str| -> io::Result<()> {
        for (i, line) in wrap(text, width.saturating_sub(LABEL).max(20))
            .into_iter()
            .enumerate()
        {
            let head = if i == 0 { label } else { "" };
            writeln!(out, "{head:<LABEL$}{line}")?;
        }
        Ok(())
    };
    field(out, "id", r.id.0)?;
    let level = format!(
        "{} ({}){}",
        r.level.as_str(),
        r.level.severity().as_str(),
        if r.derived {
            ", derived: no keyword in the sentence itself"
        } else {
            ""
        }
    );
    field(out, "level", &level)?;
    field(out, "judged", if r.judged { "yes" } else { "no" })?;
    field(out, "revision", r.revision().as_str())?;
    field(out, "spec", r.spec)?;
    field(out, "sentence", r.sentence)?;
    field(out, "summary", r.summary)?;
    writeln!(out)
}

/// Greedy word wrap; a word longer than `width` gets a line of its own.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_respects_width() {
        let lines = wrap("aaa bbb ccc ddd", 7);
        assert_eq!(lines, ["aaa bbb", "ccc ddd"]);
        assert_eq!(wrap("", 10), [""]);
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            ["averyveryverylongword", "x"]
        );
    }

    #[test]
    fn level_filter_families() {
        assert!(LevelFilter::Must.admits(Level::MustNot));
        assert!(LevelFilter::Should.admits(Level::ShouldNot));
        assert!(!LevelFilter::May.admits(Level::Should));
    }
}
