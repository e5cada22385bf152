//! JUnit XML (`--junit PATH`) for CI dashboards: one `<testsuite>` per target and protocol
//! revision (`TARGET [2026-07-28]`, `TARGET [2025-11-25]`), one `<testcase>` per judged rule
//! of that revision (classname = target name, name = rule id). A revision not graded (not
//! offered, not determined) is a suite with no test case and its reason in `<system-out>`.
//!
//! - MUST finding outside the baseline: `<failure>`.
//! - SHOULD finding: `<failure>` only with `strict`; otherwise a passing test case whose
//!   `<system-out>` carries the finding, so CI shows it without going red.
//! - MAY departure and baselined finding: passing, noted in `<system-out>`.
//! - Rule not observed: `<skipped>` with the reason (never a pass).
//!
//! Pure: `RunReport` in, `String` out. Text is escaped for XML 1.0, including the control
//! bytes a fuzzed case may carry (they are not allowed in XML at all, even as references).

use super::json::{FindingReport, RunReport, TargetReport};
use super::legacy_view;
use super::review::{self, case_text, why_it_matters, Cell};
use super::revisions::{self, RevisionStatus};
use mcpdiff_oracle::Revision;
use std::fmt::Write;

/// Escape text for an XML attribute or element; characters XML 1.0 forbids become `\u{..}`
/// spelled out, so the document always parses.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\t' | '\n' | '\r' => o.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(o, "\\u{{{:x}}}", c as u32);
            }
            c => o.push(c),
        }
    }
    o
}

/// What one test case says.
enum TestcaseOutcome {
    Fail(String, String),
    Note(String),
    Skip(String),
    Pass,
}

fn detail(t: &TargetReport, f: &FindingReport) -> String {
    let (family, why) = why_it_matters(f.rule.0);
    format!(
        "{} {} ({family}) on {} {}\nspec: {}\n\"{}\"\nwhy it matters: {why}\nexpected: {}\nobserved: {}\n{}\
         cases: {} (minimized {} -> {} bytes{})\nreproduce:\n{}\nminimized case:\n{}\n",
        f.level,
        f.rule,
        t.name,
        t.url,
        f.spec,
        f.sentence,
        f.expected,
        f.observed,
        f.original_line()
            .map_or_else(String::new, |l| format!("original: {l}\n")),
        f.count,
        f.original_size,
        f.shrunk_size,
        super::undetermined::shrink_note(f),
        f.reproducer,
        case_text(&f.case)
    )
}

fn outcome(t: &TargetReport, rule: &str, strict: bool) -> TestcaseOutcome {
    let f = t.findings.iter().find(|f| f.rule.0 == rule);
    match (review::cell(t, rule), f) {
        (Cell::MustFail, Some(f)) if !f.baselined => TestcaseOutcome::Fail(
            format!(
                "{}: expected {}, observed {}",
                f.level, f.expected, f.observed
            ),
            detail(t, f),
        ),
        (Cell::ShouldFail, Some(f)) if strict && !f.baselined => TestcaseOutcome::Fail(
            format!(
                "{} (--strict): expected {}, observed {}",
                f.level, f.expected, f.observed
            ),
            detail(t, f),
        ),
        (Cell::MustFail | Cell::ShouldFail | Cell::MayFail | Cell::Observed, Some(f)) => {
            TestcaseOutcome::Note(format!(
                "{}{}",
                if f.baselined {
                    "known finding (baseline), does not fail the run\n"
                } else if f.severity == "optional" {
                    "MAY departure, tallied only\n"
                } else if f.severity == "observation" {
                    "observation (the sentence has no RFC 2119 keyword), never fails the run\n"
                } else {
                    "SHOULD finding, not failing without --strict\n"
                },
                detail(t, f)
            ))
        }
        (Cell::Undetermined, _) => TestcaseOutcome::Skip(
            super::undetermined::rule_reason(t, rule).unwrap_or_else(|| "not determined".into()),
        ),
        (Cell::NotObserved, _) => TestcaseOutcome::Skip(
            t.not_observed
                .iter()
                .find(|n| n.rule.0 == rule)
                .map_or_else(String::new, |n| format!("not observed: {}", n.reason)),
        ),
        _ => TestcaseOutcome::Pass,
    }
}

/// One suite's test cases and counts.
#[derive(Default)]
struct Suite {
    cases: String,
    tests: usize,
    fail: usize,
    skip: usize,
}

impl Suite {
    fn push(&mut self, t: &TargetReport, rule: &str, level: &str, outcome: TestcaseOutcome) {
        self.tests += 1;
        let open = format!(
            "    <testcase classname=\"{}\" name=\"{}\"",
            esc(&t.name),
            esc(rule)
        );
        match outcome {
            TestcaseOutcome::Fail(msg, body) => {
                self.fail += 1;
                let _ = writeln!(
                    self.cases,
                    "{open}>\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                    esc(&msg),
                    esc(level),
                    esc(&body)
                );
            }
            TestcaseOutcome::Note(text) => {
                let _ = writeln!(
                    self.cases,
                    "{open}>\n      <system-out>{}</system-out>\n    </testcase>",
                    esc(&text)
                );
            }
            TestcaseOutcome::Skip(reason) => {
                self.skip += 1;
                let _ = writeln!(
                    self.cases,
                    "{open}>\n      <skipped message=\"{}\"/>\n    </testcase>",
                    esc(&reason)
                );
            }
            TestcaseOutcome::Pass => {
                let _ = writeln!(self.cases, "{open}/>");
            }
        }
    }
}

