//! The `Origin` check (streamable-http.mdx § Security & Endpoint): a present and invalid
//! Origin gets 403. What counts as invalid is the deployment's allow-list (AMB-11), so the
//! oracle only insists on 403 for origins no sane policy of a loopback server allows.

use super::findings::{is_blocking, Defect, Findings};
use super::view::HeaderView;
use crate::case::HeaderField;
use crate::message::Message;
use crate::rules;
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, StatusSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OriginClass {
    /// No Origin header (non-browser clients): never a reason to refuse.
    Absent,
    /// Listed in the surface's allowed origins.
    Valid,
    /// A foreign host, a look-alike of loopback, `null`, or a malformed origin: 403 required.
    Invalid,
    /// Repeated fields, or loopback on some port: either answer is accepted.
    Unclear,
}

pub(crate) fn classify(h: &HeaderView<'_>, surface: &Surface) -> OriginClass {
    let raw = match h.origin {
        HeaderField::Absent => return OriginClass::Absent,
        HeaderField::Repeated { .. } => return OriginClass::Unclear,
        HeaderField::One(v) => v,
    };
    let Ok(value) = std::str::from_utf8(raw) else {
        return OriginClass::Invalid;
    };
    if surface.allowed_origins.iter().any(|o| o == value) {
        return OriginClass::Valid;
    }
    if value == "null" {
        // an opaque origin (sandboxed frames, file: and data: pages, redirects) names no
        // site a policy could vouch for, so it cannot pass a validation that exists "to
        // prevent DNS rebinding attacks"; a deployment that wants it lists `null` in
        // `allowed_origins` (DEVIATIONS.md D-04, narrowed)
        return OriginClass::Invalid;
    }
    let Some((scheme, rest)) = value.split_once("://") else {
        return OriginClass::Invalid;
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return OriginClass::Invalid;
    }
    let host = if let Some(v6) = rest.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, _)) => h,
            None => return OriginClass::Invalid,
        }
    } else {
        rest.split(':').next().unwrap_or(rest)
    };
    let loopback = host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "::1";
    if loopback {
        // the server's own origin, or another local app: policy decides (AMB-11)
        OriginClass::Unclear
    } else {
        OriginClass::Invalid
    }
}

/// 403, body free (it MAY be an id-less JSON-RPC error).
pub(crate) fn answer() -> Answer {
    Answer::HttpStatus {
        status: StatusSet::Exact(403),
    }
}

/// The defect of an invalid Origin on a request with HTTP method `verb`. «If the `Origin`
/// header is present and invalid, servers MUST respond with HTTP 403 Forbidden»
/// (SHTTP-ORIGIN-403) owns the POSTs, the requests the MCP endpoint serves; «Servers MUST
/// validate the `Origin` header on all incoming connections» (SHTTP-ORIGIN-VALIDATE) owns
/// every other method (GET, DELETE, ...), which a server that checks Origin only in its POST
/// handler lets through (DEVIATIONS.md D-102).
pub(crate) fn defect(verb: &str, f: &mut Findings) {
    let rule = if verb.eq_ignore_ascii_case("POST") {
        rules::ORIGIN_403
    } else {
        rules::ORIGIN_VALIDATE
    };
    let d = Defect {
        reject: rule,
        shape: rule,
        blocking: is_blocking(rule),
        answers: smallvec::smallvec![answer()],
        priority: 1,
    };
    f.push(d, || Canonical::Reject {
        status: 403,
        code: Some(-32600),
        id: None,
        data: None,
        message: Message::Fixed("Forbidden: invalid Origin"),
    });
}
