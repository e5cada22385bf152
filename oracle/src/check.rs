//! placeholder
use crate::{Observation, Verdict, RuleId, Level};
use serde::Serialize;
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding { pub rule: RuleId, pub level: Level, pub expected: String, pub observed: String }
pub fn check(_v: &Verdict, _o: &Observation) -> Vec<Finding> { vec![] }
