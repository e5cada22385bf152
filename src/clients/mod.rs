//! Client targets: mcpdiff serves a tool set from a loopback recording server,
//! starts one client-SDK driver against it (bundled targets of kind `client`), records
//! which tools the client kept and every request it sent, and judges both with the oracle's
//! client rules (`mcpdiff_oracle::client_judge`). Findings are shrunk to one tool definition
//! plus one argument object by re-running the driver (shrink.rs); what each finding rests on
//! is kept for the regression corpus (evidence.rs).
//!
//! I/O lives here (sockets, processes, files); every decision is the oracle's.

pub mod answer;
pub mod driver;
pub mod evidence;
pub mod recorder;
pub mod report;
pub mod shrink;

pub use crate::report::clients::{ClientStatus, ClientTargetReport};
use crate::targets::Manifest;
use driver::{run_driver, DriverOutcome};
use mcpdiff_oracle::client_judge::{
    is_modern, judge_kept, judge_request, ClientFinding, RecordedRequest,
};
use mcpdiff_oracle::toolset::ToolSet;
use recorder::Recorder;
use std::time::{Duration, Instant};

/// How long one driver run may take: `per_run` (`--client-timeout`), never past `until`
/// (the end of `--max-time`), so the client matrix ends with the run.
#[derive(Clone, Copy, Debug)]
pub struct DriverLimit {
    pub per_run: Duration,
    pub until: Instant,
}

impl DriverLimit {
    /// The limit of a run starting now; `None` when less than a second is left.
    pub fn now(&self) -> Option<Duration> {
        let left = self.until.saturating_duration_since(Instant::now());
        (left >= Duration::from_secs(1)).then(|| self.per_run.min(left))
    }
}

/// Only the per-run limit (no run-wide end in sight: a day from now).
impl From<Duration> for DriverLimit {
    fn from(per_run: Duration) -> Self {
        DriverLimit {
            per_run,
            until: Instant::now() + Duration::from_secs(86_400),
        }
    }
}

/// Why a client step did not run.
const OUT_OF_TIME: &str = "not run: --max-time reached";

/// What one driver run against one tool set recorded and how it was judged.
#[derive(Clone, Debug)]
pub struct Judged {
    /// Whether any request spoke 2026-07-28 (else the client negotiated the legacy era).
    pub modern: bool,
    pub outcome: DriverOutcome,
    pub requests: Vec<RecordedRequest>,
    pub findings: Vec<ClientFinding>,
}

/// Run the driver of `m` once against `set` and judge what it did.
pub async fn run_once(m: &Manifest, set: &ToolSet, limit: DriverLimit) -> Result<Judged, String> {
    let limit = limit.now().ok_or(OUT_OF_TIME)?;
    let recorder = Recorder::start(set.clone(), None)
        .await
        .map_err(|e| format!("cannot start the recording server: {e}"))?;
    let url = recorder.url.clone();
    let (mm, s) = (m.clone(), set.clone());
    let outcome = tokio::task::spawn_blocking(move || run_driver(&mm, &url, &s, limit))
        .await
        .map_err(|e| format!("driver task failed: {e}"))?;
    let requests = recorder.finish().await.requests;
    let outcome = outcome?;
    save_requests(m, "requests.jsonl", &requests);
    let mut findings = Vec::new();
    // A client that fell back to the legacy handshake is not bound by this revision's
    // tools/list exclusion (D-43); the report shows its era.
    let modern = requests
        .iter()
        .filter_map(RecordedRequest::json)
        .any(|b| is_modern(&b));
    if let (Some(kept), true) = (&outcome.kept, modern) {
        findings.extend(judge_kept(set, kept));
    }
    for r in &requests {
        findings.extend(judge_request(set, r));
    }
    Ok(Judged {
        modern,
        outcome,
        requests,
        findings,
    })
}

