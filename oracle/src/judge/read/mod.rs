//! The two readers of a request into its `RequestView`: `read_fast`, which the judge runs
//! (one pass over the headers, the body scanned in place, a full parse only for bodies
//! outside the scanner's subset that may still be JSON), and `read_simple`, which looks
//! every header up on its own and parses every body into a `serde_json::Value` (the fast
//! reader's differential twin).

mod arg_members;
pub(crate) mod arg_schema;
pub(crate) mod arguments;
mod fast_body;
mod fast_headers;
mod keys;
mod lex;
mod rare_text;
mod scan;
mod simple;
mod skip;
mod validated;

use super::view::{self, RequestView};
use crate::case::Case;
use serde_json::Value;

/// Where a reader keeps a body it had to parse into a tree: the view borrows from it.
pub type ParsedBody = Option<Value>;

fn path(case: &Case) -> &str {
    // (a byte search: `split('?')` builds a `char` searcher per call, for a path of a few bytes)
    match case.path.bytes().position(|b| b == b'?') {
        Some(q) => case.path.get(..q).unwrap_or(""),
        None => &case.path,
    }
}

fn parse_error<'a>() -> view::BodyView<'a> {
    view::BodyView::Unusable(view::Unusable {
        code: -32700,
        id: None,
        message: view::PARSE_ERROR,
    })
}

/// The view the judge reads.
pub fn read_fast<'a>(case: &'a Case, parsed: &'a mut ParsedBody) -> RequestView<'a> {
    let mut view = RequestView::empty(case);
    read_fast_into(case, parsed, &mut view);
    view
}

/// `read_fast` into a view `RequestView::empty` made for `case` (the judge's own, which it
/// reads in place: the view is large, and returning it would copy it).
pub(crate) fn read_fast_into<'a>(
    case: &'a Case,
    parsed: &'a mut ParsedBody,
    view: &mut RequestView<'a>,
) {
    let mut top = scan::Top::default();
    // (filled in place: the headers' and the body's views are large, and building each apart
    // cost a copy of it into this one)
    fast_headers::read_headers_into(case, &mut view.headers);
    match scan::read(&case.body, &mut top) {
        Ok(()) => {
            fast_body::envelope_into(&top, &mut view.body);
            view.nesting_beyond = top.depth > crate::case::NESTING_LIMIT;
        }
        // nested too deep for `serde_json` (so deeper than `case::NESTING_LIMIT` too), or not
        // UTF-8 (so not JSON): the answer `read_parsed` would give, without its parses
        Err(why @ (scan::Outside::TooDeep | scan::Outside::NotUtf8)) => {
            view.body = parse_error();
            view.nesting_beyond =
                why == scan::Outside::TooDeep || crate::case::nesting_beyond(&case.body);
        }
        Err(scan::Outside::Other) => read_parsed(case, parsed, view),
    }
}

/// `read_fast` for a body outside the scanner's subset: read through a full parse into
/// `view`.
#[inline(never)]
fn read_parsed<'a>(case: &'a Case, parsed: &'a mut ParsedBody, view: &mut RequestView<'a>) {
    let depth = crate::case::nesting_depth(&case.body, simple::PARSE_DEPTH);
    view.body = if depth < simple::PARSE_DEPTH && simple::is_json(&case.body) {
        simple::read_body(&case.body, parsed)
    } else {
        // not JSON, or too deep for `serde_json`'s reader: said without building a
        // tree (`simple::read_body` would build one up to the error, then drop it)
        parse_error()
    };
    view.nesting_beyond = depth > crate::case::NESTING_LIMIT;
}

impl<'a> RequestView<'a> {
    /// The view of `case` before its headers and body are read: no field, an empty
    /// notification (a reader fills both in).
    pub(crate) fn empty(case: &'a Case) -> RequestView<'a> {
        RequestView {
            path: path(case),
            verb: &case.method,
            raw_body: &case.body,
            headers: view::HeaderView::default(),
            body: view::BodyView::Notification,
            nesting_beyond: false,
        }
    }
}

/// The same view read the simple way.
#[cfg(any(test, feature = "judge-reference"))]
pub fn read_simple<'a>(case: &'a Case, parsed: &'a mut ParsedBody) -> RequestView<'a> {
    RequestView {
        path: path(case),
        verb: &case.method,
        raw_body: &case.body,
        headers: simple::read_headers(case),
        body: simple::read_body(&case.body, parsed),
        nesting_beyond: crate::case::nesting_beyond(&case.body),
    }
}

/// Whether `read_fast` reads `body` in place (the scanner's subset) rather than through a
/// full parse; the differential test uses it to show both paths are exercised.
#[doc(hidden)]
pub fn body_read_in_place(body: &[u8]) -> bool {
    scan::validate(body).is_some()
}

#[cfg(test)]
mod read_tests;
