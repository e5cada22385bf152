//! `mcpdiff replay` for a 2025-11-25 sequence entry (`mcpdiff-legacy-corpus/1`): the stored
//! answers re-judged with today's legacy judge (drift, or `--bless`), then the steps sent to
//! each target one at a time (`runner::legacy_seq::run_steps`, each step carrying the session
//! id the target mints on this replay) and the last answer classified against the record.
//! `--reference` replays these on the dual-era reference (`serve --dual-era`), which must
//! pass them.

use super::replay_target::ReplayTarget;
use mcpdiff::corpus::legacy::{classify, rebless, rejudge, stored_for};
use mcpdiff::corpus::{store, LegacyLoaded, Status};
use mcpdiff::runner::legacy_seq::run_steps;
use mcpdiff::transport::{Client, Endpoint};
use mcpdiff_oracle::legacy::LegacyProfile;

/// What replaying one legacy entry did to the drift counts.
pub(super) enum Judged {
    Clean,
    Drifted,
    Blessed,
}

/// Re-judge `l` (printing drift, or blessing it) and send it to every target; the targets'
/// counts are updated. `reference`: the dual-era reference's endpoint, used instead of the
/// modern reference's for the target named `reference`. `Err` (printed): it could not be
/// written. The bool: a MUST-level rule fails now on some target.
pub(super) async fn replay_legacy(
    mut l: LegacyLoaded,
    bless: bool,
    verbose: bool,
    client: &Client,
    targets: &mut [ReplayTarget],
    reference: Option<&Endpoint>,
) -> Result<(Judged, bool), ()> {
    let file = l.path.display().to_string();
    let drift = rejudge(&l.entry);
    let judged = if drift.is_empty() {
        Judged::Clean
    } else if bless {
        rebless(&mut l.entry);
        store::write(&l.path, &l.entry).map_err(|e| eprintln!("error: {e}"))?;
        println!("blessed  {file}");
        Judged::Blessed
    } else {
        println!("DRIFT    {file}: the legacy judge's findings changed");
        for d in &drift {
            println!("           {d}");
        }
        Judged::Drifted
    };
    let profile = LegacyProfile {
        supported: l.entry.supported.clone(),
    };
    let mut blocking = false;
    for t in targets.iter_mut() {
        let endpoint = match reference {
            Some(e) if t.name == "reference" => e,
            _ => &t.endpoint,
        };
        let send = |c| async move { client.send(&c, endpoint).await };
        let run = run_steps(&l.entry.steps, &endpoint.path, &profile, true, send).await;
        let refused = run.records.iter().all(|r| r.observation.is_refused());
        if !refused {
            t.reached += 1;
        }
        let (status, failing, must) = classify(stored_for(&l.entry, &t.name, &t.url), &run);
        blocking |= must;
        *t.counts.entry(status).or_default() += 1;
        if status != Status::Passing || verbose {
            let observed = run
                .records
                .last()
                .map(|r| r.observation.summary())
                .unwrap_or_default();
            println!(
                "{:<14} {file}  {}  [{}]  {} step(s), last observed {observed}",
                status.label(),
                t.name,
                failing.join(", "),
                l.entry.steps.len()
            );
        }
    }
    Ok((judged, blocking))
}
