//! `Surface`: what a target declares, learned by a conformant discovery pass.
//!
//! The oracle needs it to know which methods exist, which `Mcp-Param-*` headers a
//! `tools/call` must carry, which names are known, and which versions are supported. A rule
//! whose stimulus needs something the surface lacks (no annotated tool, no prompt) is simply
//! never triggered: "not observed", never a pass and never a failure.

use crate::annotations::{lookalike_beside, tool_header_params, AnnotationError, HeaderParam};
use crate::encoding::field_words::same_bytes;
use crate::input_check::InputCheck;
use crate::pages::Pagination;
use crate::shared_schema::SharedSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One declared tool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolDecl {
    pub name: String,
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// `annotations.readOnlyHint`, used by the runner's safety gate for real endpoints.
    #[serde(default)]
    pub read_only: bool,
    /// The tool's valid `x-mcp-header` parameters, or why its annotations are invalid.
    /// Derived from `input_schema` by [`ToolDecl::new`]; not serialized.
    #[serde(skip, default = "no_params")]
    pub header_params: Result<Vec<HeaderParam>, AnnotationError>,
    /// Valid, but an `x-mcp-header` key sits in instance data: a server may read the tool as
    /// invalid (D-49). Derived like `header_params`; not serialized.
    #[serde(skip)]
    pub annotation_lookalike: bool,
    /// `input_schema` compiled for the judge's reading of its calls' arguments. Derived like
    /// `header_params`; not serialized (a tool read back from JSON has none, and its calls'
    /// arguments are read through a tree).
    #[serde(skip)]
    pub input_check: InputCheck,
    /// `outputSchema`, when the tool declares one (TOOLS-OUTPUT-CONFORM judges its calls).
    #[serde(
        rename = "outputSchema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<SharedSchema>,
}

fn no_params() -> Result<Vec<HeaderParam>, AnnotationError> {
    Ok(Vec::new())
}

impl ToolDecl {
    /// A tool with its annotations analysed once, up front (the judge runs per case).
    pub fn new(name: impl Into<String>, input_schema: Value, read_only: bool) -> ToolDecl {
        let header_params = tool_header_params(&input_schema);
        let annotation_lookalike = header_params
            .as_ref()
            .is_ok_and(|p| lookalike_beside(&input_schema, p));
        ToolDecl {
            name: name.into(),
            input_check: InputCheck::of(&input_schema),
            input_schema,
            read_only,
            header_params,
            annotation_lookalike,
            output_schema: None,
        }
    }

    /// The tool with `outputSchema` `schema` (a JSON object; anything else is no schema).
    pub fn with_output_schema(mut self, schema: Value) -> ToolDecl {
        self.output_schema = schema
            .is_object()
            .then(|| SharedSchema(std::sync::Arc::new(schema)));
        self
    }
}

/// Capabilities a target advertised in `server/discover`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    pub tools: bool,
    pub resources: bool,
    pub prompts: bool,
    pub completions: bool,
    pub logging: bool,
    /// `capabilities.extensions` names at least one extension: a `resultType` outside the
    /// core set may be one of its values (BASE-RESULTTYPE-SET, D-164).
    #[serde(default)]
    pub extensions: bool,
}

/// Everything the oracle knows about one target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Surface {
    /// The MCP endpoint path, e.g. `/mcp`.
    pub endpoint: String,
    /// Versions from `server/discover.supportedVersions`.
    pub supported_versions: Vec<String>,
    pub capabilities: Capabilities,
    pub tools: Vec<ToolDecl>,
    /// Concrete resource URIs from `resources/list`.
    pub resources: Vec<String>,
    /// URI templates from `resources/templates/list`.
    pub resource_templates: Vec<String>,
    /// Prompt names from `prompts/list`.
    pub prompts: Vec<String>,
    /// Origins (scheme://host[:port]) the target must accept besides its own loopback origin.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
    /// The target also answers the legacy `initialize` handshake (seen by a probe), even if
    /// `supportedVersions` lists only modern versions: it is dual-era.
    #[serde(default)]
    pub legacy_era: bool,
    /// The target is an OAuth protected resource: discovery without credentials met a 401
    /// challenge, or the run was given an `Authorization` header. The `AUTH-*` rules are
    /// judged only then (`crate::auth`).
    #[serde(default)]
    pub protected: bool,
    /// The paginated lists discovery followed (their cursors, their first page's
    /// `cacheScope`), and the reference's page size (`crate::pages`).
    #[serde(default, skip_serializing_if = "Pagination::is_empty")]
    pub pagination: Pagination,
    /// Discovery saw `completion/complete` answered with a result: the target supports
    /// completions, whatever it declared (COMPL-CAP-DECLARE, DEVIATIONS.md D-143).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub completes: bool,
}

