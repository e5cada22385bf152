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

/// Keeps at most one disagreement per distinct pattern of answers, and at most `cap`.
#[derive(Default)]
pub struct Disagreements {
    pub kept: Vec<Disagreement>,
    pub total: u64,
}

impl Disagreements {
    pub fn offer(&mut self, d: Disagreement, cap: usize) {
        self.total += 1;
        let signature = |x: &Disagreement| x.answers.values().cloned().collect::<Vec<_>>();
        let sig = signature(&d);
        if let Some(existing) = self.kept.iter_mut().find(|k| signature(k) == sig) {
            if d.case_index < existing.case_index {
                *existing = d;
            }
        } else if self.kept.len() < cap {
            self.kept.push(d);
        }
    }
}
