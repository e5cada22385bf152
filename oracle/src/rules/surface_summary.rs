//! How much of each revision's server surface the oracle judges: per revision and per
//! keyword family (MUST with MUST NOT, SHOULD with SHOULD NOT, MAY), the rules judged, the
//! rules observable over HTTP but not judged yet (the gaps), and the rules no black-box test
//! can observe ([`super::NOT_OBSERVABLE`], with their reasons). `mcpdiff rules --coverage`
//! prints it; pure, from the tables alone.
//!
//! Keyword-less rules (`Level::Observation`) never fail a run, so they belong to no family
//! and are counted apart.

use super::{all_rules, not_observable, Level, Revision, RuleId};
use serde::Serialize;

/// A keyword family, as `mcpdiff rules --level` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Family {
    /// MUST and MUST NOT.
    Must,
    /// SHOULD and SHOULD NOT.
    Should,
    /// MAY.
    May,
}

impl Family {
    pub const ALL: [Family; 3] = [Family::Must, Family::Should, Family::May];

    /// The family of a level; `None` for a keyword-less observation.
    pub fn of(level: Level) -> Option<Family> {
        match level {
            Level::Must | Level::MustNot => Some(Family::Must),
            Level::Should | Level::ShouldNot => Some(Family::Should),
            Level::May => Some(Family::May),
            Level::Observation => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Family::Must => "MUST",
            Family::Should => "SHOULD",
            Family::May => "MAY",
        }
    }
}

/// A rule observable over HTTP that no check judges yet.
#[derive(Clone, Debug, Serialize)]
pub struct Gap {
    pub rule: RuleId,
    pub level: Level,
}

/// A rule no black-box test can observe, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Unobservable {
    pub rule: RuleId,
    pub level: Level,
    pub reason: &'static str,
}

/// One keyword family of one revision.
#[derive(Clone, Debug, Serialize)]
pub struct FamilySummary {
    pub family: Family,
    /// Rules a black-box test can observe: judged ones and gaps.
    pub observable: usize,
    pub judged: usize,
    /// Judged share of the observable rules, in percent (100 when nothing is observable:
    /// nothing is missing).
    pub judged_percent: f64,
    pub observable_unjudged: Vec<Gap>,
    pub not_observable: Vec<Unobservable>,
}

fn percent(judged: usize, observable: usize) -> f64 {
    match observable {
        0 => 100.0,
        n => 100.0 * judged as f64 / n as f64,
    }
}

/// One revision's surface.
#[derive(Clone, Debug, Serialize)]
pub struct RevisionSummary {
    pub revision: Revision,
    pub families: Vec<FamilySummary>,
    /// Keyword-less rules (observations), in no family.
    pub observations: usize,
}

/// The summary of `revision`'s table.
pub fn summary(revision: Revision) -> RevisionSummary {
    let rules: Vec<_> = all_rules().filter(|r| r.revision() == revision).collect();
    let families = Family::ALL
        .into_iter()
        .map(|family| {
            let mut s = FamilySummary {
                family,
                observable: 0,
                judged: 0,
                judged_percent: 0.0,
                observable_unjudged: Vec::new(),
                not_observable: Vec::new(),
            };
            for r in rules.iter().filter(|r| Family::of(r.level) == Some(family)) {
                if r.judged {
                    s.judged += 1;
                } else if let Some(reason) = not_observable(r.id) {
                    s.not_observable.push(Unobservable {
                        rule: r.id,
                        level: r.level,
                        reason,
                    });
                } else {
                    s.observable_unjudged.push(Gap {
                        rule: r.id,
                        level: r.level,
                    });
                }
            }
            s.observable = s.judged + s.observable_unjudged.len();
            s.judged_percent = percent(s.judged, s.observable);
            s
        })
        .collect();
    RevisionSummary {
        revision,
        families,
        observations: rules
            .iter()
            .filter(|r| r.level == Level::Observation)
            .count(),
    }
}

/// The summary of every revision, newest first.
pub fn summaries() -> Vec<RevisionSummary> {
    Revision::ALL.into_iter().map(summary).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every keyworded rule lands in exactly one bucket of its revision's family.
    #[test]
    fn buckets_partition_the_keyworded_rules() {
        for s in summaries() {
            let in_buckets: usize = s
                .families
                .iter()
                .map(|f| f.judged + f.observable_unjudged.len() + f.not_observable.len())
                .sum();
            let table = all_rules().filter(|r| r.revision() == s.revision).count();
            assert_eq!(in_buckets + s.observations, table, "{:?}", s.revision);
        }
    }

    #[test]
    fn percent_is_of_the_observable_rules() {
        assert!((percent(3, 4) - 75.0).abs() < 1e-9);
        assert!((percent(0, 0) - 100.0).abs() < 1e-9);
        for s in summaries() {
            for f in &s.families {
                assert_eq!(f.observable, f.judged + f.observable_unjudged.len());
            }
        }
    }
}
