//! Preparing the targets of a run, all at once and within a time bound: discovery
//! (`runner::prepare`), the revision probe (`runner::revision`), the server-card scan and the
//! `--tools` comparison. Each target yields one [`Preparation`]: ready to fuzz with its
//! [`TargetEvidence`], or [`Untested`] (refused every connection, asked for credentials, or
//! did not finish in its share of `--max-time`) so the reports still carry an entry for it.

use super::start::TargetSpec;
use crate::card::{self, CardStatus};
use crate::runner::prepare::TargetError;
use crate::runner::{self, revision, NetSender, Target};
use crate::transport::Client;
use mcpdiff_oracle::rules::Revision;
use mcpdiff_oracle::toolset::{PublishedCheck, ToolSet};
use mcpdiff_oracle::{Case, Undetermined};
use std::time::{Duration, Instant};

/// What preparing one target found besides its surface (which the runner's [`Target`]
/// carries): the report reads it by target name.
#[derive(Clone, Debug)]
pub struct TargetEvidence {
    pub name: String,
    pub url: String,
    /// The pinned SDK version of a bundled target.
    pub version: Option<String>,
    /// On a loopback host (every tool may be called, no default rate limit).
    pub loopback: bool,
    /// Which era the target speaks, and why.
    pub revision: revision::RevisionEvidence,
    /// The origin's server card, read the way the public scanner reads it.
    pub card: CardEvidence,
    /// With `--tools`: what the target's `tools/list` made of the tool set.
    pub toolset: Option<PublishedCheck>,
}

/// The server-card scan of a target's origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardEvidence {
    Scanned {
        status: CardStatus,
        /// One line: what was found, or what is wrong.
        detail: String,
        /// One line: what to ship instead.
        fix: Option<String>,
    },
    /// The scan could not be done (the error, one line).
    NotScanned(String),
}

impl CardEvidence {
    /// The target's note on its card.
    pub fn note(&self) -> String {
        match self {
            CardEvidence::Scanned {
                status,
                detail,
                fix,
            } => {
                let fix = fix
                    .as_ref()
                    .map(|f| format!("; ship: {f}"))
                    .unwrap_or_default();
                format!("server card: {} ({detail}){fix}", status.as_str())
            }
            CardEvidence::NotScanned(e) => format!("server card: not scanned ({e})"),
        }
    }
}

/// A target ready to be fuzzed, with its evidence.
pub struct Ready {
    pub target: Target<NetSender>,
    pub evidence: TargetEvidence,
    /// Whether the 2026-07-28 cases go to it: not when that revision is not selected, nor
    /// when the target speaks 2025-11-25 only (the modern surface is not offered, so its
    /// refusals of modern cases are no 2026-07-28 findings).
    pub fuzz: bool,
}

/// A target that could not be tested.
#[derive(Clone, Debug)]
pub struct Untested {
    pub name: String,
    pub url: String,
    /// A bundled SDK target (that died after start-up: a note, not a failed run).
    pub bundled: bool,
    pub reason: Undetermined,
    pub error: String,
}

/// The outcome of preparing one target.
pub type Preparation = Result<Ready, Untested>;

/// What preparation needs besides the targets.
pub struct PrepareOptions<'a> {
    pub client: &'a Client,
    /// Tools called on non-loopback targets besides the `readOnlyHint` ones.
    pub allow_tools: &'a [String],
    /// The `--tools` set each target's `tools/list` is compared with.
    pub toolset: Option<&'a ToolSet>,
    /// The revisions `run --revision` grades (both by default).
    pub revisions: &'a [Revision],
}

/// Prepare every target concurrently, in the order given; each gives up at `until`.
pub async fn prepare_all(
    specs: &[TargetSpec],
    opts: &PrepareOptions<'_>,
    until: Instant,
) -> Vec<Preparation> {
    let jobs = specs.iter().map(|spec| async move {
        let untested = |reason, error: String| Untested {
            name: spec.name.clone(),
            url: spec.url.clone(),
            bundled: spec.bundled,
            reason,
            error,
        };
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout_at(until.into(), prepare_one(spec, opts)).await {
            Ok(Ok(ready)) => Ok(ready),
            // `prepare` fails on an authorization challenge at discovery, or when the target
            // cannot be reached (a bad URL, a refused connection, a failed TLS handshake)
            Ok(Err(e)) if e.is_unauthorized() => {
                Err(untested(Undetermined::Unauthorized, e.to_string()))
            }
            Ok(Err(e)) => Err(untested(Undetermined::Unreachable, e.to_string())),
            Err(_) => Err(untested(
                Undetermined::TimedOut,
                format!(
                    "discovery did not finish within its share of --max-time ({} s)",
                    left.as_secs()
                ),
            )),
        }
    });
    futures::future::join_all(jobs).await
}

