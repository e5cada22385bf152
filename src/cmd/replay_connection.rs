//! `mcpdiff replay` of a connection entry (`mcpdiff::corpus::connection`): the sequence sent
//! again to each target as the probe sent it (a one-request connection fresh and closed after
//! its answer, the kept-alive connection kept open from its first request to its last) and
//! judged whole with today's judge. A list sequence is read again as the probe reads it
//! (`read_triple`): each reading's first page as stored, each further page with the cursor
//! the target gives now, since a stored cursor may have lapsed (a server may bind its cursors
//! to a time or a state). Printed as the other entries are.

use super::replay_target::{at_endpoint, Gate, ReplayTarget};
use mcpdiff::corpus::connection;
use mcpdiff::corpus::replay::stored_for;
use mcpdiff::corpus::Entry;
use mcpdiff::runner::list_stable_probe::read_triple;
use mcpdiff::transport::{Client, Endpoint};
use mcpdiff_oracle::connection_seq::Sequence;
use mcpdiff_oracle::Observation;

/// Replay `seq` (stored with `gate.stored`'s endpoint as its path) to every target the gate
/// lets it go to; whether a MUST finding came of it.
pub(super) async fn replay_sequence(
    client: &Client,
    entry: &Entry,
    seq: &Sequence,
    gate: &Gate<'_>,
    file: &str,
    verbose: bool,
    targets: &mut [ReplayTarget],
) -> bool {
    let stored_endpoint = gate.stored.endpoint.as_str();
    let mut blocking = false;
    for t in targets.iter_mut() {
        // (a list is read again from its stored first page and other request, the rest are
        // list pages: the stored requests are what may call a tool)
        if t.holds_back(seq.connections().iter().flatten(), gate, file) {
            continue;
        }
        // the answers by connection, which of them is the kept-alive one, and the judgement
        let (answers, kept, judged) = match seq.list_probe() {
            Some(mut probe) => {
                // the stored endpoint path stands for "the MCP endpoint" on every target
                for case in [&mut probe.list, &mut probe.other] {
                    at_endpoint(case, stored_endpoint, &t.endpoint);
                }
                let triple = read_triple(client, &t.endpoint, &probe).await;
                // (the kept-alive connection follows A's pages, as many as were read now)
                let kept = triple.fresh.pages.len();
                (triple.answers(), kept, triple.judge(&probe))
            }
            None => {
                let (answers, reused) = send(client, seq, stored_endpoint, &t.endpoint).await;
                let judged = seq.judge(&answers, &reused);
                (answers, seq.kept_alive(), judged)
            }
        };
        if answers.iter().flatten().any(|o| !o.is_refused()) {
            t.reached += 1;
        }
        let stored = stored_for(entry, &t.name, &t.url);
        let out = connection::classify(seq, stored, judged, &answers);
        blocking |= out.blocking;
        *t.counts.entry(out.status).or_default() += 1;
        if out.status != mcpdiff::corpus::Status::Passing || verbose {
            // the answer shown is the last of the kept-alive connection, as in the run
            let shown = answers
                .get(kept)
                .and_then(|a| a.last())
                .map_or_else(String::new, Observation::summary);
            let n: usize = answers.iter().map(Vec::len).sum();
            println!(
                "{:<14} {file}  {}  [{}]  observed {shown} (sequence of {n} requests)",
                out.status.label(),
                t.name,
                out.failing.join(", "),
            );
        }
    }
    blocking
}

/// Send every request of `seq` to `endpoint` connection by connection: the answers and, per
/// request, whether it travelled on a connection already open.
async fn send(
    client: &Client,
    seq: &Sequence,
    stored_endpoint: &str,
    endpoint: &Endpoint,
) -> (Vec<Vec<Observation>>, Vec<Vec<bool>>) {
    let (mut answers, mut reused) = (Vec::new(), Vec::new());
    for (i, connection) in seq.connections().iter().enumerate() {
        // a pool of one keeps the connection open between its requests; a pool of none
        // closes each after its answer
        let pool = client.with_own_pool(usize::from(i == seq.kept_alive()));
        let (mut a, mut r) = (Vec::new(), Vec::new());
        for case in connection {
            let mut case = case.clone();
            at_endpoint(&mut case, stored_endpoint, endpoint);
            let x = pool.exchange(&case, endpoint).await;
            a.push(x.observation);
            r.push(x.reused_connection);
        }
        answers.push(a);
        reused.push(r);
    }
    (answers, reused)
}
