//! Which revision a dual-era server serves one request by: the one decision the judge (its
//! legacy path, `judge/headers/version.rs`) and the dual-era reference (`reference::legacy::
//! route`) both take from here, so they cannot disagree on a request's era (DEVIATIONS.md
//! D-L1, D-L10).
//!
//! versioning.mdx (2026-07-28), VER-DUAL-ERA-SELECT: «A request carrying modern per-request
//! `_meta` is served statelessly according to this revision. - An `initialize` request selects
//! legacy semantics». «Modern» is defined on the same page as the versions «that convey
//! version, identity, and capabilities as per-request metadata (revision `2026-07-28` and
//! later)» and «Legacy» as «`2025-11-25` and earlier»: a body `_meta` naming a legacy version
//! is therefore not modern `_meta`, and the version it names decides (legacy). A body naming
//! any other version is modern, whatever its header says.

use crate::case::{HeaderField, MODERN_VERSION};

/// Published revisions before 2026-07-28 (the initialize-handshake era).
pub const LEGACY_ERA_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The path a dual-era server takes for one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28: served statelessly.
    Modern,
    /// 2025-11-25: served by the legacy revision (in a session, if it has one).
    Legacy,
}

/// Why a request is on the era it is: the judge needs the reason, not only the era (it
/// relaxes only what the reason allows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EraReason {
    /// An `initialize` request: legacy.
    Initialize,
    /// The version the request names (body `_meta` first, else its one header value) is a
    /// legacy one: legacy.
    NamesLegacy,
    /// No version anywhere (no `_meta` version, no header): how a 2025-03-26 client sends a
    /// request (D-18, D-36): legacy.
    NamesNone,
    /// No `_meta` version and a header naming neither era (unsupported, malformed,
    /// repeated), beside an `Mcp-Session-Id`: continues a legacy session (D-50): legacy.
    UnknownInSession,
    /// A body `_meta` naming a non-legacy version, or a header naming the modern one: modern.
    NamesModern,
    /// No `_meta` version and a header naming neither era, outside a session: modern (its
    /// refusal is the modern one).
    UnknownOutsideSession,
}

impl EraReason {
    /// The era this reason selects.
    pub fn era(self) -> Era {
        match self {
            EraReason::Initialize
            | EraReason::NamesLegacy
            | EraReason::NamesNone
            | EraReason::UnknownInSession => Era::Legacy,
            EraReason::NamesModern | EraReason::UnknownOutsideSession => Era::Modern,
        }
    }
}

/// Whether `v` is a legacy protocol version (compared as bytes: the versions are ASCII).
pub fn is_legacy_version(v: &[u8]) -> bool {
    LEGACY_ERA_VERSIONS.iter().any(|l| l.as_bytes() == v)
}

/// The era of a request: `initialize` whether its method is `initialize`, `meta_version` the
/// version its body `_meta` names (if any), `header` its `MCP-Protocol-Version` field, and
/// `session` whether it carries an `Mcp-Session-Id`.
pub fn select_era(
    initialize: bool,
    meta_version: Option<&[u8]>,
    header: &HeaderField<'_>,
    session: bool,
) -> EraReason {
    if initialize {
        return EraReason::Initialize;
    }
    if let Some(v) = meta_version {
        return if is_legacy_version(v) {
            EraReason::NamesLegacy
        } else {
            EraReason::NamesModern
        };
    }
    match header {
        HeaderField::Absent => EraReason::NamesNone,
        HeaderField::One(v) if is_legacy_version(v) => EraReason::NamesLegacy,
        HeaderField::One(v) if *v == MODERN_VERSION.as_bytes() => EraReason::NamesModern,
        // (a repeated field's value, `a, a`, names no version: D-09)
        _ if session => EraReason::UnknownInSession,
        _ => EraReason::UnknownOutsideSession,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_naming_a_legacy_version_is_legacy_whatever_the_header() {
        for header in [
            HeaderField::Absent,
            HeaderField::One(b"2026-07-28"),
            HeaderField::One(b"2025-11-25"),
        ] {
            let r = select_era(false, Some(b"2025-11-25"), &header, false);
            assert_eq!(r, EraReason::NamesLegacy, "{header:?}");
            assert_eq!(r.era(), Era::Legacy);
        }
        let modern = select_era(false, Some(b"2026-07-28"), &HeaderField::Absent, true);
        assert_eq!(modern.era(), Era::Modern);
        let unknown = select_era(false, Some(b"1900-01-01"), &HeaderField::Absent, true);
        assert_eq!(
            unknown,
            EraReason::NamesModern,
            "any non-legacy _meta is modern"
        );
    }

    #[test]
    fn header_only_requests() {
        let e = |h: HeaderField<'_>, s: bool| select_era(false, None, &h, s);
        assert_eq!(e(HeaderField::Absent, false), EraReason::NamesNone);
        assert_eq!(e(HeaderField::One(b"2024-11-05"), false).era(), Era::Legacy);
        assert_eq!(e(HeaderField::One(b"2026-07-28"), true).era(), Era::Modern);
        assert_eq!(e(HeaderField::One(b"x"), true), EraReason::UnknownInSession);
        assert_eq!(e(HeaderField::One(b"x"), false).era(), Era::Modern);
        assert_eq!(
            select_era(true, Some(b"2026-07-28"), &HeaderField::Absent, false).era(),
            Era::Legacy
        );
    }
}