/// The surface a run judges a target's answers with, and nothing else of its evidence:
/// discovery, then the revision probe (without the 2025-11-25 sequences), whose dual-era
/// verdict sets `legacy_era` as [`prepare_one`] sets it. `user`: the endpoint was named by
/// the user (only such a target is judged as protected, as in a run). `None` when
/// `server/discover` gave no result (cut at the time limit, refused, not JSON): the minimal
/// stand-in a run then fuzzes with declares nothing, and judging a stored case with it would
/// read every tool the case calls as undeclared. `mcpdiff replay` judges each target with
/// this surface: a stored case's expectations depend on the surface, and a target declares
/// its own.
pub async fn judged_surface(
    name: &str,
    url: &str,
    client: &Client,
    user: bool,
) -> Result<Option<mcpdiff_oracle::Surface>, TargetError> {
    let t = runner::prepare::prepare(name, url, client, &[]).await?;
    if !t.discovered {
        return Ok(None);
    }
    let s = &t.target.sender;
    let send = |c: Case| async move { runner::legacy_seq::send_step(s, c).await };
    let rev = revision::probe_selected(&t.target.surface.endpoint, false, send).await;
    let mut surface = t.target.surface;
    surface.protected &= user;
    surface.legacy_era |= rev.verdict == revision::RevisionVerdict::DualEra;
    Ok(Some(surface))
}

/// Discover one target, probe its revision, scan its card, compare its tools.
pub async fn prepare_one(
    spec: &TargetSpec,
    opts: &PrepareOptions<'_>,
) -> Result<Ready, TargetError> {
    let client = opts.client;
    let mut laps = super::timing::Stages::start();
    let t = runner::prepare::prepare(&spec.name, &spec.url, client, opts.allow_tools).await?;
    laps.lap(&format!("prepare {}: discovery", spec.name));
    let s = &t.target.sender;
    let gets = super::timing::GetClock::default();
    // a GET of the fixed 2025-11-25 sequences that resumes nothing is read until it stays
    // quiet, not to the SSE time limit: why no verdict changes, `runner::legacy::run`
    let send = |c: Case| {
        let gets = &gets;
        let kind = super::timing::GetClock::kind(&c);
        async move {
            let began = Instant::now();
            let obs = runner::legacy_seq::send_step(s, c).await;
            gets.add(kind, began.elapsed());
            obs
        }
    };
    let legacy_selected = opts.revisions.contains(&Revision::V2025_11_25);
    let rev = revision::probe_selected(&t.target.surface.endpoint, legacy_selected, send).await;
    laps.lap(&format!("prepare {}: revision probe", spec.name));
    gets.print(&format!("prepare {}: revision probe", spec.name));
    let fuzz = opts.revisions.contains(&Revision::V2026_07_28)
        && rev.verdict != revision::RevisionVerdict::Legacy;
    let mut target = t.target;
    // only the endpoints the user named are theirs to call protected
    target.surface.protected &= spec.user;
    if rev.verdict == revision::RevisionVerdict::Legacy {
        // the discovery notes above read its refusals as a modern server's; say what they are
        target.notes.push(
            "answers the legacy initialize handshake and refuses the modern requests: \
             2026-07-28 is not offered, no generated case is sent to it"
                .into(),
        );
    }
    if rev.verdict == revision::RevisionVerdict::DualEra {
        // rules addressed to servers that support only this revision step aside
        target.surface.legacy_era = true;
        target.gen_surface.legacy_era = true;
        target
            .notes
            .push("answers the legacy initialize handshake too: judged as dual-era".into());
    }
    // the other revisions' outcomes are scored apart from this run's (runner::legacy) and
    // reported in their own section (`report::revisions`), not among the notes
    let card_opts = card::ScanOptions {
        timeout: Duration::from_secs(2),
        truth: false,
        catalog: false,
        tls: client.tls().clone(),
        credentials: client.credentials().clone(),
        ..Default::default()
    };
    let card = match card::scan(&spec.url, &card_opts).await {
        Ok(c) => CardEvidence::Scanned {
            status: c.verdict,
            detail: c.detail,
            fix: c.fix,
        },
        Err(e) => CardEvidence::NotScanned(e.to_string()),
    };
    target.notes.push(card.note());
    laps.lap(&format!("prepare {}: card scan", spec.name));
    let toolset = opts
        .toolset
        .map(|set| set.compare_published(&target.surface.tools));
    let evidence = TargetEvidence {
        name: spec.name.clone(),
        url: spec.url.clone(),
        version: spec.version.clone(),
        loopback: t.loopback,
        revision: rev,
        card,
        toolset,
    };
    Ok(Ready {
        target,
        evidence,
        fuzz,
    })
}
