//! The case edits: one vocabulary of changes to a `Case` (`CaseEdit`), each variant with its
//! label, weight, draw and effect, used by every generator that plants defects:
//!
//! - the runner's seeded generator (`gen::CaseGen`) draws edits from its `Rng` with
//!   `Mix::RUNNER`;
//! - the property tests draw them with `edit_strategy` (a list of choices proptest shrinks;
//!   `strategies::case` applies a shrinkable `Vec<CaseEdit>` to a valid case);
//! - the fuzz targets draw them from libFuzzer's bytes (`CaseEdit: Arbitrary`, through
//!   `fuzz_props::case_from_bytes`).
//!
//! Three families, each a table of rows (`HEADER_EDITS`, `BODY_EDITS`, `WIDE_EDITS`): a row
//! is one variant's label, its weight within the family and how to draw its values, so
//! adding an edit is adding one row and one arm of its family's `apply`. A `Mix` weighs the
//! families. Edits apply in order (`apply_all`), each adding its label to `Case::labels`.

pub mod body;
pub mod header;
pub mod reading;
pub mod wide;

pub use body::BodyEdit;
pub use header::HeaderEdit;
pub use wide::WideEdit;

use crate::choice::{ChoiceList, Draw, Source};
use arbitrary::{Arbitrary, Unstructured};
use mcpdiff_oracle::Case;
use proptest::prelude::*;
use serde_json::Value;

/// One edit of a case.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseEdit {
    Header(HeaderEdit),
    Body(BodyEdit),
    Wide(WideEdit),
}

/// One variant of a family: its label (the case label its edits carry), its weight within
/// the family, and how to draw its values (`D`: the family's draw signature).
#[derive(Clone, Copy, Debug)]
pub struct EditRow<D> {
    pub name: &'static str,
    pub weight: u32,
    pub draw: D,
}

impl<D> EditRow<D> {
    pub const fn new(name: &'static str, weight: u32, draw: D) -> EditRow<D> {
        EditRow { name, weight, draw }
    }
}

/// How often each family is drawn (weights, not percentages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mix {
    pub header: u32,
    pub body: u32,
    pub wide: u32,
}

impl Mix {
    /// The seeded runner's: near-valid cases only, header edits 65%, body edits 35%.
    pub const RUNNER: Mix = Mix {
        header: 65,
        body: 35,
        wide: 0,
    };
    /// The fuzzer's and the property tests': the runner's families and the wide edits.
    pub const WIDE: Mix = Mix {
        header: 65,
        body: 35,
        wide: 35,
    };
}

impl CaseEdit {
    /// An edit drawn from `src`: a family by `mix`, then a row of it and its values.
    pub fn draw(src: &mut dyn Source, mix: &Mix) -> CaseEdit {
        // a family of weight 0 is never drawn and costs no extra choice
        match src.weighted(&[mix.header, mix.body, mix.wide]) {
            0 => CaseEdit::Header(header::draw(src)),
            1 => CaseEdit::Body(body::draw(src)),
            _ => CaseEdit::Wide(wide::draw(src)),
        }
    }

    /// The edit's label (its row's name).
    pub fn name(&self) -> &'static str {
        match self {
            CaseEdit::Header(e) => e.name(),
            CaseEdit::Body(e) => e.name(),
            CaseEdit::Wide(e) => e.name(),
        }
    }
}

/// Edits drawn from the fuzz bytes, with `Mix::WIDE`.
impl<'a> Arbitrary<'a> for CaseEdit {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<CaseEdit> {
        Ok(CaseEdit::draw(u, &Mix::WIDE))
    }
}

/// The longest choice list proptest draws for one edit (enough for all but the longest
/// `Garbage` bodies; choices past the list are 0, the first option).
const MAX_CHOICES: usize = 24;

/// Edits drawn from `mix` by a list of choices: proptest shrinks the list toward shorter
/// and smaller numbers, so a failing edit shrinks toward the first row of its family and
/// the first value of each of its tables.
pub fn edit_strategy(mix: Mix) -> impl Strategy<Value = CaseEdit> + Clone {
    prop::collection::vec(any::<u64>(), 0..=MAX_CHOICES)
        .prop_map(move |choices| CaseEdit::draw(&mut ChoiceList::new(&choices), &mix))
}

/// Where the body stands while edits are applied: bytes never parsed (header-only cases
/// skip JSON entirely), JSON being edited, or bytes after a raw-byte edit (no more JSON
/// editing, as the bytes may no longer parse or no longer mean the same).
enum BodyState {
    Bytes,
    Json(Option<Value>),
    Raw,
}

impl BodyState {
    /// The body being edited as JSON (parsed on first use), for a JSON edit; `None` once a
    /// raw-byte edit has taken over.
    fn json(&mut self, case: &Case) -> Option<&mut Option<Value>> {
        if matches!(self, BodyState::Bytes) {
            *self = BodyState::Json(serde_json::from_slice(&case.body).ok());
        }
        match self {
            BodyState::Json(body) => Some(body),
            _ => None,
        }
    }
}

/// Apply edits in order, labelling the case with each. The body is edited as JSON while it
/// still parses; a raw-byte edit ends JSON editing.
pub fn apply_all<'a>(mut case: Case, edits: impl IntoIterator<Item = &'a CaseEdit>) -> Case {
    let mut state = BodyState::Bytes;
    for edit in edits {
        case.labels.push(edit.name().to_string());
        match edit {
            CaseEdit::Header(op) => header::apply(op, &mut case),
            CaseEdit::Wide(op @ WideEdit::JsonNode(..)) => {
                if let Some(Some(body)) = state.json(&case) {
                    wide::apply_json(op, body);
                }
            }
            CaseEdit::Wide(op) => wide::apply(op, &mut case),
            CaseEdit::Body(op) if op.on_bytes() => {
                let mut body = match std::mem::replace(&mut state, BodyState::Raw) {
                    BodyState::Json(v) => v,
                    BodyState::Bytes | BodyState::Raw => None,
                };
                body::apply(op, &mut case, &mut body);
            }
            CaseEdit::Body(op) => {
                if let Some(body) = state.json(&case) {
                    body::apply(op, &mut case, body);
                }
            }
        }
    }
    if let BodyState::Json(Some(v)) = state {
        // serializing a Value cannot fail (keys are strings)
        case.body = serde_json::to_vec(&v).unwrap_or_default();
    }
    case
}

#[cfg(test)]
mod tests;
