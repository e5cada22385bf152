//! MCP Server Card scan (`mcpdiff card`): check an origin's card the way the public
//! scanner does, then check that the card tells the truth about the endpoint it names.
//!
//! Files, one concept each; all but `scan` are pure (values in, values out):
//! - `url`: origins and absolute URLs (what "on the scanned origin" means);
//! - `validate`: the card validator (name, version, description, usable remotes);
//! - `verdict`: which remotes are requested, and whether an answer counts;
//! - `report`: the verdict with its "what is wrong" and "what to ship" lines, the `--json`
//!   object;
//! - `catalog`: the newer discovery path (`/.well-known/ai-catalog.json`);
//! - `truth`: the card's `supportedProtocolVersions` against the endpoint's own word;
//! - `scan`: the I/O, over the raw transport, bounded in time and size.
//!
//! This module also builds the card `mcpdiff serve` publishes ([`reference_card`]).

pub mod catalog;
pub mod report;
pub mod scan;
pub mod truth;
pub mod url;
pub mod validate;
pub mod verdict;

pub use report::{CardReport, CARD_PATHS};
pub use scan::{scan, ScanError, ScanOptions};
pub use validate::{check_card, CardCheck};
pub use verdict::CardStatus;

use mcpdiff_oracle::case::MODERN_VERSION;
use serde_json::{json, Value};

/// The card's `$schema` (accepted by the scan, not required; published for validators).
pub const SCHEMA_URL: &str =
    "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json";

/// A minimal card with one streamable-http remote at `mcp_url` speaking the modern revision.
pub fn card_json(name: &str, version: &str, description: &str, mcp_url: &str) -> Value {
    json!({
        "$schema": SCHEMA_URL,
        "name": name,
        "version": version,
        "description": description,
        "remotes": [{
            "type": "streamable-http",
            "url": mcp_url,
            "supportedProtocolVersions": [MODERN_VERSION],
        }],
    })
}

/// The card of the running reference server whose MCP endpoint is `mcp_url`.
pub fn reference_card(mcp_url: &str) -> Value {
    card_json(
        "io.github.mcpdiff/reference",
        env!("CARGO_PKG_VERSION"),
        "mcpdiff reference server: a conformant MCP Streamable HTTP (2026-07-28) fixture",
        mcp_url,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_card_is_usable() {
        let c = check_card(&reference_card("http://127.0.0.1:8931/mcp"));
        assert!(c.usable(), "{:?} {:?}", c.problems, c.remotes);
        assert_eq!(c.name.as_deref(), Some("io.github.mcpdiff/reference"));
    }
}