/// The retry probe: serve one tool without its annotation, refuse its first call with
/// 400 / -32020, then publish it with the annotation, and judge whether the client lists the
/// tools again and retries with the new header (CLIENT-MISMATCH-RETRY).
pub async fn retry_probe(
    m: &Manifest,
    limit: DriverLimit,
) -> Result<(Vec<ClientFinding>, Vec<String>), String> {
    let limit = limit.now().ok_or(OUT_OF_TIME)?;
    let annotated = mcpdiff_oracle::client_judge::calibration_set()
        .tools
        .into_iter()
        .find(|t| t.name() == "echo_region")
        .map(|mut t| {
            t.calls.truncate(1);
            t
        })
        .ok_or("the calibration set has no echo_region")?;
    let mut plain = annotated.definition.clone();
    if let Some(p) = plain.pointer_mut("/inputSchema/properties/region") {
        p.as_object_mut().map(|o| o.remove("x-mcp-header"));
    }
    let before = ToolSet::new(
        None,
        vec![mcpdiff_oracle::toolset::GeneratedTool::labelled(
            plain,
            annotated.calls.clone(),
            None,
        )],
    );
    let after = ToolSet::new(None, vec![annotated]);
    let recorder = Recorder::start(before.clone(), Some(after.clone()))
        .await
        .map_err(|e| format!("cannot start the recording server: {e}"))?;
    let url = recorder.url.clone();
    let mm = m.clone();
    let outcome = tokio::task::spawn_blocking(move || run_driver(&mm, &url, &before, limit))
        .await
        .map_err(|e| format!("driver task failed: {e}"))?;
    let rec = recorder.finish().await;
    let outcome = outcome?;
    save_requests(m, "retry-requests.jsonl", &rec.requests);
    let errors = outcome
        .errors
        .iter()
        .map(|e| format!("retry probe: {e}"))
        .collect();
    let findings =
        mcpdiff_oracle::client_judge::judge_retry(&rec.requests, &rec.refused, Some(&after));
    Ok((findings, errors))
}

/// Run every client target against `set`: install when missing, run, judge, shrink.
pub async fn run_all(
    manifests: &[Manifest],
    set: &ToolSet,
    limit: DriverLimit,
    shrink_runs: usize,
    progress: &dyn Fn(&str),
) -> Vec<ClientTargetReport> {
    let mut out = Vec::new();
    for m in manifests {
        if limit.now().is_none() {
            out.push(ClientTargetReport::skipped(m, OUT_OF_TIME.to_string()));
            continue;
        }
        if !m.installed() {
            progress(&format!(
                "installing {} ({} {})",
                m.name, m.sdk.package, m.sdk.version
            ));
        }
        let mm = m.clone();
        let installed = tokio::task::spawn_blocking(move || {
            crate::targets::launch::install(&mm, &|l: &str| eprintln!("mcpdiff:   {l}"))
        })
        .await
        .unwrap_or_else(|e| Err(format!("install task failed: {e}")));
        if let Err(e) = installed {
            out.push(ClientTargetReport::skipped(m, e));
            continue;
        }
        progress(&format!(
            "client {} ({} {})",
            m.name, m.sdk.package, m.sdk.version
        ));
        match run_once(m, set, limit).await {
            Err(e) => out.push(ClientTargetReport::skipped(m, e)),
            Ok(mut j) => {
                if j.modern {
                    match retry_probe(m, limit).await {
                        Ok((f, errors)) => {
                            j.findings.extend(f);
                            j.outcome.errors.extend(errors);
                        }
                        Err(e) => j.outcome.errors.push(format!("retry probe: {e}")),
                    }
                }
                let legacy = j
                    .requests
                    .iter()
                    .filter_map(RecordedRequest::json)
                    .filter(|b| b.get("method").is_some() && !is_modern(b))
                    .count();
                let repros = shrink::shrink_all(m, set, &j.findings, limit, shrink_runs).await;
                out.push(ClientTargetReport::from_run(m, set, &j, legacy, repros));
            }
        }
    }
    out
}

/// Keep the recorded requests beside the driver log (`targets/<name>/.log/<file>`),
/// so a finding can be confirmed by hand. Best effort: a write failure loses only the log.
fn save_requests(m: &Manifest, file: &str, requests: &[RecordedRequest]) {
    let lines: Vec<String> = requests
        .iter()
        .map(|r| {
            let headers: Vec<(String, String)> = r
                .headers
                .iter()
                .map(|(n, v)| (n.clone(), mcpdiff_oracle::client_judge::show_bytes(v)))
                .collect();
            serde_json::json!({"method": r.method, "headers": headers,
                "body": String::from_utf8_lossy(&r.body)})
            .to_string()
        })
        .collect();
    let _ = std::fs::write(m.log_dir().join(file), lines.join("\n") + "\n");
}
