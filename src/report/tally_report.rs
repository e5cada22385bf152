//! `TallyReport`: what a target's JSON entry keeps of its tally so that the reports of the
//! shards of one run (`run --shard K/N`) can be merged into the report of the unsharded run
//! (`report::merge`): every rule's exercised/failed counts (passed rules and the score are
//! computed from them) and every rule's witness with its preference key (which shard's
//! finding an unsharded run would have kept) and the rules that would explain it away.

use crate::runner::tally::{self, RuleCount, Tally};
use mcpdiff_oracle::rules::RuleId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A target's per-rule counts and witnesses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TallyReport {
    /// Every rule some case exercised: cases that exercised it, cases that broke it.
    pub rules: BTreeMap<RuleId, RuleCountReport>,
    /// One per failed rule: the witness the run kept (its finding may have been explained by
    /// another rule and left out of `findings`).
    pub witnesses: Vec<WitnessReport>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleCountReport {
    pub exercised: u64,
    pub failed: u64,
}

/// The witness of one failed rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WitnessReport {
    pub rule: RuleId,
    /// The case's run index (authorization probes: the largest integer).
    pub index: u64,
    /// Other rules the witness case broke too.
    pub co_failing: Vec<String>,
    /// Defects the case planted besides the rule.
    pub defects: usize,
    /// Cases that broke the rule.
    pub count: u64,
    /// Rules that explain the finding away when one of them failed alone somewhere (the
    /// co-failing rules, and the rules the case without its benign inputs breaks).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blamed_on: Vec<String>,
}

impl WitnessReport {
    /// The tally's preference order (lower wins).
    pub fn key(&self) -> (usize, usize, u64) {
        tally::preference(self.co_failing.len(), self.defects, self.index)
    }

    /// Whether the witness isolates its rule (no other rule shares the blame).
    pub fn isolates(&self) -> bool {
        self.co_failing.is_empty()
    }
}

impl TallyReport {
    /// The counts and witnesses of `tally`; `blamed_on` gives each failed rule's explaining
    /// rules.
    pub fn of(tally: &Tally, blamed_on: &dyn Fn(RuleId) -> Vec<String>) -> TallyReport {
        TallyReport {
            rules: tally
                .rules
                .iter()
                .map(|(r, c)| {
                    let c = RuleCountReport {
                        exercised: c.exercised,
                        failed: c.failed,
                    };
                    (*r, c)
                })
                .collect(),
            witnesses: tally
                .witnesses
                .iter()
                .map(|(r, w)| WitnessReport {
                    rule: *r,
                    index: w.index,
                    co_failing: w.finding.co_failing.clone(),
                    defects: w.defects,
                    count: w.count,
                    blamed_on: blamed_on(*r),
                })
                .collect(),
        }
    }

    /// The score of these counts, computed as a run computes it (`tally::score_of`).
    pub fn score(&self) -> f64 {
        let counts: BTreeMap<RuleId, RuleCount> = self
            .rules
            .iter()
            .map(|(r, c)| {
                let c = RuleCount {
                    exercised: c.exercised,
                    failed: c.failed,
                };
                (*r, c)
            })
            .collect();
        tally::score_of(&counts)
    }

    /// Rules exercised that never failed.
    pub fn passed(&self) -> Vec<String> {
        self.rules
            .iter()
            .filter(|(_, c)| c.failed == 0)
            .map(|(r, _)| r.0.to_string())
            .collect()
    }
}
