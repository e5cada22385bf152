//! The adapters the CLI and the tests plug into the runner: `NetSender` (the raw-byte
//! transport bound to one endpoint) and `PropsGenerator` (the props case generator, one
//! strategy per surface, built once).

use super::{Generator, Sender};
use crate::transport::{Client, Endpoint};
use mcpdiff_oracle::{Case, Observation, Surface};
use mcpdiff_props::gen::{case_for, case_strategy};
use proptest::strategy::BoxedStrategy;
use std::cell::RefCell;
use std::sync::Arc;

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
}

/// The props generator, one strategy per surface (built once, reused for every case).
#[derive(Default)]
pub struct PropsGenerator {
    cache: RefCell<Vec<(Surface, BoxedStrategy<Case>)>>,
}

impl Generator for PropsGenerator {
    fn case(&self, surface: &Surface, seed: u64, index: u64) -> Case {
        let mut cache = self.cache.borrow_mut();
        let pos = match cache.iter().position(|(s, _)| s == surface) {
            Some(p) => p,
            None => {
                cache.push((surface.clone(), case_strategy(surface)));
                cache.len() - 1
            }
        };
        let mut case = case_for(&cache[pos].1, seed, index);
        case.path = surface.endpoint.clone();
        case
    }
}
