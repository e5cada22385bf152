//! Disagreements: targets of one case stream that broke no rule on a case and were held to
//! the same verdict, answering it in different classes (the oracle allows several answers or
//! is silent). Not a spec violation; an interop risk. Which targets are compared at all
//! (`compared`) is decided here; `record.rs` picks the answers of each case.

use mcpdiff_oracle::{Body, Case, Observation};
use serde::Serialize;
use std::collections::BTreeMap;

/// The name prefix of the in-process mutants `mcpdiff run` starts (`src/cmd/run.rs`).
pub const MUTANT_PREFIX: &str = "mutant:";

/// Whether a target's answers are compared with the others'. Mutants are broken on purpose,
/// and where one broke no judged rule it still answers oddly: comparing it would report the
/// planted defect again as a disagreement, or hide a real one among SDKs under its noise.
pub fn compared(name: &str) -> bool {
    !name.starts_with(MUTANT_PREFIX)
}

/// The coarse class of an answer two targets are compared on.
pub fn answer_class(obs: &Observation) -> String {
    match obs {
        Observation::Transport { failure } => format!("no answer: {failure}"),
        Observation::Http(a) => {
            let what = match (a.error_code(), a.is_result(), &a.body) {
                (Some(c), _, _) => format!("error {c}"),
                (None, true, _) => "result".to_string(),
                (None, false, Body::Empty) => "empty".to_string(),
                (None, false, Body::Sse { .. }) => "sse".to_string(),
                (None, false, _) => "other".to_string(),
            };
            format!("{} {what}", a.status)
        }
    }
}

/// One case on which clean targets of a group, held to one verdict, answered in different
/// classes.
#[derive(Clone, Debug, Serialize)]
pub struct Disagreement {
    pub case_index: u64,
    /// target name -> answer class
    pub answers: BTreeMap<String, String>,
    #[serde(skip)]
    pub case: Case,
}

/// Keeps at most one disagreement per distinct pattern of answers, and at most `cap`: the
/// patterns met first in case order, each by its lowest case index, listed in case order.
/// Cases finish in whatever order the targets answer them; what is kept does not depend on
/// it, so two runs with one seed list the same examples (and a shard merge, which sorts the
/// shards' examples by case index, keeps them the same way).
#[derive(Default)]
pub struct Disagreements {
    pub kept: Vec<Disagreement>,
    pub total: u64,
}

impl Disagreements {
    pub fn offer(&mut self, d: Disagreement, cap: usize) {
        self.total += 1;
        // (the pattern: the answer classes in target order, compared in place)
        let same_pattern = |k: &Disagreement| k.answers.values().eq(d.answers.values());
        match self.kept.iter().position(same_pattern) {
            Some(i) if d.case_index < self.kept[i].case_index => self.kept[i] = d,
            Some(_) => return,
            None => self.kept.push(d),
        }
        // in case order, and the first `cap`: a pattern met earlier than the latest kept one
        // displaces it
        self.kept.sort_by_key(|k| k.case_index);
        self.kept.truncate(cap);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disagreement(case_index: u64, pattern: &str) -> Disagreement {
        let answers = [("a", "400 other"), ("b", pattern)]
            .into_iter()
            .map(|(t, c)| (t.to_string(), c.to_string()))
            .collect();
        Disagreement {
            case_index,
            answers,
            case: Case::post("/mcp", &[], "{}"),
        }
    }

    /// The examples kept are the same whatever order the cases finish in: the first `cap`
    /// patterns in case order, each by its lowest case index, in case order.
    #[test]
    fn the_examples_kept_do_not_depend_on_the_order_cases_finish() {
        let offered: Vec<Disagreement> = (0..40u64)
            .map(|i| disagreement(i * 7 % 40, &format!("200 error -{}", i % 9)))
            .collect();
        let kept_in = |order: &[Disagreement]| {
            let mut kept = Disagreements::default();
            for d in order {
                kept.offer(d.clone(), 4);
            }
            let shown: Vec<(u64, String)> = kept
                .kept
                .iter()
                .map(|d| (d.case_index, d.answers["b"].clone()))
                .collect();
            (shown, kept.total)
        };
        let forward = kept_in(&offered);
        let mut reversed = offered.clone();
        reversed.reverse();
        let mut by_index = offered.clone();
        by_index.sort_by_key(|d| d.case_index);
        assert_eq!(kept_in(&reversed), forward);
        assert_eq!(kept_in(&by_index), forward);
        // in case order, the first four patterns met are those of cases 0, 1, 2 and 3
        let indexes: Vec<u64> = forward.0.iter().map(|(i, _)| *i).collect();
        assert_eq!(indexes, [0, 1, 2, 3]);
        assert_eq!(forward.1, 40);
    }
}
