//! What a server did with a tool set it was asked to load: which tools its `tools/list`
//! publishes, compared with the set's labels.
//!
//! The record is descriptive. Publishing an invalid tool is judged where it is seen, on the
//! `tools/list` answer (TOOLS-XMCP-CONSTRAINTS: the constraints on `x-mcp-header` values bind
//! the server that writes them, DEVIATIONS.md D-37). A *valid* tool missing from the list, or
//! published with different annotations, is what breaks things downstream (clients then
//! mirror the wrong headers), and is flagged here.

use super::ToolSet;
use crate::annotations::{tool_header_params, AnnotationError};
use crate::surface::ToolDecl;
use serde::{Deserialize, Serialize};

/// The comparison of one target's `tools/list` with a tool set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PublishedCheck {
    /// Tools in the set.
    pub tools: usize,
    /// Valid tools published with the same annotations.
    pub valid_published: usize,
    /// Valid tools absent from `tools/list` (refused at registration, or dropped).
    pub valid_missing: Vec<String>,
    /// Invalid tools absent from `tools/list`: the server refused them.
    pub invalid_refused: Vec<String>,
    /// Invalid tools published anyway, with the oracle's reason.
    pub invalid_published: Vec<InvalidPublished>,
    /// Tools published with annotations that label differently from the file's (the SDK
    /// rewrote the schema: an annotation lost, moved or added).
    pub relabelled: Vec<Relabelled>,
    /// Tools published with a different `inputSchema` but the same label (normalisation).
    pub schema_rewritten: usize,
}

/// An invalid tool a server published.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InvalidPublished {
    pub tool: String,
    pub reason: AnnotationError,
}

/// A tool whose published schema labels differently from the file's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Relabelled {
    pub tool: String,
    /// The file's label in words.
    pub file: String,
    /// The published schema's label in words.
    pub published: String,
}

fn words(label: &Label) -> String {
    match label {
        Ok(params) => {
            let headers: Vec<&str> = params.iter().map(|p| p.header.as_str()).collect();
            format!("valid {headers:?}")
        }
        Err(e) => format!("invalid: {}", serde_json::to_string(e).unwrap_or_default()),
    }
}

fn sorted(label: Label) -> Label {
    label.map(|mut params| {
        params.sort_by(|a, b| (&a.header, &a.path).cmp(&(&b.header, &b.path)));
        params
    })
}

type Label = Result<Vec<crate::annotations::HeaderParam>, AnnotationError>;

impl PublishedCheck {
    /// Whether the server published exactly the valid tools, unchanged, and refused every
    /// invalid one (the strict answer; publishing invalid ones is also allowed).
    pub fn valid_tools_intact(&self) -> bool {
        self.valid_missing.is_empty() && self.relabelled.is_empty()
    }

    /// One line for the terminal.
    pub fn summary(&self) -> String {
        let invalid = self.invalid_refused.len() + self.invalid_published.len();
        format!(
            "tool set: {} of {} valid tools published intact, {} missing, {} relabelled; \
             invalid tools: {} refused, {} published{}",
            self.valid_published,
            self.tools - invalid,
            self.valid_missing.len(),
            self.relabelled.len(),
            self.invalid_refused.len(),
            self.invalid_published.len(),
            if self.schema_rewritten > 0 {
                format!(" ({} schemas rewritten, same label)", self.schema_rewritten)
            } else {
                String::new()
            }
        )
    }
}

