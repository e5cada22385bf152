//! Building the `RunReport` from the runner's `RunResult`: per target, the findings left
//! after attribution (a finding explained by another rule that failed alone is dropped),
//! sorted blocking first; the rules passed and why the others were not observed; the
//! baseline's stale entries. Evidence from preparation (revision, tool set, version) is added
//! by `pipeline::Matrix::report`.

use super::json::{
    DisagreementReport, FindingReport, NotObserved, RunReport, Stats, SurfaceSummary, TargetReport,
    SCHEMA,
};
use super::tally_report::TallyReport;
use crate::runner::tally::Witness;
use crate::runner::{RunConfig, RunResult};
use mcpdiff_oracle::rules::{self, level_of, RuleId, JUDGED_IDS};
use mcpdiff_oracle::signature::Signature;
use mcpdiff_oracle::{check, judge, Case, Observation, Surface};

/// Rules whose findings are security findings (report section 3).
pub fn is_security(rule: RuleId) -> bool {
    rules::auth::AUTH_JUDGED_IDS.contains(&rule)
        || rule == rules::ORIGIN_403
        || [
            rules::HDR_MISMATCH,
            rules::PARAM_VALIDATE,
            rules::PARAM_OMITTED,
            rules::PV_MISMATCH,
            rules::B64_DECODE,
            rules::HDR_VALUE_CASE,
            rules::BOOL_LOWER,
            rules::B64_MARKERS,
            rules::B64_ONLY_NAME_PARAM,
        ]
        .contains(&rule)
}

fn why_not_observed(rule: RuleId, s: &Surface) -> String {
    let annotated = s
        .tools
        .iter()
        .any(|t| t.header_params.as_ref().is_ok_and(|p| !p.is_empty()));
    let param_rules = [
        rules::PARAM_VALIDATE,
        rules::PARAM_ERR,
        rules::PARAM_INVALID_CHARS,
        rules::PARAM_OMITTED,
        rules::PARAM_NULL,
        rules::PARAM_ABSENT,
        rules::INT_NUMERIC,
        rules::BOOL_LOWER,
    ];
    if param_rules.contains(&rule) && !annotated {
        return "the target declares no tool with a valid x-mcp-header annotation".into();
    }
    if rule == rules::RES_NOTFOUND && !s.capabilities.resources {
        return "the target does not advertise resources".into();
    }
    if rule == rules::PROMPTS_ERRORS && !s.capabilities.prompts {
        return "the target does not advertise prompts".into();
    }
    if rule == rules::TOOLS_UNKNOWN && !s.capabilities.tools {
        return "the target does not advertise tools".into();
    }
    if let Some(why) = why_stream_not_observed(rule) {
        return why.into();
    }
    if let Some(why) = mcpdiff_oracle::content::why_not_observed(rule, s) {
        return why.into();
    }
    "no generated case exercised it (raise --cases or --max-time)".into()
}

/// Why a stream rule was not observed: no answer carried what it speaks of
/// (`mcpdiff_oracle::stream::observed`).
fn why_stream_not_observed(rule: RuleId) -> Option<&'static str> {
    Some(match rule {
        rules::SSE_FINAL_TERMINATES | rules::LOG_NO_LEVEL => {
            "no answer was an SSE stream carrying a JSON-RPC response"
        }
        rules::SSE_NOTIF_RELATED => "no request's SSE stream carried a notification",
        rules::PROG_TOKEN_ONLY => "no SSE stream carried a progress notification",
        rules::PROG_INCREASING => {
            "no SSE stream carried two progress notifications for the request's token (the target publishes no tool reporting progress, or none was called with a progressToken)"
        }
        rules::PROG_STOP => {
            "no SSE stream carried progress for the request's token and its response"
        }
        rules::LOG_NOT_ON_LISTEN | rules::CANCEL_ONLY_LISTEN => "no answer was an SSE stream",
        rules::SUB_ACK_FIRST | rules::SUB_NO_NOTIF_BEFORE_ACK => {
            "no subscriptions/listen answer was an SSE stream carrying a message"
        }
        rules::LISTEN_SUBID | rules::SUB_FILTER => {
            "no listen stream carried a change notification (the target changed nothing while it was read)"
        }
        rules::SUB_GRACEFUL => {
            "the target closed no acknowledged listen stream while mcpdiff read it (an open stream owes nothing yet)"
        }
        _ => return None,
    })
}

