//! `Answer`: one acceptable outcome of a case (an error with its code, status and `data` rule,
//! a result, a stream, a bare status), and the parts it is made of (`StatusSet`, `DataRule`,
//! `Requested`).

use crate::inline_text::InlineText;
use serde::{Serialize, Serializer};
use smallvec::SmallVec;
use std::ops::Deref;
use std::sync::Arc;

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

/// The versions a -32022 answer may name as `data.requested` (header and body, AMB-06),
/// shared by every copy of the answer: an answer is copied into several sets, and this keeps
/// `Answer` small (one thin pointer: an answer set holds four answers inline).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requested(Arc<SmallVec<[InlineText; 2]>>);

impl Requested {
    pub fn new<'s>(versions: impl IntoIterator<Item = &'s str>) -> Requested {
        Requested(Arc::new(
            versions.into_iter().map(InlineText::new).collect(),
        ))
    }
}

impl Deref for Requested {
    type Target = [InlineText];

    fn deref(&self) -> &[InlineText] {
        &self.0
    }
}

/// As the list of strings it holds.
impl Serialize for Requested {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter())
    }
}

/// Extra requirements on `error.data` (P-SHAPE).
#[derive(Clone, Debug, PartialEq, Serialize)]
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

/// One acceptable outcome. Ids are not part of an answer: the id lints check them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Answer {
    /// A JSON-RPC error response with `code`, served with a status in `status`.
    RpcError {
        status: StatusSet,
        code: i64,
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
