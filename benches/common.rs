//! Shared fixtures of the benches: a deterministic mix of generated cases, and their answers
//! from the reference server and a few mutants (so `check` sees passes and findings alike).
//!
//! Each bench file includes this with `mod common;`; not every bench uses every helper.
#![allow(dead_code)]

use mcpdiff_oracle::reference::mutants::{MCP_METHOD_PREFIX, NO_BASE64_DECODE, ORIGIN_UNCHECKED};
use mcpdiff_oracle::reference::{respond, respond_mutant, to_observation, Mutant};
use mcpdiff_oracle::{fixture, judge, Case, Observation, Surface, Verdict};
use mcpdiff_props::gen::{case_for, case_strategy};

/// The surface the reference server serves (what the runner discovers on it).
pub fn surface() -> Surface {
    fixture::surface()
}

/// `n` cases from the runner's generator (seed 1): the mix a real run judges.
pub fn runner_cases(surface: &Surface, n: u64) -> Vec<Case> {
    let strategy = case_strategy(surface);
    (0..n)
        .map(|i| {
            let mut c = case_for(&strategy, 1, i);
            c.path = surface.endpoint.clone();
            c
        })
        .collect()
}

/// Mutants whose answers join the reference answers in the `check` mix.
pub const MIX_MUTANTS: [&Mutant; 3] = [&ORIGIN_UNCHECKED, &MCP_METHOD_PREFIX, &NO_BASE64_DECODE];

/// (verdict, observation) pairs: every case answered by the reference server and by each of
/// `MIX_MUTANTS`, so most checks pass and some find something (like a real run).
pub fn judged_mix(surface: &Surface, cases: &[Case]) -> Vec<(Verdict, Observation)> {
    let mut out = Vec::new();
    for c in cases {
        let v = judge(c, surface);
        out.push((v.clone(), to_observation(&respond(c, surface))));
        for m in MIX_MUTANTS {
            out.push((v.clone(), to_observation(&respond_mutant(m, c, surface))));
        }
    }
    out
}
