//! The legacy reference's SSE streams: a streamed request's answer (a priming event, then the
//! response, each with an event id, then the end of the stream) and its resumption by a
//! `GET` with `Last-Event-ID` (2025-11-25 transports.mdx § Sending Messages to the Server,
//! § Resumability and Redelivery). Event ids are `s{stream}e{event}`: unique across every
//! stream of the session (L-SHTTP-EVENTID-UNIQUE) and naming the stream they belong to
//! (L-SHTTP-EVENTID-STREAM), so a resumption replays only that stream
//! (L-SHTTP-RESUME-SAME-STREAM).

use super::mutants::LegacyFault;
use super::state::{LegacyState, MAX_STREAMS};
use crate::reference::{Response, ResponseBody, SseEvent};
use serde_json::{json, Value};

/// A streamed answer carrying `response` in session `session` (L-SHTTP-SSE-PRIME, -RESPONSE,
/// -TERMINATE; the stream is kept for resumption).
pub(super) fn streamed(
    fault: Option<LegacyFault>,
    state: &mut LegacyState,
    session: &str,
    response: Value,
) -> Response {
    let Some(s) = state.session_mut(session) else {
        // (a live session was checked by the caller; no stream without one)
        return Response::json(200, response);
    };
    s.streams_opened += 1;
    let n = s.streams_opened;
    let id = |k: u32| match fault {
        Some(LegacyFault::EventIdsPerStream) => format!("e{k}"),
        _ => format!("s{n}e{k}"),
    };
    let prime = (id(0), None);
    let answer = (id(1), Some(response));
    let (sent, kept) = match fault {
        Some(LegacyFault::NoPrime) => (vec![answer.clone()], vec![answer]),
        // the connection closes after the priming event (the stream goes on): the response
        // waits for a resumption
        Some(LegacyFault::ClosesWithoutRetry) => (vec![prime.clone()], vec![prime, answer]),
        // the same close, with `retry`, but the response is never sent at all
        Some(LegacyFault::ResponseNeverSent) => (vec![prime.clone()], vec![prime]),
        _ => (vec![prime, answer.clone()], vec![(id(0), None), answer]),
    };
    if s.streams.len() >= MAX_STREAMS {
        s.streams.remove(0);
    }
    s.streams.push(kept);
    let mut events: Vec<SseEvent> = sent
        .into_iter()
        .map(|(id, data)| SseEvent {
            id: Some(id),
            data,
            retry_ms: None,
        })
        .collect();
    if fault == Some(LegacyFault::ResponseNeverSent) {
        // L-SHTTP-SSE-RETRY: a `retry` before closing a connection whose stream goes on
        if let Some(first) = events.first_mut() {
            first.retry_ms = Some(1000);
        }
    }
    stream(events, fault == Some(LegacyFault::StreamLeftOpen))
}

/// A `GET` with `Last-Event-ID` `last`: the events of the stream it names that follow it,
/// and the end of that stream; `None` when no kept stream has the id (the caller opens a
/// plain stream).
pub(super) fn resume(
    fault: Option<LegacyFault>,
    state: &LegacyState,
    session: &str,
    last: &str,
) -> Option<Response> {
    let s = state.session(session)?;
    let holding: Vec<usize> = (0..s.streams.len())
        .filter(|&i| s.streams[i].iter().any(|(id, _)| id == last))
        .collect();
    let [i] = holding[..] else {
        // an id no stream (or, with per-stream ids, more than one) holds: nothing to replay
        return (!holding.is_empty()).then(|| stream(Vec::new(), false));
    };
    let after = s.streams[i].iter().skip_while(|(id, _)| id != last).skip(1);
    let mut replay: Vec<(String, Option<Value>)> = after.cloned().collect();
    if fault == Some(LegacyFault::ReplaysEveryStream) {
        for (j, other) in s.streams.iter().enumerate() {
            if j != i {
                replay.extend(other.iter().cloned());
            }
        }
    }
    let events = replay
        .into_iter()
        // a priming event is not replayed (it carries no message)
        .filter_map(|(id, data)| data.map(|d| SseEvent::message(Some(id), d)))
        .collect();
    Some(stream(events, false))
}

/// The answer to `initialize` when it is streamed by the mutant that sends a server request
/// before `notifications/initialized` (L-LIFE-NO-REQUESTS-BEFORE-INITIALIZED).
pub(super) fn initialize_with_request(result: Value) -> Response {
    let request = json!({"jsonrpc": "2.0", "id": "mcpdiff-ref-roots", "method": "roots/list"});
    stream(
        vec![
            SseEvent::prime("i0".to_string()),
            SseEvent::message(Some("i1".to_string()), request),
            SseEvent::message(Some("i2".to_string()), result),
        ],
        false,
    )
}

fn stream(events: Vec<SseEvent>, keep_open: bool) -> Response {
    let mut r = Response::sse(Vec::new(), keep_open);
    r.body = ResponseBody::Stream { events, keep_open };
    r
}
