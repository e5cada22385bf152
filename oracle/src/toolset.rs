//! A tool set file (`mcpdiff-toolset/1`): generated tool definitions, each labelled by the
//! oracle's annotation rules, with the call arguments to try on it.
//!
//! One file feeds both directions (servers and clients): the reference server and the bundled SDK
//! servers load it at start (each tool answers with its arguments), and mcpdiff serves it to
//! client-SDK drivers, which list the tools and call each with its `calls`. The label is the
//! oracle's, computed here from the schema ([`label`]); it is stored in the file only so a
//! reader (a person, a driver written in another language) need not re-derive it. Loading
//! re-labels and refuses a file whose stored label disagrees, so a stale file cannot lie.
//!
//! Pure: parsing and rendering strings, no files (the CLI reads and writes them).

mod published;

pub use published::{InvalidPublished, PublishedCheck, Relabelled};

use crate::annotations::{tool_header_params, AnnotationError, HeaderParam};
use crate::surface::{Surface, ToolDecl};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `format` value of every tool set file.
pub const FORMAT: &str = "mcpdiff-toolset/1";

/// A set of generated tools.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSet {
    pub format: String,
    /// The generator seed, when the set was generated (absent for hand-written sets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub tools: Vec<GeneratedTool>,
}

/// One tool: its MCP `Tool` object, the oracle's label, and the arguments to call it with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneratedTool {
    /// The `Tool` object as `tools/list` publishes it: at least `name` and `inputSchema`.
    pub definition: Value,
    /// Whether the annotations are valid (a client MUST exclude the tool when not).
    pub valid: bool,
    /// Why the tool is invalid (absent when valid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<AnnotationError>,
    /// What the generator meant to plant, in words (for the report; not judged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Argument objects to call the tool with; `None` sends no `arguments` member at all.
    #[serde(default)]
    pub calls: Vec<ToolCall>,
}

/// One call of a tool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The `arguments` member; absent means the call omits it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// What the arguments exercise, in words (e.g. "integer above 2^53").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl GeneratedTool {
    /// The tool's name (`definition.name`), or "" when the definition has none.
    pub fn name(&self) -> &str {
        self.definition
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// The tool's `inputSchema` (JSON null when missing).
    pub fn input_schema(&self) -> &Value {
        self.definition.get("inputSchema").unwrap_or(&Value::Null)
    }

    /// A tool labelled by the oracle.
    pub fn labelled(definition: Value, calls: Vec<ToolCall>, note: Option<String>) -> Self {
        let reason = label(definition.get("inputSchema").unwrap_or(&Value::Null)).err();
        GeneratedTool {
            definition,
            valid: reason.is_none(),
            reason,
            note,
            calls,
        }
    }
}

/// The oracle's label of a tool's `inputSchema`: its valid header parameters, or the first
/// annotation constraint it breaks (streamable-http.mdx § Schema Extension).
pub fn label(input_schema: &Value) -> Result<Vec<HeaderParam>, AnnotationError> {
    tool_header_params(input_schema)
}

/// Why a tool set file was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolSetError {
    /// Not JSON, or not the shape of a tool set.
    Parse(String),
    /// `format` is not [`FORMAT`].
    Format(String),
    /// A tool's stored label disagrees with the oracle's.
    StaleLabel { tool: String },
    /// Two tools share a name (a server cannot publish both).
    DuplicateName(String),
}

impl std::fmt::Display for ToolSetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolSetError::Parse(e) => write!(f, "not a tool set file: {e}"),
            ToolSetError::Format(v) => write!(f, "format is {v:?}, expected {FORMAT:?}"),
            ToolSetError::StaleLabel { tool } => write!(
                f,
                "tool {tool:?}: the stored valid/reason disagrees with the oracle (regenerate the file)"
            ),
            ToolSetError::DuplicateName(n) => write!(f, "two tools are named {n:?}"),
        }
    }
}

