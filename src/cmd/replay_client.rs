//! `mcpdiff replay` of a client entry (`mcpdiff-client-corpus/2`): its recordings re-judged
//! with today's client judge (never sent to targets); drift printed, or blessed.

use mcpdiff::corpus::{rejudge_client, store, ClientLoaded};

/// What replaying one client entry did.
pub(super) enum ClientReplay {
    Clean,
    Drifted,
    Blessed,
}

/// Re-judge a client entry's recordings; print drift (one line per client and rule) or, with
/// `bless`, write today's findings. Err (already printed) when it cannot be decoded or
/// written.
pub(super) fn client_case(mut c: ClientLoaded, bless: bool) -> Result<ClientReplay, ()> {
    let file = c.path.display().to_string();
    let records = rejudge_client(&c.entry).map_err(|e| eprintln!("error: {file}: {e}"))?;
    if records.iter().all(|r| r.drift.is_empty()) {
        return Ok(ClientReplay::Clean);
    }
    if !bless {
        println!("DRIFT    {file}: the client judge's findings changed");
        for d in records.iter().flat_map(|r| &r.drift) {
            println!("           {d}");
        }
        return Ok(ClientReplay::Drifted);
    }
    for (stored, now) in c.entry.clients.iter_mut().zip(records) {
        stored.findings = now.now;
    }
    store::write(&c.path, &c.entry).map_err(|e| eprintln!("error: {e}"))?;
    println!("blessed  {file}");
    Ok(ClientReplay::Blessed)
}
