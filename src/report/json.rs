//! The JSON result of `mcpdiff run`, schema `mcpdiff-run/1` (documented in
//! `docs/run-json.md`). Fields are only ever added within a major version.

use crate::runner::{RunConfig, RunResult};
use mcpdiff_oracle::rules::{self, level_of, RuleId, JUDGED_IDS};
use mcpdiff_oracle::signature::Signature;
use mcpdiff_oracle::{check, judge, Case, Observation, Surface};
use serde::{Deserialize, Serialize};

pub const SCHEMA: &str = "mcpdiff-run/1";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunReport {
    pub schema: String,
    pub mcpdiff_version: String,
    pub seed: u64,
    pub stats: Stats,
    pub targets: Vec<TargetReport>,
    pub disagreements: Vec<DisagreementReport>,
    /// Baseline entries for targets of this run that no longer reproduce.
    #[serde(default)]
    pub baseline_stale: Vec<crate::baseline::KnownFinding>,
    /// The client matrix (client targets of `--clients` or a no-URL run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clients: Vec<crate::clients::ClientTargetReport>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stats {
    pub cases: u64,
    pub requests: u64,
    pub seconds: f64,
    pub cases_per_second: f64,
    pub stopped_by_time: bool,
    pub disagreements_total: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TargetReport {
    pub name: String,
    pub url: String,
    /// The pinned SDK version of a bundled target (`targets/<name>/target.toml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub score: f64,
    /// True when a MUST / MUST NOT rule failed (outside the baseline).
    pub blocking: bool,
    pub cases: u64,
    pub transport_failures: u64,
    pub findings: Vec<FindingReport>,
    /// Rules exercised that never failed.
    pub passed: Vec<String>,
    pub not_observed: Vec<NotObserved>,
    pub notes: Vec<String>,
    pub surface: SurfaceSummary,
    /// Which era the target appears to implement, with evidence (`runner::revision`).
    /// Absent in reports written before the probe existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<crate::runner::revision::RevisionEvidence>,
    /// With `run --tools FILE`: what the target's `tools/list` made of the tool set (which
    /// tools it published, refused or rewrote). Absent without `--tools`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toolset: Option<mcpdiff_oracle::toolset::PublishedCheck>,
    /// Answers that decided nothing, per reason (`report::undetermined`): never a finding,
    /// never a pass. For a target that could not be tested, its only entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undetermined: Vec<super::undetermined::UndeterminedReport>,
    /// Tools whose calls keep running into the per-case limit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slow_tools: Vec<super::undetermined::SlowToolReport>,
    /// `https://` targets only: how the certificate was verified (`--cacert`, `--insecure`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls: Option<super::tls_report::TlsReport>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingReport {
    pub rule: String,
    pub level: String,
    pub severity: String,
    /// Origin / DNS-rebinding and header-body disagreement findings.
    pub security: bool,
    pub spec: String,
    pub sentence: String,
    pub expected: String,
    pub observed: String,
    /// How many generated cases broke the rule.
    pub count: u64,
    /// A shell command that sends the minimized case.
    pub reproducer: String,
    pub case: Case,
    pub observation: Observation,
    pub original_size: usize,
    pub shrunk_size: usize,
    /// Known in the baseline: reported, but does not fail the run.
    #[serde(default)]
    pub baselined: bool,
    /// The shrink ran out of budget or of `--max-time`: `case` is the smallest it reached.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shrink_cut_short: bool,
    /// The target's answer to the original (unshrunk) case, in words. Empty in reports
    /// written before it was recorded.
    #[serde(default)]
    pub original_observed: String,
    /// The original (unshrunk) case: the run's witness of the rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_case: Option<Case>,
    /// The target's normalized answer to the original case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_observation: Option<Observation>,
    /// The kind of the reproducer's failure (`mcpdiff_oracle::signature`): served or
    /// refused, status class (or the exact status when the rule names one), JSON-RPC error
    /// code, body kind, or the transport failure.
    #[serde(default)]
    pub kind: String,
    /// The kind of the original observation's failure; equal to `kind` unless
    /// `kept_original` says otherwise.
    #[serde(default)]
    pub original_kind: String,
    /// Set when the shrunk case failed in another kind than the original: the reproducer is
    /// then the original case, and this says why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_original: Option<String>,
}

impl FindingReport {
    /// The original observation beside the reproducer's, for every renderer; `None` for
    /// reports written before it was recorded.
    pub fn original_line(&self) -> Option<String> {
        if self.original_observed.is_empty() {
            return None;
        }
        Some(match &self.kept_original {
            Some(why) => format!("{} (kept as the reproducer: {why})", self.original_observed),
            None if self.original_kind == self.kind => format!(
                "{}; same kind as the reproducer ({})",
                self.original_observed, self.kind
            ),
            None => format!(
                "{} ({}; the reproducer: {})",
                self.original_observed, self.original_kind, self.kind
            ),
        })
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NotObserved {
    pub rule: String,
    pub level: String,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SurfaceSummary {
    pub supported_versions: Vec<String>,
    pub tools: Vec<String>,
    pub annotated_tools: Vec<String>,
    pub resources: usize,
    pub resource_templates: usize,
    pub prompts: usize,
    /// Judged as an OAuth protected resource (`AUTH-*` rules; D-70).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub protected: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DisagreementReport {
    pub case_index: u64,
    pub answers: std::collections::BTreeMap<String, String>,
    pub case: Case,
}

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
    "no generated case exercised it (raise --cases or --max-time)".into()
}

/// Whether a finding on the benign-input rule `rule` (witness `case`, answer `obs`) is
/// explained by another rule: the same answer to the case without its benign inputs
/// (`isolation::benign`, which the spec says must not change the answer) breaks a rule that
/// `isolated` says failed alone elsewhere. A server that really trips over the benign input
/// serves the plain case, so no such rule is isolated and the finding stays.
fn benign_explained(
    rule: RuleId,
    case: &Case,
    obs: &Observation,
    surface: &Surface,
    isolated: &dyn Fn(&str) -> bool,
) -> bool {
    use mcpdiff_oracle::isolation::benign::{without_benign, BENIGN_RULES};
    if !BENIGN_RULES.contains(&rule) {
        return false;
    }
    let plain = without_benign(case);
    if plain == *case {
        return false;
    }
    check(&judge(&plain, surface), obs)
        .iter()
        .any(|x| x.rule != rule.0 && isolated(&x.rule))
}

/// Build the report. `reproducer` renders a case as a shell command for a target URL.
pub fn build(
    result: &RunResult,
    cfg: &RunConfig,
    baseline: &crate::baseline::Baseline,
    reproducer: &dyn Fn(&Case, &str) -> String,
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
        for f in &t.findings {
            let rule = rules::rule(f.rule);
            let level = level_of(f.rule);
            let w = t.tally.witnesses.get(&f.rule);
            // never isolated, and another rule that failed beside it was: that rule explains
            // the failure (e.g. a refused sentinel blamed also on header-name case)
            let explained = w.is_some_and(|w| w.finding.co_failing.iter().any(|r| isolated(r)));
            // a benign input's rule whose answer, judged on the case without benign inputs,
            // breaks a rule isolated elsewhere: that rule explains it (issue 14 §1)
            let benign_explained = w.is_some_and(|w| {
                benign_explained(f.rule, &w.case, &w.observation, &t.surface, &isolated)
            });
            if explained || benign_explained {
                continue;
            }
            let kind_of = |c: &Case, o: &Observation| {
                Signature::of(f.rule, &judge(c, &t.surface), o)
                    .kind
                    .to_string()
            };
            findings.push(FindingReport {
                rule: f.rule.0.to_string(),
                level: level.as_str().to_string(),
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
                reproducer: reproducer(&f.case, &t.url),
                case: f.case.clone(),
                observation: f.observation.clone(),
                original_size: crate::runner::shrink::size(&f.original),
                shrunk_size: crate::runner::shrink::size(&f.case),
                baselined: baseline.knows(&t.name, &t.url, f.rule.0),
                shrink_cut_short: f.cut_short,
                original_observed: f.original_observation.summary(),
                original_case: Some(f.original.clone()),
                original_observation: Some(f.original_observation.clone()),
                kind: kind_of(&f.case, &f.observation),
                original_kind: kind_of(&f.original, &f.original_observation),
                kept_original: f.kept_original.clone(),
            });
        }
        // blocking first, then advisory, then by rule id
        let rank = |s: &str| match s {
            "blocking" => 0,
            "advisory" => 1,
            _ => 2,
        };
        findings.sort_by(|a, b| (rank(&a.severity), &a.rule).cmp(&(rank(&b.severity), &b.rule)));
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
                rule: r.0.to_string(),
                level: level_of(*r).as_str().to_string(),
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
            // filled by `cmd::run` for bundled targets
            version: None,
            score,
            blocking,
            cases: t.tally.cases,
            transport_failures: t.tally.transport_failures,
            findings,
            passed,
            not_observed,
            notes: t.notes.clone(),
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
            // filled by `cmd::run` from `runner::revision::probe`
            revision: None,
            // filled by `cmd::run` with `--tools`
            toolset: None,
            undetermined,
            slow_tools,
            tls: None,
        });
    }
    let found: Vec<(String, String, String)> = targets
        .iter()
        .flat_map(|t| {
            t.findings
                .iter()
                .map(|f| (t.name.clone(), t.url.clone(), f.rule.clone()))
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
    }
}