impl std::error::Error for ToolSetError {}

impl ToolSet {
    /// A tool set of already labelled tools.
    pub fn new(seed: Option<u64>, tools: Vec<GeneratedTool>) -> ToolSet {
        ToolSet {
            format: FORMAT.to_string(),
            seed,
            tools,
        }
    }

    /// Parse a tool set file, re-labelling every tool and refusing stale labels.
    pub fn from_json(text: &str) -> Result<ToolSet, ToolSetError> {
        let set: ToolSet =
            serde_json::from_str(text).map_err(|e| ToolSetError::Parse(e.to_string()))?;
        if set.format != FORMAT {
            return Err(ToolSetError::Format(set.format));
        }
        let mut names = std::collections::HashSet::new();
        for tool in &set.tools {
            let reason = label(tool.input_schema()).err();
            if tool.valid != reason.is_none() || tool.reason != reason {
                return Err(ToolSetError::StaleLabel {
                    tool: tool.name().to_string(),
                });
            }
            if !names.insert(tool.name().to_string()) {
                return Err(ToolSetError::DuplicateName(tool.name().to_string()));
            }
        }
        Ok(set)
    }

    /// The file text (pretty JSON, one trailing newline).
    pub fn to_json(&self) -> String {
        // Serializing plain data (Values, strings, bools) into a String cannot fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The valid tools only: what a conforming client keeps from `tools/list`.
    pub fn valid_tools(&self) -> impl Iterator<Item = &GeneratedTool> {
        self.tools.iter().filter(|t| t.valid)
    }

    /// `base` with every tool of the set declared after its own tools, invalid ones too (the
    /// client matrix's recording server publishes them to test clients; a judged server
    /// keeps the publishable ones only, `annotations::publishable`, D-37). A name already in
    /// `base` is refused.
    pub fn extend_surface(&self, mut base: Surface) -> Result<Surface, ToolSetError> {
        for tool in &self.tools {
            if base.tool(tool.name()).is_some() {
                return Err(ToolSetError::DuplicateName(tool.name().to_string()));
            }
            base.tools.push(ToolDecl::new(
                tool.name(),
                tool.input_schema().clone(),
                true,
            ));
        }
        Ok(base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, header: &str) -> GeneratedTool {
        GeneratedTool::labelled(
            json!({"name": name, "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": header}}}}),
            vec![ToolCall {
                arguments: Some(json!({"region": "us-west1"})),
                note: None,
            }],
            None,
        )
    }

    #[test]
    fn labels_follow_the_annotation_rules() {
        assert!(tool("ok", "Region").valid);
        let bad = tool("bad", "Re gion");
        assert!(!bad.valid);
        assert!(matches!(
            bad.reason,
            Some(AnnotationError::NotAToken { .. })
        ));
    }

    #[test]
    fn round_trips_and_refuses_stale_labels() {
        let set = ToolSet::new(Some(7), vec![tool("a", "Region"), tool("b", "")]);
        let back = ToolSet::from_json(&set.to_json()).expect("own output parses");
        assert_eq!(back, set);
        assert_eq!(back.valid_tools().count(), 1);

        let mut stale = set.clone();
        stale.tools[1].valid = true;
        stale.tools[1].reason = None;
        assert_eq!(
            ToolSet::from_json(&stale.to_json()),
            Err(ToolSetError::StaleLabel { tool: "b".into() })
        );
    }

    #[test]
    fn refuses_duplicates_and_foreign_formats() {
        let set = ToolSet::new(None, vec![tool("a", "X"), tool("a", "Y")]);
        assert_eq!(
            ToolSet::from_json(&set.to_json()),
            Err(ToolSetError::DuplicateName("a".into()))
        );
        let text = set.to_json().replace(FORMAT, "other/1");
        assert!(matches!(
            ToolSet::from_json(&text),
            Err(ToolSetError::Format(_))
        ));
    }
}
