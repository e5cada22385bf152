//! The set-up the listen-stream tests share (`runner_listen`, `runner_listen_close`): a
//! generator of listen cases only, the id of a request a raw server reads, and a run of those
//! cases over the real transport, one in flight at a time.

use super::raw_http::read_request;
use mcpdiff::runner::{
    self, shrink::ShrinkBudget, CaseSource, Generator, NetSender, Quiet, RunConfig, Target,
};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::{fixture, Case, RuleId, Surface};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;

/// Read one request within 2 s; its JSON-RPC id.
pub async fn request_id(s: &mut TcpStream) -> Option<Value> {
    let (_, body) = read_request(s, Duration::from_secs(2)).await?;
    let body: Value = serde_json::from_slice(&body).ok()?;
    body.get("id").cloned()
}

/// Only `subscriptions/listen` cases, each with `params`.
pub struct Listens {
    surface: Surface,
    params: Value,
}

impl CaseSource for Listens {
    fn case(&self, _seed: u64, index: u64) -> Case {
        conformant_case(
            &self.surface,
            json!(index),
            "subscriptions/listen",
            self.params.clone(),
        )
    }
}

impl Generator for Listens {
    type Source = Listens;

    fn for_surface(&self, surface: &Surface) -> Listens {
        Listens {
            surface: surface.clone(),
            params: self.params.clone(),
        }
    }
}

/// What a run of listen cases recorded of one rule.
#[derive(Debug, PartialEq, Eq)]
pub struct ListenRun {
    /// Cases run.
    pub cases: u64,
    /// Cases that exercised the rule, and those that broke it.
    pub exercised: u64,
    pub failed: u64,
}

/// Run `cases` listen cases with `params` against `url` under `limits`, one at a time, with no
/// shrinking and a 60 s budget; what the run recorded of `rule`.
pub async fn run_listens(
    url: &str,
    cases: u64,
    params: Value,
    limits: Limits,
    rule: RuleId,
) -> ListenRun {
    let surface = fixture::surface();
    let target = Target {
        name: "listener".into(),
        url: url.into(),
        sender: NetSender {
            client: Client::new(limits),
            endpoint: Arc::new(Endpoint::parse(url).expect("url")),
        },
        surface: surface.clone(),
        gen_surface: surface.clone(),
        notes: Vec::new(),
    };
    let cfg = RunConfig {
        concurrency: 1,
        shrink: ShrinkBudget::none(),
        max_disagreements: 0,
        ..RunConfig::new(cases, 5, Duration::from_secs(60))
    };
    let listens = Listens { surface, params };
    let result = runner::run(vec![target], &listens, &cfg, &Quiet).await;
    let (exercised, failed) = result.targets[0]
        .tally
        .rules
        .get(&rule)
        .map_or((0, 0), |c| (c.exercised, c.failed));
    ListenRun {
        cases: result.cases,
        exercised,
        failed,
    }
}
