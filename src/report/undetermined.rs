//! The "not determined" part of a target's report: answers that decided nothing,
//! per reason (timed out, unauthorized, unreachable) with the rules they left open; slow
//! tools with the `--timeout-ms` that would let them finish; and the entry of a target that
//! could not be tested at all. One text rendering (`lines`) shared by the terminal, Markdown
//! and HTML reports; JUnit reads `rule_reason`.

pub use super::json::{RuleCases, SlowToolReport, UndeterminedReport};
use super::json::{SurfaceSummary, TargetReport};
use crate::runner::tally::Tally;
use mcpdiff_oracle::Undetermined;

fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The next whole second strictly above `ms`.
pub fn round_up(ms: u64) -> u64 {
    (ms / 1000 + 1) * 1000
}

/// The undetermined entries and slow tools of a tally.
pub fn of_tally(tally: &Tally) -> (Vec<UndeterminedReport>, Vec<SlowToolReport>) {
    let undetermined = tally
        .undetermined
        .iter()
        .map(|(reason, u)| UndeterminedReport {
            reason: *reason,
            cases: u.cases,
            rules: u
                .rules
                .iter()
                .map(|(r, n)| RuleCases {
                    rule: r.0.to_string(),
                    cases: *n,
                })
                .collect(),
            detail: u.example.clone(),
        })
        .collect();
    let slow = tally
        .tools
        .iter()
        .filter(|(_, t)| t.is_slow())
        .map(|(name, t)| {
            let finished = (t.longest_done > std::time::Duration::ZERO).then(|| ms(t.longest_done));
            let probe = t.patient.filter(|(_, done)| *done).map(|(d, _)| ms(d));
            SlowToolReport {
                tool: name.clone(),
                calls: t.calls,
                timed_out: t.timed_out,
                waited_ms: ms(t.longest_cut),
                longest_finished_ms: finished,
                probe_ms: t.patient.map(|(d, _)| ms(d)),
                probe_finished: t.patient.is_some_and(|(_, done)| done),
                suggested_timeout_ms: probe.or(finished).map(round_up),
            }
        })
        .collect();
    (undetermined, slow)
}

/// The report entry of a target that could not be tested (refused every connection, or its
/// discovery did not finish in time): no case, one undetermined entry with the error.
pub fn untested(name: &str, url: &str, reason: Undetermined, error: &str) -> TargetReport {
    TargetReport {
        name: name.to_string(),
        url: url.to_string(),
        version: None,
        // nothing passed: a CI gate reading the score alone must not see a perfect target
        score: 0.0,
        blocking: false,
        cases: 0,
        transport_failures: 0,
        findings: Vec::new(),
        passed: Vec::new(),
        not_observed: Vec::new(),
        notes: Vec::new(),
        surface: SurfaceSummary {
            supported_versions: Vec::new(),
            tools: Vec::new(),
            annotated_tools: Vec::new(),
            resources: 0,
            resource_templates: 0,
            prompts: 0,
            protected: false,
        },
        revision: None,
        revisions: Vec::new(),
        toolset: None,
        undetermined: vec![UndeterminedReport {
            reason,
            cases: 0,
            rules: Vec::new(),
            detail: Some(error.to_string()),
        }],
        slow_tools: Vec::new(),
        // set by `cmd::tls::annotate` for https targets
        tls: None,
        tally: None,
    }
}

/// Whether `t` is the entry of a target that could not be tested at all (`untested`).
pub fn is_untested(t: &TargetReport) -> bool {
    t.cases == 0
        && t.undetermined
            .iter()
            .any(|u| u.cases == 0 && u.rules.is_empty())
}

/// Why nothing could be decided on `t`, when that is so: it was sent cases, yet no rule was
/// decided on any of them (every answer timed out, was refused by an authorization layer or
/// lost its connection): "N timed out, M unauthorized". `None` for a target with any finding
/// or decided rule, and for one that could not be tested at all (`is_untested`).
pub fn nothing_decided(t: &TargetReport) -> Option<String> {
    let decided = !t.findings.is_empty()
        || !t.passed.is_empty()
        || t.tally.as_ref().is_some_and(|x| !x.rules.is_empty());
    if decided || t.cases == 0 || is_untested(t) {
        return None;
    }
    let open: Vec<String> = t
        .undetermined
        .iter()
        .filter(|u| u.cases > 0)
        .map(|u| format!("{} {}", u.cases, u.reason.as_str()))
        .collect();
    (!open.is_empty()).then(|| open.join(", "))
}

/// What a finding's size line adds when its shrink was cut short.
pub fn shrink_note(f: &super::json::FindingReport) -> &'static str {
    if f.shrink_cut_short {
        "; shrink cut short: the smallest case reached"
    } else {
        ""
    }
}

