//! The list probe after a run (TOOLS-LIST-STABLE, RES-LIST-STABLE, PROMPTS-LIST-STABLE,
//! oracle `list_stable`): for each fuzzed target and each list it declares, the list on a
//! fresh connection, then the family's other request and the list again on one kept-alive
//! connection, then the list on a fresh connection again, the three judged together
//! (`list_stable::judge_triple`). Four requests per list: at most twelve per target. A triple
//! that decides nothing is not recorded; the others are recorded in the target's tally like
//! the authorization family's judgements (`auth_probes::record`), each with the four requests
//! by connection (`AuthResult::connections`), which its reproducer resends.

use super::RunResult;
use crate::auth::AuthResult;
use crate::transport::{Client, Endpoint};
use mcpdiff_oracle::list_stable::{judge_triple, list_stable_probes};
use mcpdiff_oracle::Surface;

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
        // a pool of none: each list on a connection of its own, closed after the answer
        let fresh_client = client.with_own_pool(0);
        let fresh = fresh_client.exchange(&p.list, endpoint).await;
        // a pool of one, empty: the other request opens the connection the list reuses
        let keeping = client.with_own_pool(1);
        let other = keeping.exchange(&p.other, endpoint).await;
        let after = keeping.exchange(&p.list, endpoint).await;
        let again = fresh_client.exchange(&p.list, endpoint).await;
        sent += 4;
        let Some(finding) = judge_triple(
            &p,
            &fresh.observation,
            &other.observation,
            &after.observation,
            after.reused_connection,
            &again.observation,
        )
        .decided() else {
            continue;
        };
        // as sent: A alone, the other request and B on the kept-alive connection, C alone
        // (the reproducer resends all four, the same way; B's answer is the one shown)
        let connections = vec![
            vec![p.list.clone()],
            vec![p.other, p.list.clone()],
            vec![p.list.clone()],
        ];
        out.push(AuthResult {
            rule: p.kind.rule(),
            case: p.list,
            observation: after.observation,
            finding,
            connections,
        });
    }
    (out, sent)
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
