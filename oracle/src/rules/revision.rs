//! Which protocol revision a rule, a request path or a finding belongs to.
//!
//! A rule's revision is the table that holds it (`table.rs` for 2026-07-28,
//! `table_2025_11_25.rs` for 2025-11-25), never a field of its row: [`super::revision_of`] is
//! the one lookup. Reports split by revision first, so one revision's answer never counts for
//! another's.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A protocol revision the oracle has rules for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Revision {
    /// The revision under test: stateless, per-request `_meta`, mirrored headers.
    #[serde(rename = "2026-07-28")]
    V2026_07_28,
    /// The previous, session-based revision: `initialize`, `Mcp-Session-Id`, GET streams.
    #[serde(rename = "2025-11-25")]
    V2025_11_25,
}

impl Revision {
    /// Every revision, newest first (the order reports list them in).
    pub const ALL: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

    /// The revision's date, as the spec and the `protocolVersion` fields spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Revision::V2026_07_28 => "2026-07-28",
            Revision::V2025_11_25 => "2025-11-25",
        }
    }

    /// The folder under `oracle/spec/` holding the pages this revision's rules quote.
    pub fn spec_root(self) -> &'static str {
        self.as_str()
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
