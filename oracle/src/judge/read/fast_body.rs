//! The body's envelope from the scanner's reading (`scan::read`): the id, method and
//! `params` members taken from where the scanner found them in the validated text.

use super::arguments::{Arguments, RawArguments};
use super::scan::{self, MetaIdx, Outside, ParamsIdx, Top};
use super::validated::{self, Kind, Val};
use crate::judge::view::{
    BodyView, ParamsView, RequestBody, Unusable, BAD_ID, BAD_JSONRPC, NOT_OBJECT, NOT_REQUEST,
    NO_METHOD,
};
use crate::request_id::RequestId;
use crate::soft_params::LogLevel;

/// The envelope of `body` when it is in the scanner's subset, and whether it nests deeper
/// than `case::NESTING_LIMIT`; else why the scanner could not read it.
pub(crate) fn read_body(body: &[u8]) -> Result<(BodyView<'_>, bool), Outside> {
    scan::read(body).map(|top| (envelope(top), top.depth > crate::case::NESTING_LIMIT))
}

fn unusable<'b>(code: i64, id: Option<RequestId>, message: &'static str) -> BodyView<'b> {
    BodyView::Unusable(Unusable { code, id, message })
}

/// An integer or string id; `Err` for any other id (AMB-27, AMB-39).
fn read_id(v: Val<'_>) -> Result<RequestId, ()> {
    match v.kind() {
        Kind::String => v.as_str().map(|s| RequestId::text(&s)).ok_or(()),
        Kind::Number => validated::value(v.text)
            .and_then(|n| RequestId::of(&n))
            .ok_or(()),
        _ => Err(()),
    }
}

fn envelope(top: Top<'_>) -> BodyView<'_> {
    if !top.is_object {
        return unusable(-32600, None, NOT_OBJECT);
    }
    let id = match top.id.map(read_id) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(())) => return unusable(-32600, None, BAD_ID),
    };
    if top.jsonrpc.and_then(Val::as_str).as_deref() != Some("2.0") {
        return unusable(-32600, id, BAD_JSONRPC);
    }
    let Some(method) = top.method.and_then(Val::as_str) else {
        return unusable(-32600, id, NO_METHOD);
    };
    if top.response {
        return unusable(-32600, id, NOT_REQUEST);
    }
    let (params, params_malformed) = match top.params {
        None => (None, false),
        Some(Kind::Object) => (Some(params(top.p)), false),
        Some(_) => (None, true),
    };
    match id {
        None => BodyView::Notification,
        Some(id) => BodyView::Request(RequestBody {
            id,
            method,
            params,
            params_malformed,
        }),
    }
}

fn params(p: ParamsIdx<'_>) -> ParamsView<'_> {
    // `_meta`'s members count only when it is an object
    let m = if p.meta == Some(Kind::Object) {
        p.m
    } else {
        MetaIdx::default()
    };
    ParamsView {
        name: p.name.and_then(Val::as_str),
        uri: p.uri.and_then(Val::as_str),
        version: m.version.and_then(Val::as_str),
        capabilities: m.capabilities == Some(Kind::Object),
        client_info_malformed: m.client_info == Some(false),
        arguments: p.arguments.map(|text| {
            Arguments::Raw(RawArguments {
                text,
                members: p.args,
            })
        }),
        cursor: p.cursor,
        log_level: match m.log_level {
            None => LogLevel::Absent,
            Some(v) => v.as_str().map_or(LogLevel::NotText, LogLevel::Text),
        },
    }
}