impl Surface {
    /// A surface that declares nothing beyond the modern version (what an unknown target
    /// looks like before discovery).
    pub fn minimal(endpoint: &str) -> Surface {
        Surface {
            endpoint: endpoint.to_string(),
            supported_versions: vec![crate::case::MODERN_VERSION.to_string()],
            capabilities: Capabilities::default(),
            tools: Vec::new(),
            resources: Vec::new(),
            resource_templates: Vec::new(),
            prompts: Vec::new(),
            allowed_origins: Vec::new(),
            legacy_era: false,
            protected: false,
            pagination: Pagination::default(),
            completes: false,
        }
    }

    pub fn tool(&self, name: &str) -> Option<&ToolDecl> {
        // (two words per name of 8 to 16 bytes, no `memcmp` call: the judge asks per call)
        self.tools
            .iter()
            .find(|t| same_bytes(t.name.as_bytes(), name.as_bytes()))
    }

    pub fn supports_version(&self, v: &str) -> bool {
        // (`same_bytes`: a version compared as words, no `memcmp` call; asked per request)
        self.supported_versions
            .iter()
            .any(|s| same_bytes(s.as_bytes(), v.as_bytes()))
    }

    /// A server that lists a version earlier than 2025-06-18 supports clients that never
    /// sent `MCP-Protocol-Version` and so MAY treat a missing header as 2025-03-26.
    pub fn supports_headerless_clients(&self) -> bool {
        // a target seen answering the legacy handshake is presumed to keep the legacy path
        // for header-less requests too (DEVIATIONS.md D-33)
        self.legacy_era
            || self
                .supported_versions
                .iter()
                .any(|v| v.as_str() < "2025-06-18")
    }

    /// Whether the target also serves a legacy (initialize-era) version.
    pub fn is_dual_era(&self) -> bool {
        self.legacy_era
            || self
                .supported_versions
                .iter()
                .any(|v| v.as_str() < crate::case::MODERN_VERSION)
    }

    /// Whether `uri` names a declared resource or matches a declared template.
    pub fn knows_resource(&self, uri: &str) -> bool {
        self.resources
            .iter()
            .any(|r| same_bytes(r.as_bytes(), uri.as_bytes()))
            || self
                .resource_templates
                .iter()
                .any(|t| template_matches(t, uri))
    }
}

/// RFC 6570 level-1 matching, enough for fixture templates like `file:///logs/{day}.log`:
/// literal parts must match, each `{var}` matches one or more characters other than `/`.
pub fn template_matches(template: &str, uri: &str) -> bool {
    // read as bytes: every delimiter is ASCII, and a literal (valid UTF-8, so starting at a
    // character) found in valid UTF-8 starts at a character too, so the byte reading makes
    // the cuts the text reading makes, without building a substring searcher per call
    let mut rest = uri.as_bytes();
    let mut parts = template.as_bytes().split(|b| *b == b'{');
    let Some(first) = parts.next() else {
        return false;
    };
    let Some(after) = rest.strip_prefix(first) else {
        return false;
    };
    rest = after;
    for part in parts {
        let Some(close) = part.iter().position(|b| *b == b'}') else {
            return false;
        };
        let literal = &part[close + 1..];
        // the variable consumes up to the next occurrence of `literal` (or to the end)
        let var_end = if literal.is_empty() {
            rest.iter().position(|b| *b == b'/').unwrap_or(rest.len())
        } else {
            match rest.windows(literal.len()).position(|w| w == literal) {
                Some(i) => i,
                None => return false,
            }
        };
        if var_end == 0 || rest[..var_end].contains(&b'/') {
            return false;
        }
        rest = &rest[var_end + literal.len()..];
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_matching() {
        assert!(template_matches(
            "file:///logs/{day}.log",
            "file:///logs/mon.log"
        ));
        assert!(!template_matches(
            "file:///logs/{day}.log",
            "file:///logs/.log"
        ));
        assert!(!template_matches(
            "file:///logs/{day}.log",
            "file:///logs/a/b.log"
        ));
        assert!(template_matches("mem://{id}", "mem://7"));
        assert!(!template_matches("mem://{id}", "other://7"));
        assert!(template_matches("a/{x}-{y}.é", "a/p-q-r.é"));
        assert!(!template_matches("a/{x}-{y}.é", "a/p-.é"));
        assert!(!template_matches("a/{x", "a/p"));
        assert!(template_matches("{x}", "é"));
        assert!(!template_matches("{x}", ""));
    }
}
