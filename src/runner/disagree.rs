//! Disagreements: targets with the same surface answering one case differently where the
//! oracle allows several answers or is silent. Not a spec violation; an interop risk.

use mcpdiff_oracle::{Body, Case, Observation};
use serde::Serialize;
use std::collections::BTreeMap;

/// The coarse class of an answer two targets are compared on.
pub fn answer_class(obs: &Observation) -> String {
    match obs {
        Observation::Transport { failure } => format!("transport:{failure:?}"),
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

/// One case on which targets of a group answered in different classes.
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