/// The rules that explain away a finding on `rule` with witness `w` when one of them failed
/// alone somewhere: the rules the witness case broke beside it (never isolated, and another
/// rule that failed beside it was: that rule explains the failure, e.g. a refused sentinel
/// blamed also on header-name case); and, for a benign-input rule, the rules that the same
/// answer breaks when judged on the case without its benign inputs (`isolation::benign`,
/// which the spec says must not change the answer: a server that really trips over the
/// benign input serves the plain case, so none of those is isolated and the finding stays).
fn blamed_on(rule: RuleId, w: &Witness, surface: &Surface) -> Vec<String> {
    use mcpdiff_oracle::isolation::benign::{without_benign, BENIGN_RULES};
    let mut blamed = w.finding.co_failing.clone();
    if BENIGN_RULES.contains(&rule) {
        let plain = without_benign(&w.case);
        if plain != w.case {
            for x in check(&judge(&plain, surface), &w.observation) {
                if x.rule != rule.0 && !blamed.contains(&x.rule) {
                    blamed.push(x.rule);
                }
            }
        }
    }
    blamed
}

/// The note for a finding set aside because `by`, a rule its failing case also broke,
/// failed alone elsewhere (`blamed_on`; a shard merge words it the same).
pub(crate) fn blamed_note(rule: &str, by: &str) -> String {
    format!("{rule} not reported: its failing case also broke {by}, which failed alone elsewhere")
}

/// A target's findings in report order: blocking first, then advisory, then by rule id.
pub fn sort_findings(findings: &mut [FindingReport]) {
    let rank = |s: &str| match s {
        "blocking" => 0,
        "advisory" => 1,
        _ => 2,
    };
    findings.sort_by(|a, b| (rank(&a.severity), &a.rule).cmp(&(rank(&b.severity), &b.rule)));
}

