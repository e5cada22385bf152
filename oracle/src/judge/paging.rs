//! The SHOULD refusals of a request's `cursor` and log level, and what a later page of a
//! paginated list must be (`crate::pages` keeps what discovery saw of the pages).
//!
//! - «Invalid cursors SHOULD result in an error with code -32602 (Invalid params).»
//!   (pagination.mdx § Error Handling; PAGE-INVALID-CURSOR, D-140): a list request whose
//!   `cursor` the target never issued for that list is refused -32602.
//! - «Servers SHOULD: - Provide stable cursors» (§ Implementation Guidelines; PAGE-STABLE,
//!   D-141): a cursor discovery was given is still served with a page.
//! - «Servers MUST apply the same `cacheScope` to all response pages for a given list
//!   request.» (caching.mdx § Interaction with Pagination; CACHE-SCOPE-PAGES, D-142).
//! - «If the `io.modelcontextprotocol/logLevel` value carried in a request's `_meta` is not a
//!   recognized log level, the server SHOULD reject that request with a standard JSON-RPC
//!   error: - Invalid log level: `-32602`» (logging.mdx § Error Handling; LOG-INVALID-LEVEL,
//!   D-145).
//!
//! Both refusals are SHOULD-level defects (a result is the finding, another error code too);
//! -32602 also stays tolerated beside any MUST defect (D-62), as before they were judged.

use super::findings::Findings;
use super::view::{CursorView, Modern, ParamsView, RequestBody};
use crate::message::Message;
use crate::rules;
use crate::soft_params::{LogLevel, LOG_LEVELS};
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, DataRule, Demand, Expectation, Lint, Listed, StatusSet};
use smallvec::smallvec;

/// A list request's cursor as the target's pages make it.
pub(crate) enum Cursor<'s> {
    /// No cursor, or `null` (left alone).
    None,
    /// A cursor the target issued for this list; the first page's `cacheScope`, if known.
    Issued(Option<&'s str>),
    /// A cursor the target never issued for this list.
    Invalid,
}

/// What `p.cursor` is for list method `method` on `surface`.
pub(crate) fn cursor_of<'s>(
    req: &RequestBody<'_>,
    p: &ParamsView<'_>,
    surface: &'s Surface,
) -> Cursor<'s> {
    if !req.kind.is_some_and(Modern::is_list) {
        return Cursor::None;
    }
    let method = &*req.method;
    match &p.cursor {
        CursorView::Absent | CursorView::Null => Cursor::None,
        CursorView::Text(c) => match surface.pagination.list(method) {
            Some(l) if l.cursors.iter().any(|x| x == c) => Cursor::Issued(l.scope.as_deref()),
            _ => Cursor::Invalid,
        },
        CursorView::Other => Cursor::Invalid,
    }
}

/// -32602, with whatever status.
fn invalid_params_any() -> Answer {
    Answer::RpcError {
        status: StatusSet::ANY,
        code: -32602,
        data: DataRule::None,
    }
}

fn refusal(req: &RequestBody<'_>, message: &'static str) -> Canonical {
    Canonical::Reject {
        status: 200,
        code: Some(-32602),
        id: Some(req.id.clone()),
        data: None,
        message: Message::Fixed(message),
    }
}

/// The SHOULD refusals: an invalid cursor (`cursor`) and an unrecognized log level.
pub(crate) fn refusals(
    req: &RequestBody<'_>,
    p: &ParamsView<'_>,
    cursor: &Cursor<'_>,
    f: &mut Findings,
) {
    if matches!(cursor, Cursor::Invalid) {
        f.defect_lazy(
            rules::PAGE_INVALID_CURSOR,
            rules::PAGE_INVALID_CURSOR,
            7,
            invalid_params_any(),
            || refusal(req, "Invalid params: unknown cursor"),
        );
    }
    let unrecognized = match &p.log_level {
        LogLevel::Absent => false,
        LogLevel::Text(l) => !LOG_LEVELS.contains(&&**l),
        LogLevel::NotText => true,
    };
    if unrecognized {
        f.defect_lazy(
            rules::LOG_INVALID_LEVEL,
            rules::LOG_INVALID_LEVEL,
            7,
            invalid_params_any(),
            || refusal(req, "Invalid params: unrecognized log level"),
        );
    }
}

/// What a later page must be, for a request carrying an issued cursor: served with a page
/// when nothing else in the request may be refused (PAGE-STABLE), and with the first page's
/// `cacheScope` (CACHE-SCOPE-PAGES).
pub(crate) fn page_expectations(cursor: &Cursor<'_>, f: &Findings, listed: &mut Listed) {
    let Cursor::Issued(scope) = cursor else {
        return;
    };
    if f.defects.is_empty() && !f.anything_goes {
        let mut answers = smallvec![Answer::RpcResult];
        answers.extend(f.tolerated.iter().cloned());
        listed.push(Expectation {
            rule: rules::PAGE_STABLE,
            demand: Demand::OneOf(answers),
        });
    }
    if let Some(scope) = scope {
        listed.push(Expectation {
            rule: rules::CACHE_SCOPE_PAGES,
            demand: Demand::Lint(Lint::PageScope(scope.to_string())),
        });
    }
}