impl ToolSet {
    /// Compare a target's published tools with this set.
    pub fn compare_published(&self, published: &[ToolDecl]) -> PublishedCheck {
        let mut out = PublishedCheck {
            tools: self.tools.len(),
            ..PublishedCheck::default()
        };
        for tool in &self.tools {
            let name = tool.name().to_string();
            let Some(listed) = published.iter().find(|p| p.name == name) else {
                if tool.valid {
                    out.valid_missing.push(name);
                } else {
                    out.invalid_refused.push(name);
                }
                continue;
            };
            // the order of the params follows the schema's key order, which a server may
            // change (sorted maps); only the set of (header, path, kind) matters
            let file_label = sorted(tool_header_params(tool.input_schema()));
            let listed_label = sorted(tool_header_params(&listed.input_schema));
            if file_label != listed_label {
                // an invalid tool that reappears invalid for another reason is still the
                // same verdict for clients; compare validity and, when valid, the params
                let same_validity = file_label.is_ok() == listed_label.is_ok();
                if !(same_validity && file_label.is_err()) {
                    out.relabelled.push(Relabelled {
                        tool: name,
                        file: words(&file_label),
                        published: words(&listed_label),
                    });
                    continue;
                }
            }
            if &listed.input_schema != tool.input_schema() {
                out.schema_rewritten += 1;
            }
            match &tool.reason {
                None => out.valid_published += 1,
                Some(reason) => out.invalid_published.push(InvalidPublished {
                    tool: name,
                    reason: reason.clone(),
                }),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolset::{GeneratedTool, ToolSet};
    use serde_json::{json, Value};

    fn tool(name: &str, header: &str) -> GeneratedTool {
        GeneratedTool::labelled(
            json!({"name": name, "inputSchema": {"type": "object", "properties": {
                "r": {"type": "string", "x-mcp-header": header}}}}),
            Vec::new(),
            None,
        )
    }

    fn decl(t: &GeneratedTool) -> ToolDecl {
        ToolDecl::new(t.name(), t.input_schema().clone(), false)
    }

    #[test]
    fn sorts_every_tool_into_one_bucket() {
        let set = ToolSet::new(
            None,
            vec![
                tool("ok", "R"),
                tool("gone", "G"),
                tool("bad_kept", "a b"),
                tool("bad_dropped", ""),
                tool("stripped", "S"),
            ],
        );
        let mut stripped = decl(&set.tools[4]);
        stripped.input_schema = json!({"type": "object", "properties": {"r": {"type": "string"}}});
        let published = vec![decl(&set.tools[0]), decl(&set.tools[2]), stripped];
        let c = set.compare_published(&published);
        assert_eq!(c.valid_published, 1);
        assert_eq!(c.valid_missing, vec!["gone".to_string()]);
        assert_eq!(c.invalid_refused, vec!["bad_dropped".to_string()]);
        assert_eq!(c.invalid_published.len(), 1);
        assert_eq!(c.invalid_published[0].tool, "bad_kept");
        assert_eq!(c.relabelled.len(), 1);
        assert_eq!(c.relabelled[0].tool, "stripped");
        assert!(!c.valid_tools_intact());
        assert!(
            c.summary().contains("1 of 3 valid tools published intact"),
            "{}",
            c.summary()
        );
    }

    #[test]
    fn reordered_keys_are_the_same_label() {
        let t = GeneratedTool::labelled(
            json!({"name": "two", "inputSchema": {"type": "object", "properties": {
                "b": {"type": "string", "x-mcp-header": "B"},
                "a": {"type": "string", "x-mcp-header": "A"}}}}),
            Vec::new(),
            None,
        );
        let set = ToolSet::new(None, vec![t.clone()]);
        let sorted: Value = serde_json::from_str(&t.input_schema().to_string()).expect("json");
        let mut listed = decl(&t);
        // a server with sorted maps publishes `a` first
        listed.input_schema = json!({"type": "object", "properties": {
            "a": sorted["properties"]["a"].clone(), "b": sorted["properties"]["b"].clone()}});
        let c = set.compare_published(&[listed]);
        assert!(c.valid_tools_intact(), "{c:?}");
        assert_eq!(c.valid_published, 1);
    }

    #[test]
    fn an_sdk_that_publishes_the_set_verbatim_is_intact() {
        let set = ToolSet::new(None, vec![tool("a", "A"), tool("b", "B b")]);
        let published: Vec<ToolDecl> = set.tools.iter().map(decl).collect();
        let c = set.compare_published(&published);
        assert!(c.valid_tools_intact());
        assert_eq!((c.valid_published, c.invalid_published.len()), (1, 1));
        assert_eq!(c.schema_rewritten, 0);
    }
}
