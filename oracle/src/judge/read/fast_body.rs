//! The body's view from the scanner's reading (`scan::read`): the id, method and
//! `params` members taken from where the scanner found them in the validated text.

use super::arguments::{Arguments, RawArguments};
use super::keys::Slot;
use super::scan::Top;
use super::validated::{self, Kind, Val};
use crate::judge::rare::CONFORMANT_CLIENT;
use crate::judge::view::{
    BodyView, CursorView, InputResponsesView, Modern, ParamsView, RequestBody, Unusable, BAD_ID,
    BAD_JSONRPC, NOT_OBJECT, NOT_REQUEST, NO_METHOD,
};
use crate::request_id::RequestId;
use crate::soft_params::LogLevel;

fn unusable<'b>(code: i32, id: Option<RequestId>, message: &'static str) -> BodyView<'b> {
    BodyView::Unusable(Unusable { code, id, message })
}

/// An integer or string id; `Err` for any other id (AMB-27, AMB-39).
fn read_id(v: Val<'_>) -> Result<RequestId, ()> {
    match v.kind() {
        Kind::String => v.as_str().map(|s| RequestId::text(&s)).ok_or(()),
        // (an integer read without building a `Value` around it: most ids)
        Kind::Number => match validated::integer(v.text) {
            Some(n) => Ok(RequestId::Number(n)),
            None => validated::value(v.text)
                .and_then(|n| RequestId::of(&n))
                .ok_or(()),
        },
        _ => Err(()),
    }
}

/// The envelope of a body the scanner read into `top`, written into `body` (the view's
/// own: built in place, the request's `params` filled where they lie, rather than built and
/// moved in twice; a `BodyView` is 312 bytes).
#[inline(always)]
pub(super) fn envelope_into<'a>(top: &Top<'a>, body: &mut BodyView<'a>) {
    if !top.is_object {
        *body = unusable(-32600, None, NOT_OBJECT);
        return;
    }
    let id = match top.val(Slot::Id).map(read_id) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(())) => {
            *body = unusable(-32600, None, BAD_ID);
            return;
        }
    };
    if top.val(Slot::Jsonrpc).map(|v| v.text) != Some("\"2.0\"") {
        // (an escaped spelling of `2.0` is still `2.0`)
        if top.val(Slot::Jsonrpc).and_then(Val::as_str).as_deref() != Some("2.0") {
            *body = unusable(-32600, id, BAD_JSONRPC);
            return;
        }
    }
    let Some(method) = top.val(Slot::Method).and_then(Val::as_str) else {
        *body = unusable(-32600, id, NO_METHOD);
        return;
    };
    if top.kind(Slot::Response).is_some() {
        *body = unusable(-32600, id, NOT_REQUEST);
        return;
    }
    let Some(id) = id else {
        // a notification: its params are no rule's
        *body = BodyView::Notification;
        return;
    };
    let params_kind = top.kind(Slot::Params);
    let kind = Modern::of(&method);
    *body = BodyView::Request(RequestBody {
        id,
        method,
        kind,
        params: None,
        params_malformed: params_kind.is_some_and(|k| k != Kind::Object),
    });
    let BodyView::Request(req) = body else {
        return;
    };
    if params_kind != Some(Kind::Object) {
        return;
    }
    // (`params` is `None` just above: filled without a call to drop what was there)
    let p = req.params.get_or_insert_with(|| params(top));
    if kind == Some(Modern::Listen) {
        // a listen request's filter, read off the text (no tree)
        p.listen_filter = top
            .val(Slot::Params)
            .map_or(0, |v| super::rare_text::listen_filter_of(v.text));
    }
    if kind == Some(Modern::Complete) {
        // a completion's `ref` and `argument`, read off the text (no tree)
        p.completion = top
            .val(Slot::Params)
            .and_then(|v| super::rare_text::completion_of(v.text));
    }
}

/// The members of `params` (an object), and of its `_meta` when that is an object.
#[inline(always)]
fn params<'a>(top: &Top<'a>) -> ParamsView<'a> {
    let str_of = |slot| top.val(slot).and_then(Val::as_str);
    // `_meta`'s members count only when it is an object (else none was noted)
    let meta = top.kind(Slot::Meta) == Some(Kind::Object);
    let of_meta = |slot| if meta { top.val(slot) } else { None };
    // (asked once: it reads three members)
    let client_info = if meta { top.client_info() } else { None };
    ParamsView {
        name: str_of(Slot::Name),
        uri: str_of(Slot::Uri),
        version: of_meta(Slot::Version).and_then(Val::as_str),
        capabilities: meta && top.kind(Slot::Capabilities) == Some(Kind::Object),
        input_caps: match top.val(Slot::Capabilities) {
            Some(v) if meta && v.kind() == Kind::Object => {
                crate::shape::capabilities::declared_text(v.text)
            }
            _ => 0,
        },
        client_info_malformed: client_info == Some(false),
        // (the conformant name is compared as text first: no string is built for it)
        client_info_foreign: client_info == Some(true)
            && top.val(Slot::InfoName).is_some_and(|v| {
                v.text != "\"mcpdiff\"" && v.as_str().as_deref() != Some(CONFORMANT_CLIENT)
            }),
        // a retry's input responses: parsed, only when present (no generated case has them)
        input_responses: top
            .val(Slot::InputResponses)
            .map_or(InputResponsesView::Absent, |v| {
                super::rare_text::input_responses_of(v.text)
            }),
        completion: None,
        arguments: top.val(Slot::Arguments).map(|v| {
            Arguments::Raw(RawArguments {
                text: v.text,
                members: top.args,
            })
        }),
        cursor: match top.val(Slot::Cursor) {
            None => CursorView::Absent,
            Some(v) => match v.kind() {
                Kind::Null => CursorView::Null,
                Kind::String => v.as_str().map_or(CursorView::Other, CursorView::Text),
                _ => CursorView::Other,
            },
        },
        log_level: match of_meta(Slot::LogLevel) {
            None => LogLevel::Absent,
            Some(v) => v.as_str().map_or(LogLevel::NotText, LogLevel::Text),
        },
        progress_token: of_meta(Slot::ProgressToken).and_then(|v| read_id(v).ok()),
        listen_filter: 0,
    }
}
