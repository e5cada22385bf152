//! `serve --dual-era`: the 2025-11-25 side of a dual-era reference. Requests that select
//! legacy semantics (`mcpdiff_oracle::reference::legacy::route`: `initialize`, or a session id
//! without modern `_meta`) are answered by the pure legacy reference; this module only holds
//! its session table between requests (behind a mutex: the table is a value the pure server
//! takes and returns) and mints the nonce session ids are built from.

use mcpdiff_oracle::reference::legacy::{
    respond, respond_legacy_mutant, route, Era, LegacyMutant, LegacyState,
};
use mcpdiff_oracle::reference::Response;
use mcpdiff_oracle::{Case, Surface};
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;

/// Which legacy server answers the legacy requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegacyVariant {
    /// The conformant 2025-11-25 reference.
    Reference,
    /// A legacy mutant (one `L-*` rule broken).
    Mutant(&'static LegacyMutant),
}

/// The legacy side of one running server.
pub(crate) struct LegacyShell {
    variant: LegacyVariant,
    state: Mutex<LegacyState>,
}

impl LegacyShell {
    pub(crate) fn new(variant: LegacyVariant) -> LegacyShell {
        LegacyShell {
            variant,
            state: Mutex::new(LegacyState::new(&nonce())),
        }
    }

    /// The legacy answer to `case` when it selects legacy semantics, else `None` (the modern
    /// reference answers it, unchanged).
    pub(crate) fn respond(&self, case: &Case, surface: &Surface) -> Option<Response> {
        if route(case) != Era::Legacy {
            return None;
        }
        Some(self.respond_any(case, surface))
    }

    /// The legacy answer to `case` whatever era it selects: a 2025-11-25-only server
    /// (`serve --legacy-only`) answers modern requests as requests without a session.
    pub(crate) fn respond_any(&self, case: &Case, surface: &Surface) -> Response {
        // a poisoned lock only means another request panicked mid-answer; the table itself
        // is always a whole value (it is replaced, never edited in place)
        let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let before = std::mem::replace(&mut *guard, LegacyState::new(""));
        let (answer, after) = match self.variant {
            LegacyVariant::Reference => respond(before, case, surface),
            LegacyVariant::Mutant(m) => respond_legacy_mutant(m, before, case, surface),
        };
        *guard = after;
        answer
    }
}

/// 128 unguessable bits as hex: std's per-process random hasher keys, so session ids are not
/// predictable across runs (L-SHTTP-SESSION-ID-SECURE) without a new dependency.
fn nonce() -> String {
    let word = || {
        let mut h = RandomState::new().build_hasher();
        h.write_u64(std::process::id().into());
        h.finish()
    };
    format!("{:016x}{:016x}", word(), word())
}
