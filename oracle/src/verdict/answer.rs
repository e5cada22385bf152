//! `Answer`: one acceptable outcome of a case (an error with its code, status and `data` rule,
//! a result, a stream, a bare status), and the parts it is made of (`StatusSet`, `DataRule`,
//! `Requested`, `NamedVersions`).

use crate::inline_text::InlineText;
use serde::Serialize;

/// A set of HTTP status codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum StatusSet {
    Exact(u16),
    /// Inclusive range, e.g. 400..=599 for "an HTTP error status".
    Range(u16, u16),
}

impl StatusSet {
    pub const ERROR: StatusSet = StatusSet::Range(400, 599);
    pub const ANY: StatusSet = StatusSet::Range(100, 599);

    pub fn contains(self, s: u16) -> bool {
        match self {
            StatusSet::Exact(x) => s == x,
            StatusSet::Range(lo, hi) => (lo..=hi).contains(&s),
        }
    }
}

/// The versions a -32022 answer may name as `data.requested` (AMB-06): which of the
/// request's header version and body version, as bits. The texts themselves are the
/// Verdict's, once (`NamedVersions`): a bit set keeps `Answer` `Copy` and small, so the
/// several sets an answer is copied into are plain copies with nothing to drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requested(u8);

impl Requested {
    const HEADER: u8 = 1;
    const BODY: u8 = 2;

    /// The header's version, the body's, or both (header first).
    pub fn new(header: bool, body: bool) -> Requested {
        let bit = |named: bool, bit: u8| if named { bit } else { 0 };
        Requested(bit(header, Requested::HEADER) | bit(body, Requested::BODY))
    }

    /// The texts named, header first, read from `versions` (the Verdict's): none without it.
    pub fn texts(self, versions: Option<&NamedVersions>) -> impl Iterator<Item = &str> {
        let parts = versions.map(|v| {
            [
                (Requested::HEADER, v.header.as_str()),
                (Requested::BODY, v.body.as_str()),
            ]
        });
        parts
            .into_iter()
            .flatten()
            .filter(move |(bit, _)| self.0 & bit != 0)
            .map(|(_, text)| text)
    }
}

/// The two versions a request names, its header's and its body's, that a -32022 answer's
/// `Requested` picks from (absent ones empty: no `Requested` names them). A Verdict holds
/// them once, and only when one of its answers is a -32022 refusal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamedVersions {
    pub header: InlineText,
    pub body: InlineText,
}

/// Extra requirements on `error.data` (P-SHAPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataRule {
    None,
    /// -32022: `data.supported` a string array not containing `data.requested`, and
    /// `data.requested` one of these values (AMB-06: header or body).
    UnsupportedVersion {
        requested: Requested,
    },
    /// -32021: `data.requiredCapabilities` an object.
    RequiredCapabilities,
}

/// One acceptable outcome. Ids are not part of an answer: the id lints check them. A -32022
/// refusal's versions are the Verdict's (`Requested`): it serializes, prints and compares
/// across Verdicts through the Verdict (`super::named`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A JSON-RPC error response with `code`, served with a status in `status`.
    RpcError {
        status: StatusSet,
        /// (every code the oracle names is a JSON-RPC one, in `i32`: it keeps `Answer` at
        /// 12 bytes, an answer set of four at 64)
        code: i32,
        data: DataRule,
    },
    /// A JSON-RPC success response (JSON or SSE) with a 2xx status.
    RpcResult,
    /// A 2xx SSE stream carrying no JSON-RPC error (`subscriptions/listen`).
    OpenStream,
    /// `202 Accepted` with an empty body.
    Accepted,
    /// A status in `status`, whatever the body (rejections the spec gives no code for, and
    /// rejections an HTTP parser makes below the MCP layer).
    HttpStatus { status: StatusSet },
    /// Any rejection: an HTTP error status or a JSON-RPC error body.
    AnyError,
    /// Anything that is not a rejection (a 1xx-3xx status without a JSON-RPC error body).
    NotAnError,
    /// A 2xx JSON-RPC success whose result's `contents` is an empty array: admitted by
    /// RES-NOTFOUND-32602's set only so that RES-NO-EMPTY-CONTENTS, the sentence
    /// that names this answer, is the one it breaks (DEVIATIONS.md D-124).
    EmptyContents,
}
