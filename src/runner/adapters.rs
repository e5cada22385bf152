//! The adapters the CLI and the tests plug into the runner: `NetSender` (the raw-byte
//! transport bound to one endpoint) and `PropsGenerator` (the props case generator, one
//! `CaseGen` compiled per surface).

use super::{CaseSource, Generator, Sender};
use crate::transport::{Client, Endpoint, Limits, OnAnswer};
use mcpdiff_oracle::{Case, Observation, Surface};
use mcpdiff_props::gen::CaseGen;
use std::sync::Arc;
use std::time::Duration;

/// The transport client bound to one endpoint.
#[derive(Clone)]
pub struct NetSender {
    pub client: Client,
    pub endpoint: Arc<Endpoint>,
}

impl Sender for NetSender {
    async fn send(&self, case: Case) -> Observation {
        self.client.send(&case, &self.endpoint).await
    }

    async fn send_ref(&self, case: &Case) -> Observation {
        self.client.send(case, &self.endpoint).await
    }

    async fn send_noting(&self, case: &Case, on_answer: OnAnswer<'_>) -> Observation {
        self.client
            .send_noting(case, &self.endpoint, on_answer)
            .await
    }

    async fn send_listening(&self, case: Case) -> Observation {
        self.client.send_listening(&case, &self.endpoint).await
    }

    /// A client of its own that keeps no connection: a new one for this request.
    async fn send_alone(&self, case: &Case) -> Observation {
        self.client
            .with_own_pool(0)
            .send(case, &self.endpoint)
            .await
    }

    /// A fresh connection under the same limits stretched to `limit` (SSE included).
    async fn send_patient(&self, case: Case, limit: Duration) -> Observation {
        let limits = Limits {
            total: limit,
            sse_max_time: limit,
            // a stream of progress notifications over the longer limit is not cut by count
            sse_max_events: 10_000,
            pool_per_endpoint: 0,
            ..self.client.limits().clone()
        };
        // the run's credentials and TLS settings, with the longer limit
        let c = &self.client;
        Client::configured(limits, c.credentials().clone(), c.tls().clone())
            .send(&case, &self.endpoint)
            .await
    }
}

/// The props generator (`mcpdiff_props::gen::CaseGen`). Built with `default()`; the private
/// field keeps that the only way, so per-run knobs can be added without touching callers.
#[derive(Clone, Copy, Debug, Default)]
pub struct PropsGenerator {
    _knobs: (),
}

impl Generator for PropsGenerator {
    type Source = CaseGen;

    fn for_surface(&self, surface: &Surface) -> CaseGen {
        CaseGen::new(surface)
    }
}

impl CaseSource for CaseGen {
    fn case(&self, seed: u64, index: u64) -> Case {
        CaseGen::case(self, seed, index)
    }
}
