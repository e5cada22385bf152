//! Isolation coverage: for each judged rule, how many probes and how many
//! generated cases per 1,000 isolate it (`mcpdiff_oracle::isolation::decide_case`), on the
//! fixture surface with the default generator. A rule that binds only a target the fixture
//! is not (`fixture::own_surface_rules`: one advertising an extension, one declaring no
//! `resources`, one declaring `logging`) is counted on the same cases judged against the
//! fixture made into such a target (`fixture::surface_for`). Pure: no sockets, no clock.

use crate::gen::CaseGen;
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::isolation::decide_case;
use mcpdiff_oracle::isolation::Decision;
use mcpdiff_oracle::reference::probes;
use mcpdiff_oracle::rules::{RuleId, JUDGED_IDS};
use mcpdiff_oracle::Surface;
use serde::Serialize;
use std::collections::BTreeMap;

/// The seed the coverage listing generates with.
pub const COVERAGE_SEED: u64 = 1;
/// Generated cases the listing judges.
pub const COVERAGE_CASES: u64 = 10_000;

/// One judged rule's coverage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleCoverage {
    pub rule: RuleId,
    /// Probes that isolate the rule.
    pub probes: usize,
    /// Probes that exercise (decide) it at all.
    pub probes_deciding: usize,
    /// Generated cases, per 1,000, that isolate the rule.
    pub generated_per_1000: f64,
    /// Generated cases (absolute) that isolate it.
    pub generated: u64,
}

/// The whole listing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Coverage {
    pub seed: u64,
    pub cases: u64,
    pub probes_total: usize,
    pub rules: Vec<RuleCoverage>,
}

/// Count, for every judged rule, the probes and generated cases that isolate it.
pub fn coverage(surface: &Surface, seed: u64, cases: u64) -> Coverage {
    let ps = probes(surface);
    let mut iso: BTreeMap<RuleId, (usize, usize, u64)> =
        JUDGED_IDS.iter().map(|r| (*r, (0, 0, 0))).collect();
    let decide = VariantAware::new(surface);
    for p in &ps {
        let d = decide.case(&p.case);
        for r in &d.isolated {
            if let Some(e) = iso.get_mut(r) {
                e.0 += 1;
            }
        }
        for r in &d.deciding {
            if let Some(e) = iso.get_mut(r) {
                e.1 += 1;
            }
        }
    }
    let gen = CaseGen::new(surface);
    for i in 0..cases {
        let d = decide.case(&gen.case(seed, i));
        for r in &d.isolated {
            if let Some(e) = iso.get_mut(r) {
                e.2 += 1;
            }
        }
    }
    let per_1000 = |n: u64| {
        if cases == 0 {
            0.0
        } else {
            n as f64 * 1000.0 / cases as f64
        }
    };
    Coverage {
        seed,
        cases,
        probes_total: ps.len(),
        rules: JUDGED_IDS
            .iter()
            .map(|r| {
                let (probes, probes_deciding, generated) = iso[r];
                RuleCoverage {
                    rule: *r,
                    probes,
                    probes_deciding,
                    generated_per_1000: per_1000(generated),
                    generated,
                }
            })
            .collect(),
    }
}

/// A rule that binds only a target the surface is not, and the surface made into one
/// (`fixture::surface_for`).
struct Variant {
    rule: RuleId,
    surface: Surface,
}

/// The variants of `surface`: one per rule judged on a surface of its own.
fn variants(surface: &Surface) -> Vec<Variant> {
    fixture::own_surface_rules()
        .map(|rule| Variant {
            rule,
            surface: fixture::surface_for(rule, surface),
        })
        .collect()
}

/// `decide_case` on the surface, with each variant's rule decided on the variant instead.
struct VariantAware<'s> {
    surface: &'s Surface,
    variants: Vec<Variant>,
}

impl<'s> VariantAware<'s> {
    fn new(surface: &'s Surface) -> Self {
        VariantAware {
            surface,
            variants: variants(surface),
        }
    }

    fn case(&self, case: &mcpdiff_oracle::Case) -> Decision {
        let mut d = decide_case(case, self.surface);
        for v in &self.variants {
            let e = decide_case(case, &v.surface);
            d.isolated.retain(|x| *x != v.rule);
            d.deciding.retain(|x| *x != v.rule);
            if e.isolated.contains(&v.rule) {
                d.isolated.push(v.rule);
            }
            if e.deciding.contains(&v.rule) {
                d.deciding.push(v.rule);
            }
        }
        d
    }
}