/// The 2026-07-28 suite of `t`: one test case per judged rule.
fn modern_suite(t: &TargetReport, rules: &[String], strict: bool) -> Suite {
    let mut suite = Suite::default();
    for rule in rules {
        if review::cell(t, rule) == Cell::Absent {
            continue;
        }
        let level = review::level_of(rule).map_or("MUST".into(), |l| l.as_str().to_string());
        suite.push(t, rule, &level, outcome(t, rule, strict));
    }
    suite
}

/// The 2025-11-25 suite of `t`: one test case per rule the legacy sequences checked or broke.
fn legacy_suite(t: &TargetReport, strict: bool) -> Suite {
    let mut suite = Suite::default();
    let Some(o) = legacy_view::outcome(t) else {
        return suite;
    };
    let found = legacy_view::legacy_rules(t);
    let mut ids: Vec<&str> = o.rules_checked.iter().map(String::as_str).collect();
    for f in &found {
        if !ids.contains(&f.rule) {
            ids.push(f.rule);
        }
    }
    for id in ids {
        let Some(f) = found.iter().find(|f| f.rule == id) else {
            let level = review::level_of(id).map_or("MUST", |l| l.as_str());
            suite.push(t, id, level, TestcaseOutcome::Pass);
            continue;
        };
        let body = format!(
            "{} {} (2025-11-25) on {} {}\nspec: {}\n\"{}\"\nexpected: {}\nobserved: {}\n\
             steps that broke it: {}; first at {} (steps: {})\nrequest:\n{}\n",
            f.level,
            f.rule,
            t.name,
            t.url,
            f.spec,
            f.sentence,
            f.first.expected,
            f.first.observed,
            f.count,
            f.at(),
            f.steps(),
            f.first.request
        );
        let msg = format!(
            "{}{}: expected {}, observed {}",
            f.level,
            if f.blocking() { "" } else { " (--strict)" },
            f.first.expected,
            f.first.observed
        );
        let outcome = if f.baselined() {
            TestcaseOutcome::Note(format!(
                "known finding (baseline), does not fail the run\n{body}"
            ))
        } else if f.blocking() || (strict && f.severity() == "advisory") {
            TestcaseOutcome::Fail(msg, body)
        } else {
            TestcaseOutcome::Note(format!(
                "SHOULD finding, not failing without --strict\n{body}"
            ))
        };
        suite.push(t, id, f.level, outcome);
    }
    suite
}

/// One `<testsuite>` per target and revision (`TARGET [REVISION]`), 2026-07-28 first: a
/// revision not graded has no test case, and says why in its properties and output.
pub fn render(r: &RunReport, strict: bool) -> String {
    let rules = review::rules_of(r);
    let mut suites = String::new();
    let (mut all_tests, mut all_fail, mut all_skip) = (0usize, 0usize, 0usize);
    for t in &r.targets {
        let era = t
            .revision
            .as_ref()
            .map_or("not determined".to_string(), |v| {
                v.verdict.short().to_string()
            });
        for rev in revisions::of(t) {
            let graded = rev.status == RevisionStatus::Graded;
            let suite = match (graded, rev.revision) {
                (false, _) => Suite::default(),
                (true, Revision::V2026_07_28) => modern_suite(t, &rules, strict),
                (true, Revision::V2025_11_25) => legacy_suite(t, strict),
            };
            let (cases, score) = match rev.revision {
                Revision::V2026_07_28 => (t.cases, rev.score),
                Revision::V2025_11_25 => (
                    legacy_view::outcome(t).map_or(0, |o| o.steps as u64),
                    rev.score,
                ),
            };
            let out = match (&rev.reason, graded) {
                (Some(why), false) => format!(
                    "    <system-out>{}: {}</system-out>\n",
                    rev.status.words(),
                    esc(why)
                ),
                _ => String::new(),
            };
            let _ = write!(
                suites,
                "  <testsuite name=\"{} [{}]\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n    \
                 <properties>\n      <property name=\"url\" value=\"{}\"/>\n      \
                 <property name=\"spec-revision\" value=\"{}\"/>\n      \
                 <property name=\"status\" value=\"{}\"/>\n      \
                 <property name=\"score\" value=\"{}\"/>\n      \
                 <property name=\"revision\" value=\"{}\"/>\n      \
                 <property name=\"cases\" value=\"{}\"/>\n    </properties>\n{}{out}  </testsuite>\n",
                esc(&t.name),
                rev.revision,
                suite.tests,
                suite.fail,
                suite.skip,
                esc(&t.url),
                rev.revision,
                rev.status.words(),
                score.map_or_else(|| "none".to_string(), |s| format!("{s:.4}")),
                esc(&era),
                cases,
                suite.cases
            );
            all_tests += suite.tests;
            all_fail += suite.fail;
            all_skip += suite.skip;
        }
    }
    // the root carries no `skipped` count: the Jenkins/Ant schema (tests/data/junit.xsd)
    // allows it only per <testsuite>, so the total goes in a comment for humans
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- mcpdiff: {all_tests} tests, {all_fail} failures, \
         {all_skip} skipped (not observed) -->\n<testsuites name=\"mcpdiff\" tests=\"{all_tests}\" \
         failures=\"{all_fail}\" errors=\"0\" time=\"{:.3}\">\n{suites}</testsuites>\n",
        r.stats.seconds
    )
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn escapes_markup_and_control_bytes() {
        assert_eq!(esc("a<b>&\"'\u{1}"), "a&lt;b&gt;&amp;&quot;&apos;\\u{1}");
    }
}
