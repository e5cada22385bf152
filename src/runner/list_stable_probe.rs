//! The list probe after a run (TOOLS-LIST-STABLE, RES-LIST-STABLE, PROMPTS-LIST-STABLE,
//! oracle `list_stable`): for each fuzzed target and each list it declares, the list on a
//! fresh connection, then the family's other request and the list again on one kept-alive
//! connection, then the list on a fresh connection again, the three judged together
//! (`list_stable::judge_triple`). A list served in pages is read whole each time, following
//! its own `nextCursor`s: A's and C's pages each on a fresh connection, B's on the kept-alive
//! one. Four requests per list when it is listed at once (twelve per target), one more for
//! each further page of each of the three readings (at most `list_stable::MAX_PAGES` pages a
//! reading). A triple that decides nothing is not recorded; the others are recorded in the
//! target's tally like the authorization family's judgements (`auth_probes::record`), each
//! with its requests by connection (`AuthResult::connections`), which its reproducer resends
//! (the cursors as the target gave them in this run).

use super::RunResult;
use crate::auth::AuthResult;
use crate::transport::{Client, Endpoint};
use mcpdiff_oracle::list_stable::{
    judge_triple, list_stable_probes, next_cursor, ListStableProbe, MAX_PAGES,
};
use mcpdiff_oracle::{Case, Observation, Surface};

/// Send every triple to one target: the judged triples (as the authorization family's
/// results, which `auth_probes::record` takes) and the number of requests sent.
pub async fn probe(
    client: &Client,
    endpoint: &Endpoint,
    surface: &Surface,
) -> (Vec<AuthResult>, u64) {
    let mut out = Vec::new();
    let mut sent = 0u64;
    for p in list_stable_probes(surface) {
        // a pool of none: each list page on a connection of its own, closed after the answer
        let fresh_client = client.with_own_pool(0);
        let fresh = read_list(&fresh_client, endpoint, surface, &p).await;
        // a pool of one, empty: the other request opens the connection the list reuses
        let keeping = client.with_own_pool(1);
        let other = keeping.exchange(&p.other, endpoint).await;
        let mut after = read_list(&keeping, endpoint, surface, &p).await;
        let again = read_list(&fresh_client, endpoint, surface, &p).await;
        sent += 1 + [&fresh, &after, &again]
            .iter()
            .map(|r| r.sent.len() as u64)
            .sum::<u64>();
        let Some(finding) = judge_triple(
            &p,
            &fresh.pages,
            &other.observation,
            &after.pages,
            after.all_reused,
            &again.pages,
        )
        .decided() else {
            continue;
        };
        // as sent: A's pages each alone, the other request and B's pages on the kept-alive
        // connection, C's pages each alone (the reproducer resends all of them, the same way;
        // the answer shown is the last on the kept-alive connection, as for an unpaged list)
        let alone = |r: &ListReading| r.sent.iter().map(|c| vec![c.clone()]).collect::<Vec<_>>();
        let mut connections = alone(&fresh);
        connections.push(
            std::iter::once(p.other.clone())
                .chain(after.sent.iter().cloned())
                .collect(),
        );
        connections.extend(alone(&again));
        let (Some(case), Some(observation)) = (after.sent.pop(), after.pages.pop()) else {
            continue;
        };
        out.push(AuthResult {
            rule: p.kind.rule(),
            case,
            observation,
            finding,
            connections,
        });
    }
    (out, sent)
}

/// One reading of a list: the requests sent (the list, then one per further page) and their
/// answers, and whether every answer came over a connection already open.
struct ListReading {
    sent: Vec<Case>,
    pages: Vec<Observation>,
    all_reused: bool,
}

/// Read `p`'s list through `client`, following each page's `nextCursor` to at most
/// `MAX_PAGES` pages (a longer list is left unread past them: it decides nothing).
async fn read_list(
    client: &Client,
    endpoint: &Endpoint,
    surface: &Surface,
    p: &ListStableProbe,
) -> ListReading {
    let mut reading = ListReading {
        sent: vec![p.list.clone()],
        pages: Vec::new(),
        all_reused: true,
    };
    // (`sent` is never empty: it starts with the list request and grows before each send)
    while let Some(case) = reading.sent.last() {
        let answer = client.exchange(case, endpoint).await;
        reading.all_reused &= answer.reused_connection;
        let next = next_cursor(p.kind, &answer.observation);
        reading.pages.push(answer.observation);
        match next {
            Some(cursor) if reading.pages.len() < MAX_PAGES => {
                reading.sent.push(p.next_page(surface, &cursor));
            }
            _ => break,
        }
    }
    reading
}

/// After the run: probe every fuzzed target and record the judgements.
pub async fn after_run(client: &Client, result: &mut RunResult) {
    for t in result.targets.iter_mut() {
        let Ok(e) = Endpoint::parse(&t.url) else {
            continue;
        };
        let (judged, sent) = probe(client, &e, &t.surface).await;
        result.requests += sent;
        super::auth_probes::record(t, judged);
    }
}
