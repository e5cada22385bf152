//! The revision probe: which era a target appears to implement (modern 2026-07-28, the
//! legacy `initialize` handshake era, or both), with the evidence a reviewer can check.
//!
//! Kept apart from discovery and fuzzing on purpose: it sends requests a modern-only server
//! is expected to refuse (a legacy `initialize` without MCP headers, an unknown version), so
//! their answers are *evidence*, never findings. The rules they touch (BC-*, PV-*) are judged
//! by the fuzzer with its own cases. Three or four requests per target:
//!
//! 1. a legacy `initialize` POST (2025-11-25 shape, no `MCP-Protocol-Version`/`Mcp-Method`);
//! 2. a conformant modern `server/discover`;
//! 3. a modern `server/discover` declaring an unknown version (`1900-01-01`), to see an
//!    `UnsupportedProtocolVersionError` (-32022) and its `supported` list;
//! 4. only when step 1 minted an `Mcp-Session-Id`: a `DELETE` carrying it, so the probe does
//!    not leave a legacy session open on the target.
//!
//! A target that answered the handshake then gets the 2025-11-25 sequences
//! (`runner::legacy`): their findings are that revision's own (`L-*` rules, their own score in
//! [`RevisionEvidence::revisions`]), never the modern run's.

use mcpdiff_oracle::case::MODERN_VERSION;
use mcpdiff_oracle::client::{conformant_case, request_meta};
use mcpdiff_oracle::{Case, Observation, Surface};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::future::Future;

/// The legacy revision the `initialize` probe asks for (the last handshake-era revision).
pub const LEGACY_VERSION: &str = "2025-11-25";
/// A version no server implements, to provoke `UnsupportedProtocolVersionError`.
const BOGUS_VERSION: &str = "1900-01-01";
/// `UnsupportedProtocolVersionError`.
const UNSUPPORTED_VERSION: i64 = -32022;

/// Which era the target appears to implement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevisionVerdict {
    /// Answers modern (per-request `_meta`) requests; refuses the `initialize` handshake.
    Modern,
    /// Answers `initialize` (or mints sessions); does not answer modern requests.
    Legacy,
    /// Answers both: a dual-era server (allowed: versioning.mdx, "MAY serve both eras").
    DualEra,
    /// Neither probe got an answer that identifies an era.
    Undetermined,
}

impl RevisionVerdict {
    /// One word for tables.
    pub fn short(self) -> &'static str {
        match self {
            RevisionVerdict::Modern => "modern",
            RevisionVerdict::Legacy => "legacy",
            RevisionVerdict::DualEra => "dual-era",
            RevisionVerdict::Undetermined => "not determined",
        }
    }

    /// One phrase for reports.
    pub fn describe(self) -> &'static str {
        match self {
            RevisionVerdict::Modern => "modern (2026-07-28, per-request metadata)",
            RevisionVerdict::Legacy => "legacy (initialize handshake era, 2025-11-25 and earlier)",
            RevisionVerdict::DualEra => "both eras (dual-era: modern and legacy initialize)",
            RevisionVerdict::Undetermined => "not determined",
        }
    }
}

/// What the probe concluded and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RevisionEvidence {
    pub verdict: RevisionVerdict,
    /// One sentence per observation, in the order the requests were sent.
    pub evidence: Vec<String>,
    /// Versions the target named (discover's `supportedVersions`, a -32022 `supported`
    /// list, or `initialize`'s `protocolVersion`), deduplicated, in first-seen order.
    #[serde(default)]
    pub versions: Vec<String>,
    /// Deprecated features the target still offers, as far as these requests show.
    #[serde(default)]
    pub deprecated: Vec<String>,
    /// Per revision other than 2026-07-28 that the target answers: what its rules found
    /// (today the 2025-11-25 sequences of a target that answered `initialize`). The
    /// 2026-07-28 outcome is the target's own score and findings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revisions: Vec<super::legacy::RevisionOutcome>,
}

impl RevisionEvidence {
    /// Whether another revision's rules (`revisions`) found a MUST-level defect: the run
    /// fails on it as on a modern one, while each revision keeps its own score.
    pub fn other_revision_blocking(&self) -> bool {
        self.revisions.iter().any(|o| o.blocking())
    }
}

