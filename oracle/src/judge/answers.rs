//! The answer patterns several rules share: the 400/-32020 header refusal (its acceptable
//! pattern and its canonical form), the refusals an HTTP parser or a limited JSON reader make
//! before MCP code runs, and the pattern of the refusal of a body that is no request.
//! `findings` and `header_values` both build on these; neither depends on the other for them.

use super::view::Unusable;
use crate::message::Message;
use crate::request_id::RequestId;
use crate::verdict::{Answer, Canonical, DataRule, StatusSet};

/// The acceptable 400/-32020 refusal of a header that does not match the body (or is
/// missing or malformed).
pub(crate) fn mismatch_answer() -> Answer {
    Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32020,
        data: DataRule::None,
    }
}

/// A refusal an HTTP parser makes before MCP code runs (control bytes in a field value):
/// accepted in place of 400/-32020 (DEVIATIONS.md D-05).
pub(crate) fn parser_refusal() -> Answer {
    // RFC 9110 §5.5 ("a recipient of CR, LF, or NUL within a field value MUST either reject
    // the message or replace each of those characters with SP"; other CTLs "are also
    // invalid") and §15.5.1 (400: "malformed request syntax"): 400, any body (D-05)
    Answer::HttpStatus {
        status: StatusSet::Exact(400),
    }
}

/// The canonical 400/-32020 rejection; `message` starts "Header mismatch: ".
pub(crate) fn header_mismatch(id: &RequestId, message: Message) -> Canonical {
    Canonical::Reject {
        status: 400,
        code: Some(-32020),
        id: Some(id.clone()),
        data: None,
        message,
    }
}

/// A limited JSON reader's refusal (D-48): -32600 Invalid Request, any status (D-23).
pub(crate) fn strict_refusal() -> Answer {
    Answer::RpcError {
        status: StatusSet::ANY,
        code: -32600,
        data: DataRule::None,
    }
}

/// The acceptable-answer pattern of the conventional refusal of a body that is no request
/// (`Fallback::Refuse`'s canonical answer): 400 with its code (-32700 or -32600), no `data`.
pub(crate) fn refusal_answer(u: &Unusable) -> Answer {
    Answer::RpcError {
        status: StatusSet::Exact(400),
        code: u.code,
        data: DataRule::None,
    }
}
