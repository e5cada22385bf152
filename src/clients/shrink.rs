//! Shrinking a client finding to a minimal tool definition plus arguments: serve only the
//! tool concerned with only the offending call, then greedily drop tool fields, schema
//! properties and argument members, re-running the driver after each step and keeping a
//! step only when the same rule still fails on that tool in the same way (`ClientKeep`: same
//! header, something sent or nothing, no rule the full run did not break on that tool) and
//! the tool's validity label is unchanged. Bounded by a number of driver runs per target. The last reproducing run's
//! recording is kept as the finding's [`Evidence`] (for the regression corpus).

use super::evidence::{self, Evidence};
use super::{run_once, DriverLimit};
pub use crate::report::clients::Repro;
use crate::targets::Manifest;
use mcpdiff_oracle::client_judge::ClientFinding;
use mcpdiff_oracle::rules::RuleId;
use mcpdiff_oracle::toolset::{GeneratedTool, ToolCall, ToolSet};
use serde_json::Value;
use std::collections::BTreeSet;

/// What a smaller tool set must keep of a client finding (the client side of
/// the server shrinker's `CaseKeep`): the rule, the tool, the header concerned, whether the
/// client sent something there or nothing, and no rule the full run did not break on that
/// tool's requests. Without it a shrink could slide from "header sent with a wrong value" to
/// "header missing" (an argument dropped), or onto another header of the same tool.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientKeep {
    pub rule: RuleId,
    pub tool: String,
    pub header: Option<String>,
    pub sent: bool,
    /// Rules broken in the full run on requests naming this tool or no tool.
    pub rules: BTreeSet<RuleId>,
}

/// Rules of the findings that concern `tool` (or no tool: request-wide findings).
fn rules_about(tool: &str, findings: &[ClientFinding]) -> BTreeSet<RuleId> {
    findings
        .iter()
        .filter(|f| f.tool.as_deref().is_none_or(|t| t == tool))
        .map(|f| f.rule)
        .collect()
}

impl ClientKeep {
    /// What `f` (on `tool`) shows, among all findings of the full run.
    pub fn of(f: &ClientFinding, tool: &str, all: &[ClientFinding]) -> ClientKeep {
        ClientKeep {
            rule: f.rule,
            tool: tool.to_string(),
            header: f.header.clone(),
            sent: f.sent.is_some(),
            rules: rules_about(tool, all),
        }
    }

    /// The finding of a smaller run that is the same failure, if the run shows it and
    /// broke nothing new.
    pub fn found_in<'a>(&self, findings: &'a [ClientFinding]) -> Option<&'a ClientFinding> {
        if !rules_about(&self.tool, findings).is_subset(&self.rules) {
            return None;
        }
        findings.iter().find(|f| {
            f.rule == self.rule
                && f.tool.as_deref() == Some(self.tool.as_str())
                && f.header == self.header
                && f.sent.is_some() == self.sent
        })
    }
}

/// Shrink one reproducer per (rule, tool) while the budget lasts.
pub async fn shrink_all(
    m: &Manifest,
    set: &ToolSet,
    findings: &[ClientFinding],
    limit: DriverLimit,
    budget: usize,
) -> Vec<Repro> {
    let mut out: Vec<Repro> = Vec::new();
    let mut left = budget;
    for f in findings {
        let Some(tool) = f.tool.as_deref() else {
            continue;
        };
        // the retry probe's finding comes from its own refusing server, not from the set
        if f.rule == mcpdiff_oracle::rules::client::MISMATCH_RETRY {
            continue;
        }
        if left == 0 || out.iter().any(|r| r.rule == f.rule && r.tool == tool) {
            continue;
        }
        let Some(t) = set.tools.iter().find(|t| t.name() == tool) else {
            continue;
        };
        let keep = ClientKeep::of(f, tool, findings);
        let r = shrink_one(m, t, f, &keep, limit, &mut left).await;
        out.push(r);
    }
    out
}

fn single(definition: &Value, arguments: &Option<Value>, with_call: bool) -> ToolSet {
    let calls = if with_call {
        vec![ToolCall {
            arguments: arguments.clone(),
            note: None,
        }]
    } else {
        Vec::new()
    };
    ToolSet::new(
        None,
        vec![GeneratedTool::labelled(definition.clone(), calls, None)],
    )
}

/// Run the driver on `set`; the evidence of the finding when it reproduces, else `None`.
async fn reproduces(
    m: &Manifest,
    set: &ToolSet,
    keep: &ClientKeep,
    limit: DriverLimit,
    left: &mut usize,
) -> Option<Option<Evidence>> {
    *left = left.saturating_sub(1);
    if limit.now().is_none() {
        // out of --max-time: the smallest reproducer so far stands
        *left = 0;
        return None;
    }
    let j = run_once(m, set, limit).await.ok()?;
    let f = keep.found_in(&j.findings)?;
    let kept = j.outcome.kept.as_deref().filter(|_| j.modern);
    Some(evidence::from_run(set, kept, &j.requests, f, true))
}

