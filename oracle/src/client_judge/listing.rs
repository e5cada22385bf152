//! Which tools a client kept from `tools/list` (CLIENT-TOOL-EXCLUDE, CLIENT-TOOL-KEEP-VALID).

use super::ClientFinding;
use crate::annotations::has_annotation_lookalike;
use crate::rules::client::{TOOL_EXCLUDE, TOOL_KEEP_VALID};
use crate::toolset::{label, ToolSet};
use serde_json::Value;
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
        // an `x-mcp-header` key in instance data may be read as an annotation (D-49)
        if tool.valid && !has && !has_annotation_lookalike(tool.input_schema()) {
            out.push(
                ClientFinding::new(TOOL_KEEP_VALID, "a valid tool is missing from tools/list")
                    .tool(name)
                    .allowed(vec!["kept".into()]),
            );
        }
        if !tool.valid && has && !only_integer_bounds(tool.input_schema()) {
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

/// Whether the tool's only defect is an integer bound outside the JavaScript safe range: the
/// oracle's label reads "Integer values MUST be within the safe range" as a constraint on
/// the schema (AMB-36), a client may read it as one on values; both are accepted (D-45).
fn only_integer_bounds(schema: &Value) -> bool {
    label(&without_integer_bounds(schema)).is_ok()
}

fn without_integer_bounds(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let integer = m.get("type").and_then(Value::as_str) == Some("integer");
            Value::Object(
                m.iter()
                    .filter(|(k, _)| {
                        !integer
                            || !matches!(
                                k.as_str(),
                                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
                            )
                    })
                    .map(|(k, x)| (k.clone(), without_integer_bounds(x)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(without_integer_bounds).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolset::GeneratedTool;
    use serde_json::json;

    fn set(props: Value) -> ToolSet {
        let def = json!({"name": "t", "inputSchema": {"type": "object", "properties": props}});
        ToolSet::new(None, vec![GeneratedTool::labelled(def, vec![], None)])
    }

    #[test]
    fn unsafe_bounds_alone_may_be_kept_or_dropped() {
        let s = set(
            json!({"n": {"type": "integer", "minimum": -9007199254740992_i64, "x-mcp-header": "N"}}),
        );
        assert!(!s.tools[0].valid);
        assert!(judge_kept(&s, &["t".into()]).is_empty());
        assert!(judge_kept(&s, &[]).is_empty());
        // with a second defect, keeping it is a finding
        let s = set(json!({
            "n": {"type": "integer", "minimum": -9007199254740992_i64, "x-mcp-header": "N"},
            "m": {"type": "number", "x-mcp-header": "M"}}));
        assert_eq!(judge_kept(&s, &["t".into()]).len(), 1);
    }
}