/// The JSON-RPC response an observation carries, if any.
fn rpc(obs: &Observation) -> Option<&Value> {
    obs.http()?.rpc_response()
}

fn push_versions(into: &mut Vec<String>, list: Option<&Value>) {
    for v in list.and_then(Value::as_array).into_iter().flatten() {
        if let Some(s) = v.as_str() {
            if !into.iter().any(|k| k == s) {
                into.push(s.to_string());
            }
        }
    }
}

/// The legacy handshake, as a 2025-11-25 client opens it: no MCP headers at all.
fn legacy_initialize(path: &str) -> Case {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": LEGACY_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "mcpdiff", "version": env!("CARGO_PKG_VERSION")},
        }
    });
    Case::post(
        path,
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
        body.to_string(),
    )
}

/// A modern `server/discover` that declares `version` in both header and `_meta`.
fn discover_with_version(path: &str, version: &str) -> Case {
    let body = json!({
        "jsonrpc": "2.0", "id": 3, "method": "server/discover",
        "params": {"_meta": request_meta(version)},
    });
    Case::post(
        path,
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", version),
            ("Mcp-Method", "server/discover"),
        ],
        body.to_string(),
    )
}

/// Probe the target at `endpoint_path` with `send` (one request at a time), then run the
/// 2025-11-25 sequences on a target that answered the handshake.
pub async fn probe<F, Fut>(endpoint_path: &str, send: F) -> RevisionEvidence
where
    F: FnMut(Case) -> Fut,
    Fut: Future<Output = Observation>,
{
    probe_selected(endpoint_path, true, send).await
}

