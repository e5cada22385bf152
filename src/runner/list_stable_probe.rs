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
//! (the cursors as the target gave them in this run). `mcpdiff replay` of a kept list
//! sequence reads the list again with `read_triple`, through the cursors the target gives
//! then.

use super::RunResult;
use crate::auth::AuthResult;
use crate::transport::{Client, Endpoint, Exchange};
use mcpdiff_oracle::list_stable::{
    judge_triple, list_stable_probes, next_cursor, ListStableProbe, MAX_PAGES,
};
use mcpdiff_oracle::reuse::Judgement;
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
        let mut triple = read_triple(client, endpoint, &p).await;
        sent += triple.sent();
        let Some(finding) = triple.judge(&p).decided() else {
            continue;
        };
        let connections = triple.connections(&p);
        let (Some(case), Some(observation)) = (triple.after.sent.pop(), triple.after.pages.pop())
        else {
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

/// The three readings of one list and the request between them, as `read_triple` sent them.
pub struct Triple {
    /// A: the list on fresh connections, a page each.
    pub fresh: ListReading,
    /// The family's other request, which opened the kept-alive connection.
    pub other: Exchange,
    /// B: the list after `other`, every page on its connection.
    pub after: ListReading,
    /// C: the list on fresh connections again.
    pub again: ListReading,
}

impl Triple {
    /// Today's judgement of the three readings (`list_stable::judge_triple`).
    pub fn judge(&self, p: &ListStableProbe) -> Judgement {
        judge_triple(
            p,
            &self.fresh.pages,
            &self.other.observation,
            &self.after.pages,
            self.after.all_reused,
            &self.again.pages,
        )
    }

    /// The requests sent, by the connection that carried them: A's pages each alone, the
    /// other request and B's pages on the kept-alive connection, C's pages each alone (the
    /// corpus keeps them so; the answer shown is the last on the kept-alive connection).
    pub fn connections(&self, p: &ListStableProbe) -> Vec<Vec<Case>> {
        let alone = |r: &ListReading| r.sent.iter().map(|c| vec![c.clone()]).collect::<Vec<_>>();
        let mut connections = alone(&self.fresh);
        connections.push(
            std::iter::once(p.other.clone())
                .chain(self.after.sent.iter().cloned())
                .collect(),
        );
        connections.extend(alone(&self.again));
        connections
    }

    /// The answers in the shape of `connections`.
    pub fn answers(&self) -> Vec<Vec<Observation>> {
        let alone = |r: &ListReading| r.pages.iter().map(|o| vec![o.clone()]).collect::<Vec<_>>();
        let mut answers = alone(&self.fresh);
        answers.push(
            std::iter::once(self.other.observation.clone())
                .chain(self.after.pages.iter().cloned())
                .collect(),
        );
        answers.extend(alone(&self.again));
        answers
    }

    /// How many requests were sent.
    pub fn sent(&self) -> u64 {
        1 + [&self.fresh, &self.after, &self.again]
            .iter()
            .map(|r| r.sent.len() as u64)
            .sum::<u64>()
    }
}

/// Read `p`'s list three ways: on fresh connections (A), after the family's other request
/// on one kept-alive connection (B), on fresh connections again (C). The run's probe and
/// `mcpdiff replay` of a kept list sequence both read a list this way.
pub async fn read_triple(client: &Client, endpoint: &Endpoint, p: &ListStableProbe) -> Triple {
    // a pool of none: each list page on a connection of its own, closed after the answer
    let fresh_client = client.with_own_pool(0);
    let fresh = read_list(&fresh_client, endpoint, p).await;
    // a pool of one, empty: the other request opens the connection the list reuses
    let keeping = client.with_own_pool(1);
    let other = keeping.exchange(&p.other, endpoint).await;
    let after = read_list(&keeping, endpoint, p).await;
    let again = read_list(&fresh_client, endpoint, p).await;
    Triple {
        fresh,
        other,
        after,
        again,
    }
}

/// One reading of a list: the requests sent (the list, then one per further page), their
/// answers, and whether every answer came over a connection already open.
pub struct ListReading {
    pub sent: Vec<Case>,
    pub pages: Vec<Observation>,
    /// Every answer came over a connection already open.
    pub all_reused: bool,
}

/// Read `p`'s list through `client`, following each page's `nextCursor` to at most
/// `MAX_PAGES` pages (a longer list is left unread past them: it decides nothing).
async fn read_list(client: &Client, endpoint: &Endpoint, p: &ListStableProbe) -> ListReading {
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
        // (a list request that is no JSON object has no next page: the reading, ending on
        // a `nextCursor`, then decides nothing)
        match next.and_then(|c| p.next_page(&c)) {
            Some(page) if reading.pages.len() < MAX_PAGES => reading.sent.push(page),
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
