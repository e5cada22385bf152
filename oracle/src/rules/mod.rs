//! The rule table: every server-observable RFC 2119 sentence the oracle encodes.
//!
//! Each `Rule` quotes its sentence exactly as the spec writes it (markdown emphasis and link
//! targets removed, whitespace collapsed); `oracle/tests/rules_verbatim.rs` checks every
//! quote against the pinned spec pages in `oracle/spec/`. Ids follow the project's reading
//! aid (`shared/rules/RULES.md`) so a finding can be looked up there too.

mod ids;
mod ids_2025_11_25;
mod revision;
mod table;
mod table_2025_11_25;
pub mod unobservable;

pub use ids::*;
pub use ids_2025_11_25::legacy;
pub use revision::Revision;
pub use table::RULES;
pub use table_2025_11_25::LEGACY_RULES;

use serde::{Deserialize, Serialize};
use std::fmt;

/// A rule's stable id, e.g. `SHTTP-HDR-ERR-32020`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct RuleId(pub &'static str);

/// A rule id read back (a saved report): only ids of the table exist, so the text is mapped
/// to the table's own `&'static str`.
impl<'de> serde::Deserialize<'de> for RuleId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        all_rules()
            .find(|r| r.id.0 == text)
            .map(|r| r.id)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown rule id {text:?} (not in this build's rule table; `mcpdiff rules` lists it)"
                ))
            })
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl RuleId {
    /// The id as text (`SHTTP-HDR-ERR-32020`).
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// An id compared with its text (a rule named in a saved report, a baseline, a test).
impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<RuleId> for &str {
    fn eq(&self, other: &RuleId) -> bool {
        *self == other.0
    }
}

/// The BCP 14 keyword that governs the server in the rule's sentence, or `Observation` when
/// the sentence carries none and no keyworded sentence binds the behaviour (such a sentence
/// yields observations, never SHOULD or MUST findings). Serialized as the keyword
/// (`MUST NOT`), and read back from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Level {
    #[serde(rename = "MUST")]
    Must,
    #[serde(rename = "MUST NOT")]
    MustNot,
    #[serde(rename = "SHOULD")]
    Should,
    #[serde(rename = "SHOULD NOT")]
    ShouldNot,
    #[serde(rename = "MAY")]
    May,
    /// No RFC 2119 keyword: shown in reports, never failing a run nor lowering a score.
    #[serde(rename = "OBSERVATION")]
    Observation,
}

/// How a finding on a rule counts (DESIGN.md, Scoring).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// MUST / MUST NOT: blocking; any finding scores the target 0.
    Blocking,
    /// SHOULD / SHOULD NOT: lowers the score.
    Advisory,
    /// MAY: tallied only.
    Optional,
    /// No keyword: reported as an observation, never scored.
    Observation,
}

impl Severity {
    /// The word reports use (`blocking`, `advisory`, `optional`, `observation`; as serialized).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Blocking => "blocking",
            Severity::Advisory => "advisory",
            Severity::Optional => "optional",
            Severity::Observation => "observation",
        }
    }
}

impl Level {
    pub fn severity(self) -> Severity {
        match self {
            Level::Must | Level::MustNot => Severity::Blocking,
            Level::Should | Level::ShouldNot => Severity::Advisory,
            Level::May => Severity::Optional,
            Level::Observation => Severity::Observation,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::MustNot => "MUST NOT",
            Level::Should => "SHOULD",
            Level::ShouldNot => "SHOULD NOT",
            Level::May => "MAY",
            Level::Observation => "OBSERVATION",
        }
    }
}

/// The keyword as reports write it (`as_str`).
impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One rule of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    pub id: RuleId,
    pub level: Level,
    /// True when the sentence carries no keyword itself and the behaviour follows from other
    /// keyworded rules (`level` is then the level of the rule it follows from).
    pub derived: bool,
    /// `path/in/spec.mdx#Section › Subsection`, relative to the spec root of the rule's
    /// revision ([`Rule::revision`]).
    pub spec: &'static str,
    /// The sentence, verbatim (normalised as described in the module docs).
    pub sentence: &'static str,
    /// One line: what a conformant server does.
    pub summary: &'static str,
    /// Whether the oracle has a check for it (false: listed for completeness, not judged).
    pub judged: bool,
}

/// Every rule of every revision: the 2026-07-28 table, then the 2025-11-25 one.
pub fn all_rules() -> impl Iterator<Item = &'static Rule> {
    RULES.iter().chain(LEGACY_RULES)
}

/// Look a rule up by id, in every revision's table.
pub fn rule(id: RuleId) -> Option<&'static Rule> {
    all_rules().find(|r| r.id == id)
}

/// The revision whose table holds `id` (`None` for an id of no table).
pub fn revision_of(id: RuleId) -> Option<Revision> {
    if RULES.iter().any(|r| r.id == id) {
        Some(Revision::V2026_07_28)
    } else if LEGACY_RULES.iter().any(|r| r.id == id) {
        Some(Revision::V2025_11_25)
    } else {
        None
    }
}

impl Rule {
    /// The revision this rule belongs to: the table that holds it (ids are unique across
    /// tables, `oracle/tests/rules_verbatim.rs`).
    pub fn revision(&self) -> Revision {
        revision_of(self.id).unwrap_or(Revision::V2026_07_28)
    }
}

/// The level of a rule; rules missing from the table count as MUST so a typo cannot hide a
/// finding (the table test rejects such ids anyway).
pub fn level_of(id: RuleId) -> Level {
    rule(id).map_or(Level::Must, |r| r.level)
}
