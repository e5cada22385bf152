//! JUnit XML (`--junit PATH`) for CI dashboards: one `<testsuite>` per target, one
//! `<testcase>` per judged rule (classname = target name, name = rule id).
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
use super::review::{self, case_text, why_it_matters, Cell};
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

pub fn render(r: &RunReport, strict: bool) -> String {
    let rules = review::rules_of(r);
    let mut suites = String::new();
    let (mut all_tests, mut all_fail, mut all_skip) = (0usize, 0usize, 0usize);
    for t in &r.targets {
        let mut cases = String::new();
        let (mut tests, mut fail, mut skip) = (0usize, 0usize, 0usize);
        for rule in &rules {
            if review::cell(t, rule) == Cell::Absent {
                continue;
            }
            tests += 1;
            let open = format!(
                "    <testcase classname=\"{}\" name=\"{}\"",
                esc(&t.name),
                esc(rule)
            );
            match outcome(t, rule, strict) {
                TestcaseOutcome::Fail(msg, body) => {
                    fail += 1;
                    let _ = writeln!(
                        cases,
                        "{open}>\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                        esc(&msg),
                        esc(&review::level_of(rule).map_or("MUST".into(), |l| l.as_str().to_string())),
                        esc(&body)
                    );
                }
                TestcaseOutcome::Note(text) => {
                    let _ = writeln!(
                        cases,
                        "{open}>\n      <system-out>{}</system-out>\n    </testcase>",
                        esc(&text)
                    );
                }
                TestcaseOutcome::Skip(reason) => {
                    skip += 1;
                    let _ = writeln!(
                        cases,
                        "{open}>\n      <skipped message=\"{}\"/>\n    </testcase>",
                        esc(&reason)
                    );
                }
                TestcaseOutcome::Pass => {
                    let _ = writeln!(cases, "{open}/>");
                }
            }
        }
        let rev = t
            .revision
            .as_ref()
            .map_or("not determined".to_string(), |v| {
                v.verdict.short().to_string()
            });
        let _ = write!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{fail}\" errors=\"0\" skipped=\"{skip}\">\n    \
             <properties>\n      <property name=\"url\" value=\"{}\"/>\n      \
             <property name=\"score\" value=\"{:.4}\"/>\n      \
             <property name=\"revision\" value=\"{}\"/>\n      \
             <property name=\"cases\" value=\"{}\"/>\n    </properties>\n{cases}  </testsuite>\n",
            esc(&t.name),
            esc(&t.url),
            t.score,
            esc(&rev),
            t.cases
        );
        all_tests += tests;
        all_fail += fail;
        all_skip += skip;
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