/// Why `rule` was not determined on `t`, if it was left open and never judged.
pub fn rule_reason(t: &TargetReport, rule: &str) -> Option<String> {
    let parts: Vec<String> = t
        .undetermined
        .iter()
        .filter_map(|u| {
            u.rules
                .iter()
                .find(|r| r.rule == rule)
                .map(|r| format!("{} ({} case(s))", u.reason.as_str(), r.cases))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("not determined: {}", parts.join(", ")))
}

/// The plain-text lines of `t`'s undetermined answers and slow tools.
pub fn lines(t: &TargetReport) -> Vec<String> {
    let mut out = Vec::new();
    for u in &t.undetermined {
        if u.cases == 0 && u.rules.is_empty() {
            // a target that was not tested at all: the error says it all
            let d = u.detail.as_deref().unwrap_or("no answer");
            out.push(format!(
                "not determined: {}: not tested: {d}",
                u.reason.as_str()
            ));
            continue;
        }
        let mut rules: Vec<&RuleCases> = u.rules.iter().collect();
        rules.sort_by(|a, b| b.cases.cmp(&a.cases).then(a.rule.cmp(&b.rule)));
        let shown: Vec<String> = rules
            .iter()
            .take(8)
            .map(|r| format!("{} ({})", r.rule, r.cases))
            .collect();
        let more = rules.len().saturating_sub(shown.len());
        // rules can be left open on cases that are not wholly undetermined (the cut answer
        // already broke another rule): "0 case(s)" beside a list of rules would read as a
        // contradiction, so say what happened instead
        let cases = if u.cases == 0 {
            "no whole case (each cut answer had already broken another rule)".to_string()
        } else {
            format!("{} case(s)", u.cases)
        };
        out.push(format!(
            "not determined: {}: {cases}, never a finding nor a pass{}{}{}",
            u.reason.as_str(),
            if shown.is_empty() {
                String::new()
            } else {
                format!("; rules left open: {}", shown.join(", "))
            },
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            u.detail
                .as_deref()
                .map(|d| format!("; e.g. {d}"))
                .unwrap_or_default()
        ));
    }
    for s in &t.slow_tools {
        let measured = match (s.probe_ms, s.probe_finished, s.longest_finished_ms) {
            (Some(p), true, _) => format!("one call given longer finished after {p} ms"),
            (Some(p), false, Some(f)) => {
                format!("one call given {p} ms did not finish; the longest that did took {f} ms")
            }
            (Some(p), false, None) => format!("one call given {p} ms did not finish either"),
            (None, _, Some(f)) => format!("the longest call that finished took {f} ms"),
            (None, _, None) => "no call was seen to finish".to_string(),
        };
        let advice = match s.suggested_timeout_ms {
            Some(n) => format!(": --timeout-ms {n} would let it finish"),
            None => format!(
                ": it needs a --timeout-ms above {}",
                s.probe_ms.unwrap_or(s.waited_ms)
            ),
        };
        out.push(format!(
            "slow tool '{}': {} of {} call(s) cut at the per-case limit (waited up to {} ms), \
             sent less often from then on; {measured}{advice}",
            s.tool, s.timed_out, s.calls, s.waited_ms
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_up_to_the_next_second() {
        assert_eq!(round_up(8214), 9000);
        assert_eq!(round_up(8000), 9000);
        assert_eq!(round_up(0), 1000);
    }

    #[test]
    fn an_untested_target_says_why() {
        let t = untested(
            "u",
            "http://127.0.0.1:9/mcp",
            Undetermined::Unreachable,
            "refused",
        );
        let l = lines(&t);
        assert!(l[0].starts_with("not determined: unreachable"), "{l:?}");
        assert!(l[0].contains("refused"));
        assert_eq!(t.score, 0.0);
    }

    #[test]
    fn rules_left_open_on_cases_with_findings_do_not_read_as_zero_cases() {
        let mut t = untested("t", "http://127.0.0.1:9/mcp", Undetermined::TimedOut, "x");
        t.undetermined = vec![UndeterminedReport {
            reason: Undetermined::TimedOut,
            cases: 0,
            rules: vec![RuleCases {
                rule: "BASE-RESULT-ID".into(),
                cases: 21,
            }],
            detail: None,
        }];
        let l = lines(&t);
        assert!(!l[0].contains("0 case(s)"), "{l:?}");
        assert!(l[0].contains("no whole case"), "{l:?}");
        assert!(l[0].contains("BASE-RESULT-ID (21)"), "{l:?}");
        t.undetermined[0].cases = 3;
        assert!(lines(&t)[0].contains("timed out: 3 case(s)"));
    }
}
