//! Preparing the targets of `mcpdiff run`, all at once and within a time bound: discovery,
//! the revision probe (`runner::revision`), the server-card scan and the `--tools` check. A
//! target that refuses every connection, or whose preparation does not end in its share of
//! `--max-time`, is kept as `Untested` so the reports still carry an entry for it.

use mcpdiff::runner::{self, prepare::prepare, revision, NetSender, Target};
use mcpdiff::transport::Client;
use mcpdiff_oracle::toolset::{PublishedCheck, ToolSet};
use mcpdiff_oracle::Undetermined;
use std::time::{Duration, Instant};

/// A target ready to be fuzzed.
pub struct Ready {
    pub target: Target<NetSender>,
    pub loopback: bool,
    pub revision: revision::RevisionEvidence,
    pub published: Option<PublishedCheck>,
}

/// A target that could not be tested.
pub struct Untested {
    pub name: String,
    pub url: String,
    pub reason: Undetermined,
    pub error: String,
}

/// Prepare every `(name, url)` concurrently; each gives up at `until`.
pub async fn prepare_all(
    specs: &[(String, String)],
    client: &Client,
    allow_tools: &[String],
    toolset: Option<&ToolSet>,
    until: Instant,
) -> Vec<Result<Ready, Untested>> {
    let jobs = specs.iter().map(|(name, url)| async move {
        let untested = |reason, error: String| Untested {
            name: name.clone(),
            url: url.clone(),
            reason,
            error,
        };
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout_at(until.into(), one(name, url, client, allow_tools, toolset))
            .await
        {
            Ok(Ok(ready)) => Ok(ready),
            Ok(Err(e)) => Err(untested(Undetermined::Unreachable, e)),
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

async fn one(
    name: &str,
    url: &str,
    client: &Client,
    allow_tools: &[String],
    toolset: Option<&ToolSet>,
) -> Result<Ready, String> {
    let t = prepare(name, url, client, allow_tools).await?;
    // which era the target speaks: evidence for the review (runner::revision)
    let s = t.target.sender.clone();
    let send = |c| runner::Sender::send(&s, c);
    let rev = revision::probe(&t.target.surface.endpoint, send).await;
    let mut target = t.target;
    if rev.verdict == revision::RevisionVerdict::DualEra {
        // rules addressed to servers that support only this revision step aside
        target.surface.legacy_era = true;
        target.gen_surface.legacy_era = true;
        target
            .notes
            .push("answers the legacy initialize handshake too: judged as dual-era".into());
    }
    // the origin's server card, the way the public scanner reads it (issue 8)
    let card_opts = mcpdiff::card::ScanOptions {
        timeout: Duration::from_secs(2),
        truth: false,
        catalog: false,
        ..Default::default()
    };
    match mcpdiff::card::scan(url, &card_opts).await {
        Ok(c) => {
            let fix = c.fix.map(|f| format!("; ship: {f}")).unwrap_or_default();
            target.notes.push(format!(
                "server card: {} ({}){fix}",
                c.verdict.as_str(),
                c.detail
            ));
        }
        Err(e) => target
            .notes
            .push(format!("server card: not scanned ({e:?})")),
    }
    // what the target made of the tool set it was asked to load
    let published = toolset.map(|set| set.compare_published(&target.surface.tools));
    Ok(Ready {
        target,
        loopback: t.loopback,
        revision: rev,
        published,
    })
}
