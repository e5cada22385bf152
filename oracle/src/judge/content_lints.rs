//! The content lints that carry data (an `outputSchema`, a list's order), turned into the
//! Verdict's expectations. `crate::content` decides which checks apply and how a result is
//! read; the judge, which owns the Verdict, lists them, so `content` needs nothing of the
//! Verdict's types.

use crate::content::{ContentCheck, ContentSet, ListOrder};
use crate::rules;
use crate::shared_schema::SharedSchema;
use crate::surface::Surface;
use crate::verdict::{Demand, Expectation, Lint, Listed};

/// The content lints that carry data, for a request whose plain checks are `set` (from
/// [`crate::content::for_request`]): TOOLS-OUTPUT-CONFORM with the called tool's
/// `outputSchema` (`output_schema`), and
/// TOOLS-ORDER with the order discovery saw (a whole list: no `cursor` sent; two tools or
/// more, or no order can differ).
pub(crate) fn data_lints(
    set: ContentSet,
    output_schema: Option<&SharedSchema>,
    cursor: bool,
    surface: &Surface,
    listed: &mut Listed,
) {
    if set.contains(ContentCheck::StructuredText) {
        if let Some(schema) = output_schema {
            listed.push(Expectation {
                rule: rules::TOOLS_OUTPUT_CONFORM,
                demand: Demand::Lint(Lint::OutputConforms(schema.clone())),
            });
        }
    }
    if set.contains(ContentCheck::ToolsListed) && !cursor && surface.tools.len() > 1 {
        let seen = ListOrder::of(surface.tools.iter().map(|t| t.name.as_str()));
        listed.push(Expectation {
            rule: rules::TOOLS_ORDER,
            demand: Demand::Lint(Lint::ToolOrder(seen)),
        });
    }
}