/// Candidate removals: (definition, arguments) with one thing dropped.
fn candidates(def: &Value, args: &Option<Value>) -> Vec<(Value, Option<Value>)> {
    let mut out = Vec::new();
    if let Some(obj) = def.as_object() {
        for k in obj.keys().filter(|k| *k != "name" && *k != "inputSchema") {
            let mut d = def.clone();
            d.as_object_mut().map(|o| o.remove(k));
            out.push((d, args.clone()));
        }
    }
    if let Some(props) = def
        .pointer("/inputSchema/properties")
        .and_then(Value::as_object)
    {
        for k in props.keys() {
            let mut d = def.clone();
            if let Some(p) = d
                .pointer_mut("/inputSchema/properties")
                .and_then(Value::as_object_mut)
            {
                p.remove(k);
            }
            let mut a = args.clone();
            if let Some(o) = a.as_mut().and_then(Value::as_object_mut) {
                o.remove(k);
            }
            out.push((d, a));
        }
    }
    if let Some(o) = args.as_ref().and_then(Value::as_object) {
        for k in o.keys() {
            let mut a = args.clone();
            a.as_mut()
                .and_then(Value::as_object_mut)
                .map(|o| o.remove(k));
            out.push((def.clone(), a));
        }
    }
    out
}

async fn shrink_one(
    m: &Manifest,
    t: &GeneratedTool,
    f: &ClientFinding,
    keep: &ClientKeep,
    limit: DriverLimit,
    left: &mut usize,
) -> Repro {
    let with_call = f.header.is_some() || f.arguments.is_some();
    let tool = t.name().to_string();
    let mut def = t.definition.clone();
    let mut args = if with_call { f.arguments.clone() } else { None };
    let start = *left;
    let mut evidence = reproduces(m, &single(&def, &args, with_call), keep, limit, left).await;
    let reproduced = evidence.is_some();
    if reproduced {
        let mut progress = true;
        while progress && *left > 0 {
            progress = false;
            for (d, a) in candidates(&def, &args) {
                if *left == 0 {
                    break;
                }
                let cand = single(&d, &a, with_call);
                if cand.tools[0].valid != t.valid {
                    continue;
                }
                if let Some(e) = reproduces(m, &cand, keep, limit, left).await {
                    evidence = Some(e);
                    (def, args) = (d, a);
                    progress = true;
                    break;
                }
            }
        }
    }
    Repro {
        rule: f.rule,
        tool,
        definition: def,
        arguments: args,
        reproduced,
        runs: start - *left,
        evidence: evidence.flatten(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::rules::client::{B64_REQUIRED, PARAM_INCLUDE, TOOL_EXCLUDE};

    fn finding(rule: RuleId, header: &str, sent: Option<&str>) -> ClientFinding {
        ClientFinding {
            rule,
            tool: Some("t".into()),
            header: Some(header.into()),
            sent: sent.map(str::to_string),
            allowed: vec!["x".into()],
            detail: String::new(),
            arguments: None,
        }
    }

    #[test]
    fn the_same_failure_is_found_again() {
        let f = finding(B64_REQUIRED, "Mcp-Param-A", Some("caf\\xE9"));
        let keep = ClientKeep::of(&f, "t", std::slice::from_ref(&f));
        assert_eq!(keep.found_in(std::slice::from_ref(&f)), Some(&f));
        // another wrong value on the same header is the same kind of failure
        let g = finding(B64_REQUIRED, "Mcp-Param-A", Some("x"));
        assert_eq!(keep.found_in(std::slice::from_ref(&g)), Some(&g));
    }

    #[test]
    fn a_slide_to_another_kind_is_refused() {
        let f = finding(B64_REQUIRED, "Mcp-Param-A", Some("caf\\xE9"));
        let keep = ClientKeep::of(&f, "t", std::slice::from_ref(&f));
        // the header now missing (an argument dropped): nothing sent, not a wrong value
        let missing = finding(B64_REQUIRED, "Mcp-Param-A", None);
        assert_eq!(keep.found_in(&[missing]), None);
        // the same rule on another header of the tool
        let other = finding(B64_REQUIRED, "Mcp-Param-B", Some("y"));
        assert_eq!(keep.found_in(&[other]), None);
        // the same failure beside a rule the full run did not break on this tool
        let new = finding(PARAM_INCLUDE, "Mcp-Param-B", None);
        assert_eq!(keep.found_in(&[f.clone(), new]), None);
        // ... unless the full run broke it too
        let both = [f.clone(), finding(PARAM_INCLUDE, "Mcp-Param-B", None)];
        let keep = ClientKeep::of(&f, "t", &both);
        assert_eq!(keep.found_in(&both), Some(&f));
        // a finding on another tool does not count against this one
        let mut elsewhere = finding(TOOL_EXCLUDE, "-", None);
        elsewhere.tool = Some("u".into());
        assert_eq!(keep.found_in(&[f.clone(), elsewhere]), Some(&f));
    }
}
