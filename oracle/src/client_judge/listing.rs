//! Which tools a client kept from `tools/list` (CLIENT-TOOL-EXCLUDE, CLIENT-TOOL-KEEP-VALID).

use super::ClientFinding;
use crate::rules::client::{TOOL_EXCLUDE, TOOL_KEEP_VALID};
use crate::toolset::ToolSet;
use std::collections::HashSet;

/// Findings on the names a client kept from the served `set`: an invalid tool kept breaks
/// CLIENT-TOOL-EXCLUDE, a valid tool dropped breaks CLIENT-TOOL-KEEP-VALID. Names the set
/// does not hold are ignored (a client cannot invent tools; such output is a driver bug the
/// runner reports separately).
pub fn judge_kept(set: &ToolSet, kept: &[String]) -> Vec<ClientFinding> {
    let kept: HashSet<&str> = kept.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for tool in &set.tools {
        let name = tool.name();
        let has = kept.contains(name);
        if tool.valid && !has {
            out.push(
                ClientFinding::new(TOOL_KEEP_VALID, "a valid tool is missing from tools/list")
                    .tool(name)
                    .allowed(vec!["kept".into()]),
            );
        }
        if !tool.valid && has {
            let why = tool
                .reason
                .as_ref()
                .and_then(|r| serde_json::to_string(r).ok())
                .unwrap_or_default();
            out.push(
                ClientFinding::new(
                    TOOL_EXCLUDE,
                    format!("an invalid tool was kept in tools/list ({why})"),
                )
                .tool(name)
                .allowed(vec!["excluded".into()]),
            );
        }
    }
    out
}