/// [`probe`], running the 2025-11-25 sequences only when `legacy_sequences` (`mcpdiff run
/// --revision` without 2025-11-25 still tells the eras apart, but grades none of its rules).
pub async fn probe_selected<F, Fut>(
    endpoint_path: &str,
    legacy_sequences: bool,
    mut send: F,
) -> RevisionEvidence
where
    F: FnMut(Case) -> Fut,
    Fut: Future<Output = Observation>,
{
    let mut evidence = Vec::new();
    let mut versions = Vec::new();
    let mut deprecated = Vec::new();
    let mut legacy = false;
    let mut modern = false;

    // 1. legacy initialize
    let init = send(legacy_initialize(endpoint_path)).await;
    let session = init.http().and_then(|a| a.session_id.clone());
    match rpc(&init) {
        Some(r) if r.get("result").is_some() => {
            legacy = true;
            let pv = r["result"].get("protocolVersion").and_then(Value::as_str);
            if let Some(pv) = pv {
                push_versions(&mut versions, Some(&json!([pv])));
            }
            evidence.push(format!(
                "legacy `initialize` (protocolVersion {LEGACY_VERSION}, no MCP headers) was \
                 answered with a result{} ({})",
                pv.map(|v| format!(" negotiating protocolVersion {v}"))
                    .unwrap_or_default(),
                init.summary()
            ));
        }
        Some(r) => {
            let code = r["error"].get("code").and_then(Value::as_i64);
            let data = r["error"].get("data");
            push_versions(&mut versions, data.and_then(|d| d.get("supported")));
            let named = data.and_then(|d| d.get("supported")).is_some();
            evidence.push(format!(
                "legacy `initialize` was refused ({}){}",
                init.summary(),
                if named {
                    " naming the supported versions, as versioning.mdx asks of modern-only servers"
                } else if code == Some(UNSUPPORTED_VERSION) {
                    ""
                } else {
                    " without naming supported versions"
                }
            ));
        }
        None => evidence.push(format!(
            "legacy `initialize` got no JSON-RPC answer ({})",
            init.summary()
        )),
    }
    // a session on a *refused* initialize is a legacy leftover (SHTTP-BC-SESSION-IGNORE),
    // not a legacy era: only an answered handshake makes the target legacy
    if let Some(id) = &session {
        evidence.push(format!(
            "`initialize` was answered with Mcp-Session-Id `{id}`{}",
            if legacy {
                " (a legacy session)"
            } else {
                " although the handshake was refused (a legacy leftover; sessions do not exist \
                 in 2026-07-28)"
            }
        ));
    }

    // 2. modern server/discover
    let surface = Surface::minimal(endpoint_path);
    let disc = send(conformant_case(
        &surface,
        json!(2),
        "server/discover",
        json!({}),
    ))
    .await;
    match rpc(&disc) {
        Some(r) if r.get("result").is_some() => {
            modern = true;
            let sv = r["result"].get("supportedVersions");
            push_versions(&mut versions, sv);
            evidence.push(format!(
                "modern `server/discover` ({MODERN_VERSION}) was answered with a result ({})",
                disc.summary()
            ));
            let caps = r["result"].get("capabilities");
            if caps.and_then(|c| c.get("logging")).is_some() {
                deprecated.push(
                    "advertises the `logging` capability (Logging is deprecated in 2026-07-28, \
                     SEP-2577)"
                        .to_string(),
                );
            }
        }
        Some(r) => {
            let code = r["error"].get("code").and_then(Value::as_i64);
            // a modern error code (-32020..-32022) still identifies a modern server
            if code.is_some_and(|c| (-32022..=-32020).contains(&c)) {
                modern = true;
            }
            push_versions(
                &mut versions,
                r["error"].get("data").and_then(|d| d.get("supported")),
            );
            evidence.push(format!(
                "modern `server/discover` was refused ({})",
                disc.summary()
            ));
        }
        None => evidence.push(format!(
            "modern `server/discover` got no JSON-RPC answer ({})",
            disc.summary()
        )),
    }
    if let Some(id) = disc.http().and_then(|a| a.session_id.as_deref()) {
        evidence.push(format!(
            "the modern request was answered with Mcp-Session-Id `{id}` (a modern server does \
             not mint sessions)"
        ));
    }

    // 3. unknown version
    let bogus = send(discover_with_version(endpoint_path, BOGUS_VERSION)).await;
    let answer = rpc(&bogus);
    let code = answer
        .and_then(|r| r["error"].get("code"))
        .and_then(Value::as_i64);
    if code == Some(UNSUPPORTED_VERSION) {
        modern = true;
        let supported = answer.and_then(|r| r["error"].get("data")?.get("supported"));
        push_versions(&mut versions, supported);
        evidence.push(format!(
            "version {BOGUS_VERSION} was refused with UnsupportedProtocolVersionError ({}){}",
            bogus.summary(),
            supported
                .map(|s| format!(", supported: {s}"))
                .unwrap_or_else(|| ", with no `supported` list".to_string())
        ));
    } else {
        evidence.push(format!(
            "version {BOGUS_VERSION} was not refused with -32022 ({})",
            bogus.summary()
        ));
    }

    // 4. close the legacy session the probe opened
    if let Some(id) = session {
        let mut del = Case::post(endpoint_path, &[("Mcp-Session-Id", id.as_str())], "");
        del.method = "DELETE".to_string();
        let _ = send(del).await;
    }

    let legacy_listed: Vec<&String> = versions
        .iter()
        .filter(|v| v.as_str() < MODERN_VERSION)
        .collect();
    if modern && !legacy && !legacy_listed.is_empty() {
        evidence.push(format!(
            "names legacy version(s) {} as supported, but did not answer the legacy handshake",
            legacy_listed
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let verdict = match (modern, legacy) {
        (true, true) => RevisionVerdict::DualEra,
        (true, false) => RevisionVerdict::Modern,
        (false, true) => RevisionVerdict::Legacy,
        (false, false) => RevisionVerdict::Undetermined,
    };
    let mut revisions = Vec::new();
    if legacy && legacy_sequences {
        let known = super::legacy::legacy_versions(&versions);
        if let Some(outcome) = super::legacy::run(endpoint_path, &known, &mut send).await {
            evidence.push(outcome.summary());
            revisions.push(outcome);
        }
    }
    RevisionEvidence {
        verdict,
        evidence,
        versions,
        deprecated,
        revisions,
    }
}

#[cfg(test)]
#[path = "revision_tests.rs"]
mod tests;
