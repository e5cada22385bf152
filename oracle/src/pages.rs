//! Pagination (server/utilities/pagination.mdx): the cursors a target issued and the
//! `cacheScope` of each list's first page, as discovery saw them, and the reference server's
//! own paging (`serve --page-size`).
//!
//! A cursor is «an opaque string token, representing a position in the result set» that the
//! server hands out as `nextCursor`: the oracle calls a cursor *issued* when discovery was
//! given it for that list method, and any other cursor *invalid* (PAGE-INVALID-CURSOR;
//! DEVIATIONS.md D-140). The pages discovery saw are what PAGE-STABLE and CACHE-SCOPE-PAGES
//! compare a later page with (D-141, D-142).
//!
//! The reference issues `mcpdiff-page-N` (N the offset of the page's first item) and
//! accepts exactly the cursors it issues; [`with_page_size`] records them on its surface as
//! discovery would see them, so the judge and the reference agree on every cursor.

use crate::surface::Surface;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The list methods that take a `cursor` and the result member each lists in.
pub const LIST_METHODS: [(&str, &str); 4] = [
    ("tools/list", "tools"),
    ("resources/list", "resources"),
    ("resources/templates/list", "resourceTemplates"),
    ("prompts/list", "prompts"),
];

/// The prefix of the reference's cursors.
const CURSOR_PREFIX: &str = "mcpdiff-page-";

/// What the oracle knows of a target's pages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pagination {
    /// The page size the reference server lists in (`serve --page-size`); `None`: whole
    /// lists. Only the reference reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<usize>,
    /// Every list discovery was given a `nextCursor` for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lists: Vec<ListPages>,
}

/// One paginated list as discovery followed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListPages {
    /// The list method (`tools/list`, ...).
    pub method: String,
    /// Every `nextCursor` its pages carried, in order (the first opens the second page).
    pub cursors: Vec<String>,
    /// The first page's `cacheScope`, when it is a string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
}

impl Pagination {
    /// Nothing known: no page size, no paginated list.
    pub fn is_empty(&self) -> bool {
        self.page_size.is_none() && self.lists.is_empty()
    }

    /// The paginated list `method`, if discovery paged through it.
    pub fn list(&self, method: &str) -> Option<&ListPages> {
        self.lists.iter().find(|l| l.method == method)
    }

    /// Whether the target issued `cursor` for `method` (discovery was given it).
    pub fn issued(&self, method: &str, cursor: &str) -> bool {
        self.list(method)
            .is_some_and(|l| l.cursors.iter().any(|c| c == cursor))
    }
}

/// The reference's cursor for the page whose first item is at `offset`.
pub fn cursor_at(offset: usize) -> String {
    format!("{CURSOR_PREFIX}{offset}")
}

/// The page of a list of `len` items the reference answers for `cursor` (`None`: the first
/// page) when it lists `size` items a page (`None`: the whole list): the items' range and the
/// `nextCursor`, or `None` when the cursor is not one the reference issues for this list.
pub fn page(
    len: usize,
    size: Option<usize>,
    cursor: Option<&str>,
) -> Option<(Range<usize>, Option<String>)> {
    let start = match cursor {
        None => 0,
        Some(c) => {
            let size = size?.max(1);
            let offset: usize = c.strip_prefix(CURSOR_PREFIX)?.parse().ok()?;
            // exactly the cursors `cursor_at` writes for this list
            if offset == 0
                || offset >= len
                || !offset.is_multiple_of(size)
                || cursor_at(offset) != c
            {
                return None;
            }
            offset
        }
    };
    let Some(size) = size.map(|s| s.max(1)) else {
        return Some((0..len, None));
    };
    let end = (start + size).min(len);
    let next = (end < len).then(|| cursor_at(end));
    Some((start..end, next))
}

/// The number of items `surface` lists under `method`.
pub fn list_len(surface: &Surface, method: &str) -> usize {
    match method {
        "tools/list" => surface.tools.len(),
        "resources/list" => surface.resources.len(),
        "resources/templates/list" => surface.resource_templates.len(),
        "prompts/list" => surface.prompts.len(),
        _ => 0,
    }
}

/// `surface` served `size` items a page by the reference, with the pages recorded as
/// discovery sees them (every `nextCursor`, the first page's `cacheScope: "public"`).
pub fn with_page_size(mut surface: Surface, size: usize) -> Surface {
    let size = size.max(1);
    surface.pagination.page_size = Some(size);
    surface.pagination.lists = LIST_METHODS
        .iter()
        .filter_map(|(method, _)| {
            let len = list_len(&surface, method);
            let cursors: Vec<String> = (1..)
                .map(|k| k * size)
                .take_while(|o| *o < len)
                .map(cursor_at)
                .collect();
            (!cursors.is_empty()).then(|| ListPages {
                method: method.to_string(),
                cursors,
                scope: Some("public".to_string()),
            })
        })
        .collect();
    surface
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_cover_the_list_once() {
        assert_eq!(page(5, Some(2), None), Some((0..2, Some(cursor_at(2)))));
        assert_eq!(
            page(5, Some(2), Some("mcpdiff-page-2")),
            Some((2..4, Some(cursor_at(4))))
        );
        assert_eq!(page(5, Some(2), Some("mcpdiff-page-4")), Some((4..5, None)));
        assert_eq!(page(4, None, None), Some((0..4, None)));
        for bad in [
            "mcpdiff-page-3",
            "mcpdiff-page-6",
            "mcpdiff-page-0",
            "x",
            "mcpdiff-page-02",
        ] {
            assert_eq!(page(5, Some(2), Some(bad)), None, "{bad}");
        }
        assert_eq!(page(5, None, Some("mcpdiff-page-2")), None);
    }

    #[test]
    fn the_recorded_cursors_are_the_ones_the_pages_carry() {
        let s = with_page_size(crate::fixture::surface(), 2);
        let tools = s.pagination.list("tools/list").expect("4 tools, 2 a page");
        assert_eq!(tools.cursors, [cursor_at(2)]);
        assert!(s.pagination.issued("tools/list", "mcpdiff-page-2"));
        assert!(!s.pagination.issued("prompts/list", "mcpdiff-page-2"));
        // 2 resources, 1 template, 1 prompt: one page each
        assert!(s.pagination.list("resources/list").is_none());
    }
}
