//! Baselines: known findings that must not fail a run (`--baseline FILE`). An entry names a
//! target (its name or URL; `*` for any) and a rule id. An entry that no longer reproduces is
//! reported as stale so the file does not rot.
//!
//! ```toml
//! [[known]]
//! target = "http://127.0.0.1:3000/mcp"
//! rule = "SHTTP-BC-SESSION-IGNORE"
//! reason = "sessions kept for legacy clients until 2027"
//! ```

use mcpdiff_oracle::RuleId;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Baseline {
    #[serde(default)]
    pub known: Vec<KnownFinding>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct KnownFinding {
    pub target: String,
    /// A rule of the table: a file naming an unknown id is refused on loading.
    pub rule: RuleId,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

impl Baseline {
    /// Read a baseline file; the error says which file and what is wrong with it.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read baseline {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| {
            format!(
                "baseline {} is not valid: {}; expected [[known]] entries with target and rule",
                path.display(),
                e.message()
            )
        })
    }

    fn matches(k: &KnownFinding, name: &str, url: &str, rule: RuleId) -> bool {
        (k.target == "*" || k.target == name || k.target == url) && k.rule == rule
    }

    /// Whether (target, rule) is a known finding.
    pub fn knows(&self, name: &str, url: &str, rule: &RuleId) -> bool {
        self.known
            .iter()
            .any(|k| Self::matches(k, name, url, *rule))
    }

    /// Entries that match no finding of this run: `found` lists (name, url, rule).
    pub fn stale(&self, found: &[(String, String, RuleId)]) -> Vec<KnownFinding> {
        self.known
            .iter()
            .filter(|k| !found.iter().any(|(n, u, r)| Self::matches(k, n, u, *r)))
            .cloned()
            .collect()
    }
}
