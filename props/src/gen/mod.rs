//! The runner's case generator: conformant requests drawn from a target's `Surface`, with
//! planted defects. Weighted so most cases are one defect away from valid (where bugs hide),
//! some are valid (benign variations included) and some are far off.
//!
//! `case_for(surface, seed, index)` is a pure function: the same seed, surface and index
//! always give the same case, whatever order the runner asks in.

mod args;
mod base;
mod body_ops;
mod header_ops;

pub use base::request;
pub use body_ops::BodyOp;
pub use header_ops::HeaderOp;

use mcpdiff_oracle::{Case, Surface};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

/// One planted defect (or benign variation).
#[derive(Clone, Debug)]
pub enum Mutation {
    Header(HeaderOp),
    Body(BodyOp),
}

/// How many mutations a case gets: 0 (15%), 1 (65%), 2-3 (20%).
fn mutation_count() -> impl Strategy<Value = usize> {
    prop_oneof![15 => Just(0usize), 65 => Just(1usize), 14 => Just(2usize), 6 => Just(3usize)]
}

fn mutation() -> BoxedStrategy<Mutation> {
    prop_oneof![
        65 => header_ops::header_op().prop_map(Mutation::Header),
        35 => body_ops::body_op().prop_map(Mutation::Body),
    ]
    .boxed()
}

/// Cases for `surface`.
pub fn case_strategy(surface: &Surface) -> BoxedStrategy<Case> {
    let surface = surface.clone();
    // built once: rebuilding it inside the flat map cost a fresh strategy tree per case
    // (issue 7 profile); a `BoxedStrategy` clone is an `Arc` clone, and draws are identical
    let mutation = mutation();
    (request(&surface), mutation_count())
        .prop_flat_map(move |(case, n)| {
            (Just(case), proptest::collection::vec(mutation.clone(), n))
        })
        .prop_map(move |(case, muts)| apply_all(case, &muts))
        .boxed()
}

/// Apply mutations in order. The body is edited as JSON while it still parses; a raw-byte
/// mutation ends JSON editing.
pub fn apply_all(mut case: Case, muts: &[Mutation]) -> Case {
    let mut body: Option<Value> = serde_json::from_slice(&case.body).ok();
    for m in muts {
        case.labels.push(label(m));
        match m {
            Mutation::Header(op) => header_ops::apply(op, &mut case, body.as_ref()),
            Mutation::Body(op) => body_ops::apply(op, &mut case, &mut body),
        }
    }
    if let Some(v) = body {
        // serializing a Value cannot fail (keys are strings)
        case.body = serde_json::to_vec(&v).unwrap_or_default();
    }
    case
}

fn label(m: &Mutation) -> String {
    let s = match m {
        Mutation::Header(h) => format!("{h:?}"),
        Mutation::Body(b) => format!("{b:?}"),
    };
    s.split(['(', ' ', '{'])
        .next()
        .unwrap_or_default()
        .to_string()
}

/// A regex string strategy, parsed once. A `&str` used as a strategy re-parses its regex
/// on every draw (the largest cost of generation in the issue 7 profile); this draws the
/// same values from the same RNG.
pub(crate) fn regex(pattern: &str) -> proptest::string::RegexGeneratorStrategy<String> {
    // the patterns are constants of this crate, checked by every test that generates a case
    proptest::string::string_regex(pattern).expect("generator regexes are valid")
}

/// The `index`-th case of a run with `seed` against `surface`.
pub fn case_for(strategy: &BoxedStrategy<Case>, seed: u64, index: u64) -> Case {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&index.to_le_bytes());
    key[16..24].copy_from_slice(b"mcpdiff\0");
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &key);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    match strategy.new_tree(&mut runner) {
        Ok(tree) => tree.current(),
        // strategies here never reject (no filters at the top level); fall back to a
        // minimal request rather than panic
        Err(_) => Case::post("/mcp", &[], Vec::new()),
    }
}