/// Build the report. `reproducer` renders the requests of a finding as a shell command for a
/// target URL: grouped by connection, in the order sent (`ShrunkFinding::connections`; one
/// connection carrying the case alone for every finding but a connection probe's).
pub fn build(
    result: &RunResult,
    cfg: &RunConfig,
    baseline: &crate::baseline::Baseline,
    reproducer: &dyn Fn(&[Vec<Case>], &str) -> String,
) -> RunReport {
    let mut targets = Vec::new();
    for t in &result.targets {
        let mut findings = Vec::new();
        let isolated = |r: &str| {
            t.tally
                .witnesses
                .iter()
                .any(|(id, w)| id.0 == r && w.finding.co_failing.is_empty())
        };
        let blame = |r: RuleId| {
            t.tally
                .witnesses
                .get(&r)
                .map(|w| blamed_on(r, w, &t.surface))
                .unwrap_or_default()
        };
        let mut notes = t.notes.clone();
        for f in &t.findings {
            if let Some(twin) = &f.twin {
                notes.push(format!("{} not reported: {twin}", f.rule.0));
                continue;
            }
            let rule = rules::rule(f.rule);
            let level = level_of(f.rule);
            let w = t.tally.witnesses.get(&f.rule);
            // a rule that failed alone elsewhere explains this one (`blamed_on`): not
            // reported, and the notes say which rule did (a finding set aside in silence
            // would read as a pass)
            if let Some(by) = blame(f.rule).into_iter().find(|r| isolated(r)) {
                notes.push(blamed_note(f.rule.0, &by));
                continue;
            }
            let kind_of = |c: &Case, o: &Observation| {
                Signature::of(f.rule, &judge(c, &t.surface), o)
                    .kind
                    .to_string()
            };
            findings.push(FindingReport {
                rule: f.rule,
                level,
                severity: level.severity().as_str().to_string(),
                security: is_security(f.rule),
                spec: rule.map(|r| r.spec.to_string()).unwrap_or_default(),
                sentence: rule.map(|r| r.sentence.to_string()).unwrap_or_default(),
                // what the rule allows for the case shown (the shrunk one), not the original
                expected: check(&judge(&f.case, &t.surface), &f.observation)
                    .into_iter()
                    .find(|x| x.rule == f.rule.0)
                    .map(|x| x.expected)
                    .or_else(|| w.map(|w| w.finding.expected.clone()))
                    .unwrap_or_default(),
                observed: f.observation.summary(),
                count: f.count,
                reproducer: if f.connections.is_empty() {
                    reproducer(&[vec![f.case.clone()]], &t.url)
                } else {
                    reproducer(&f.connections, &t.url)
                },
                connections: f.connections.clone(),
                case: f.case.clone(),
                observation: f.observation.clone(),
                original_size: crate::runner::shrink::size(&f.original),
                shrunk_size: crate::runner::shrink::size(&f.case),
                baselined: baseline.knows(&t.name, &t.url, &f.rule),
                shrink_cut_short: f.cut_short,
                original_observed: f.original_observation.summary(),
                original_case: Some(f.original.clone()),
                original_observation: Some(f.original_observation.clone()),
                kind: kind_of(&f.case, &f.observation),
                original_kind: kind_of(&f.original, &f.original_observation),
                kept_original: f.kept_original.clone(),
                alone: f.alone.clone(),
            });
        }
        sort_findings(&mut findings);
        let passed = t
            .tally
            .rules
            .iter()
            .filter(|(_, c)| c.failed == 0)
            .map(|(r, _)| r.0.to_string())
            .collect();
        let (undetermined, slow_tools) = super::undetermined::of_tally(&t.tally);
        let open = |r: &RuleId| {
            t.tally
                .undetermined
                .values()
                .any(|u| u.rules.contains_key(r))
        };
        let not_observed = JUDGED_IDS
            .iter()
            .filter(|r| !t.tally.rules.contains_key(r) && !open(r))
            .map(|r| NotObserved {
                rule: *r,
                level: level_of(*r),
                reason: why_not_observed(*r, &t.surface),
            })
            .collect();
        let blocking = findings
            .iter()
            .any(|f| f.severity == "blocking" && !f.baselined);
        // the score tells the truth; the baseline only decides what fails the run
        let score = t.tally.score();
        let s = &t.surface;
        targets.push(TargetReport {
            name: t.name.clone(),
            url: t.url.clone(),
            // filled from the target's evidence (`pipeline::Matrix::report`)
            version: None,
            score,
            blocking,
            cases: t.tally.cases,
            transport_failures: t.tally.transport_failures,
            findings,
            passed,
            not_observed,
            notes,
            surface: SurfaceSummary {
                supported_versions: s.supported_versions.clone(),
                tools: s.tools.iter().map(|t| t.name.clone()).collect(),
                annotated_tools: s
                    .tools
                    .iter()
                    .filter(|t| t.header_params.as_ref().is_ok_and(|p| !p.is_empty()))
                    .map(|t| t.name.clone())
                    .collect(),
                resources: s.resources.len(),
                resource_templates: s.resource_templates.len(),
                prompts: s.prompts.len(),
                protected: s.protected,
            },
            revision: None,
            revisions: Vec::new(),
            toolset: None,
            undetermined,
            slow_tools,
            tls: None,
            tally: Some(TallyReport::of(&t.tally, &blame)),
        });
    }
    let found: Vec<(String, String, RuleId)> = targets
        .iter()
        .flat_map(|t| {
            t.findings
                .iter()
                .map(|f| (t.name.clone(), t.url.clone(), f.rule))
        })
        .collect();
    let baseline_stale = baseline
        .stale(&found)
        .into_iter()
        .filter(|k| {
            k.target == "*"
                || targets
                    .iter()
                    .any(|t| t.name == k.target || t.url == k.target)
        })
        .collect();
    let secs = result.elapsed.as_secs_f64();
    RunReport {
        schema: SCHEMA.to_string(),
        mcpdiff_version: env!("CARGO_PKG_VERSION").to_string(),
        seed: cfg.seed,
        stats: Stats {
            cases: result.cases,
            requests: result.requests,
            seconds: secs,
            cases_per_second: if secs > 0.0 {
                result.cases as f64 / secs
            } else {
                0.0
            },
            stopped_by_time: result.stopped_by_time,
            disagreements_total: result.disagreement_total,
        },
        targets,
        disagreements: result
            .disagreements
            .iter()
            .map(|d| DisagreementReport {
                case_index: d.case_index,
                answers: d.answers.clone(),
                case: d.case.clone(),
            })
            .collect(),
        baseline_stale,
        clients: Vec::new(),
        shard: (!cfg.shard.is_whole()).then_some(cfg.shard),
    }
}
