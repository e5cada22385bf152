//! The reference's list answers: the page a request's `cursor` opens (`serve --page-size`;
//! `crate::pages` keeps the cursor scheme), with its caching hints.

use super::dispatch::{cached, invalid, Call};
use super::response::Response;
use super::result_body;
use crate::surface::Surface;
use serde_json::{json, Map, Value};

/// A list method's answer: the page its `cursor` opens (the whole list when the surface has
/// no page size), or -32602 for a cursor the reference never issues: «Invalid cursors
/// SHOULD result in an error with code -32602 (Invalid params).» (pagination.mdx).
pub(super) fn list(call: &Call, surface: &Surface, key: &str, items: Vec<Value>) -> Response {
    let cursor = match call.params.get("cursor") {
        None => None,
        Some(Value::String(c)) => Some(c.as_str()),
        Some(_) => return invalid(&call.id, "Invalid params: unknown cursor"),
    };
    let size = surface.pagination.page_size;
    let Some((range, next)) = crate::pages::page(items.len(), size, cursor) else {
        return invalid(&call.id, "Invalid params: unknown cursor");
    };
    let mut result = Map::new();
    result.insert(key.into(), Value::Array(items[range].to_vec()));
    if let Some(next) = next {
        result.insert("nextCursor".into(), json!(next));
    }
    Response::json(200, result_body(&call.id, cached(Value::Object(result))))
}
