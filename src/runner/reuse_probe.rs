//! The connection probe after a run (BASE-STATELESS-NO-PRIOR, oracle `reuse`): for each
//! fuzzed target, each pair of `reuse_probes` is sent twice, the request alone on a fresh
//! connection and the request after a conformant one on a kept-alive connection, and the
//! pair is judged (`reuse::judge_pair`). Two requests per pair plus the conformant one: six
//! requests per target. A pair that decides nothing (the target did not keep the connection
//! open, an answer was cut short) is not recorded; the others are recorded in the target's
//! tally like the authorization family's judgements (`auth_probes::record`), each with the
//! three requests by connection (`AuthResult::connections`), which its reproducer resends.

use super::RunResult;
use crate::auth::AuthResult;
use crate::transport::{Client, Endpoint};
use mcpdiff_oracle::reuse::{judge_pair, reuse_probes};
use mcpdiff_oracle::rules::connection::STATELESS_NO_PRIOR;
use mcpdiff_oracle::Surface;

/// Send every pair to one target: the judged pairs (as the authorization family's results,
/// which `auth_probes::record` takes) and the number of requests sent.
pub async fn probe(
    client: &Client,
    endpoint: &Endpoint,
    surface: &Surface,
) -> (Vec<AuthResult>, u64) {
    let mut out = Vec::new();
    let mut sent = 0u64;
    for p in reuse_probes(surface) {
        // a pool of none: the connection is closed after the answer
        let fresh = client.with_own_pool(0).exchange(&p.request, endpoint).await;
        // a pool of one, empty: the conformant request opens the connection the next reuses
        let keeping = client.with_own_pool(1);
        let _ = keeping.exchange(&p.prior, endpoint).await;
        let reused = keeping.exchange(&p.request, endpoint).await;
        sent += 3;
        let Some(finding) = judge_pair(
            &p,
            &fresh.observation,
            &reused.observation,
            reused.reused_connection,
        )
        .decided() else {
            continue;
        };
        // as sent: the request alone on its connection, then the prior and the request on
        // the kept-alive one (the reproducer resends all three, the same way)
        let connections = vec![vec![p.request.clone()], vec![p.prior, p.request.clone()]];
        out.push(AuthResult {
            rule: STATELESS_NO_PRIOR,
            case: p.request,
            observation: reused.observation,
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
