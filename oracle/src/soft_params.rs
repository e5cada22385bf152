//! Request parameters a server SHOULD refuse with -32602: a pagination cursor the server never
//! issued and a log level that is not one of the eight. Both judges add -32602 to the
//! acceptable set for such a request (beside any other defect, DEVIATIONS.md D-62); the modern
//! judge also scores each alone (PAGE-INVALID-CURSOR, LOG-INVALID-LEVEL:
//! `judge/paging.rs`, D-140, D-145), and the reference server answers it so.

use crate::case::META_LOG_LEVEL;
use crate::judge::view::Modern;
use serde_json::Value;
use std::borrow::Cow;

/// The log levels of server/utilities/logging.mdx § Log Levels.
pub const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// A level's place in [`LOG_LEVELS`] (RFC 5424 order, `debug` 0 to `emergency` 7), when it is
/// one of the eight.
pub fn level_rank(level: &str) -> Option<u8> {
    let i = LOG_LEVELS.iter().position(|l| *l == level)?;
    // (at most 7)
    u8::try_from(i).ok()
}

/// The level at `rank` in [`LOG_LEVELS`] (the inverse of [`level_rank`]).
pub fn level_at(rank: u8) -> Option<&'static str> {
    LOG_LEVELS.get(usize::from(rank)).copied()
}

/// Whether `body` may hold either key: a `"cursor"` or `"io.modelcontextprotocol/logLevel"`
/// member name, or any backslash (an escaped key). One pass, stopping at the first hit: the
/// judge asks for every request, and nearly every body holds neither.
fn may_hold_keys(body: &[u8]) -> bool {
    const CURSOR: &[u8] = b"cursor\"";
    const LOG_LEVEL: &[u8] = b"io.modelcontextprotocol/logLevel\"";
    body.iter().enumerate().any(|(i, b)| match b {
        b'\\' => true,
        b'"' => {
            let rest = &body[i + 1..];
            rest.starts_with(CURSOR) || rest.starts_with(LOG_LEVEL)
        }
        _ => false,
    })
}

/// Why the request may be refused with -32602 under a SHOULD, if it may: "Invalid cursors
/// SHOULD result in an error with code -32602 (Invalid params)" (pagination.mdx; a cursor
/// is valid only if the server issued it, which the oracle cannot know, so any cursor may be
/// refused), or "If the `io.modelcontextprotocol/logLevel` value carried in a request's
/// `_meta` is not a recognized log level, the server SHOULD reject that request with a
/// standard JSON-RPC error: - Invalid log level: `-32602`" (logging.mdx).
pub fn should_refuse(body: &[u8]) -> Option<&'static str> {
    if !may_hold_keys(body) {
        return None;
    }
    let v: Value = serde_json::from_slice(body).ok()?;
    let method = v.get("method").and_then(Value::as_str)?;
    let params = v.get("params").and_then(Value::as_object)?;
    let level = params
        .get("_meta")
        .and_then(Value::as_object)
        .and_then(|m| m.get(META_LOG_LEVEL));
    refusal(method, params.contains_key("cursor"), &LogLevel::of(level))
}

/// The `io.modelcontextprotocol/logLevel` member of a request's `_meta`.
#[derive(Clone, Debug, PartialEq)]
pub enum LogLevel<'a> {
    /// No such member (or no `_meta` object).
    Absent,
    Text(Cow<'a, str>),
    /// A member that is not a string.
    NotText,
}

impl<'a> LogLevel<'a> {
    /// The member as found in a parsed `_meta`.
    pub fn of(member: Option<&'a Value>) -> LogLevel<'a> {
        match member {
            None => LogLevel::Absent,
            Some(Value::String(s)) => LogLevel::Text(Cow::Borrowed(s)),
            Some(_) => LogLevel::NotText,
        }
    }
}

/// `should_refuse` for a request with an object `params` (holding a `cursor` member or
/// not) and this log level.
pub fn refusal(method: &str, has_cursor: bool, level: &LogLevel<'_>) -> Option<&'static str> {
    let listed = Modern::of(method).is_some_and(Modern::is_list);
    refusal_of(listed, has_cursor, level)
}

/// `refusal` for a request whose method is known to be a list method (`listed`) or not.
pub fn refusal_of(listed: bool, has_cursor: bool, level: &LogLevel<'_>) -> Option<&'static str> {
    if listed && has_cursor {
        return Some("Invalid params: unknown cursor");
    }
    match level {
        LogLevel::Absent => None,
        LogLevel::Text(l) if LOG_LEVELS.contains(&&**l) => None,
        _ => Some("Invalid params: unrecognized log level"),
    }
}
