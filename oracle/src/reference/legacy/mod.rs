//! The legacy reference server: what a conformant 2025-11-25 Streamable HTTP server answers,
//! as a pure function of (session state, request).
//!
//! A dual-era server serves an `initialize` request, and the session it opens, by the legacy
//! revision (`2026-07-28/basic/versioning.mdx`, VER-DUAL-ERA-SELECT); [`route`] says which
//! requests those are, so `mcpdiff serve --dual-era` sends them here and everything else to
//! the modern reference unchanged. The session table is a value ([`LegacyState`]) passed in
//! and returned: no sockets, no clocks, no randomness (the shell supplies the nonce session
//! ids are minted from).
//!
//! Files: `state.rs` (sessions), `respond.rs` (the answers), `mutants.rs` (one fault per
//! rule the legacy judge checks, `crate::legacy`), `route.rs` (which era a request is), `streams.rs` (SSE streams and their resumption).

mod mutants;
mod respond;
mod route;
mod state;
mod streams;

pub use mutants::{
    legacy_mutant, respond_legacy_mutant, LegacyFault, LegacyMutant, LEGACY_MUTANTS,
};
pub use respond::respond;
pub use route::{route, Era};
pub use state::{LegacyState, Session, MAX_SESSIONS, MAX_STREAMS};

/// The legacy protocol versions the reference negotiates, newest first.
pub const LEGACY_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
