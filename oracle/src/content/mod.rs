//! Content checks: what a server publishes and answers, read from the `result` of one
//! answer. Each check is a per-answer lint (`Lint::Content`) bound to one rule of the table
//! and chosen by the request's method (and, for the capability rules, by what discovery
//! found on the surface), so the judge decides which apply once per case and `check` reads
//! the answer's result once for all of them.
//!
//! A check reads only a JSON-RPC `result`: an error, a bare refusal or a transport failure
//! passes every one of them (the answer sets judge those). What a check needs from the
//! surface is decided when it is chosen, so the Verdict carries no surface.
//!
//! Files: `discover.rs` (the `server/discover` result), `cache.rs` (caching hints),
//! `lists.rs` (the list results, and the capabilities for what they publish), `schema.rs`
//! (structural JSON Schema validity), `output.rs` (tool results against `outputSchema`),
//! `uri.rs` (resource URIs), `order.rs` (the order of `tools/list`), `inputs.rs` (tool and
//! prompt arguments a server must validate), `published.rs` (binary data, images and
//! embedded resources), `dialect.rs` (the JSON Schema dialect of listed schemas), `not_observed.rs` (why a rule was not observed on a target), `set.rs` (a set of checks,
//! one bit each).

mod cache;
mod dialect;
mod discover;
mod inputs;
mod lists;
mod not_observed;
mod order;
mod output;
mod published;
mod schema;
mod set;
mod uri;

pub use inputs::{prompt_args_invalid, tool_inputs_invalid};
pub use not_observed::why_not_observed;
pub use set::{ContentIter, ContentSet};

pub use crate::shared_schema::SharedSchema;
pub use order::ListOrder;

/// Whether a tool result conforms to the tool's `outputSchema` (TOOLS-OUTPUT-CONFORM;
/// `Lint::OutputConforms`, which carries the schema).
pub fn output_conforms(result: &Value, schema: &SharedSchema) -> bool {
    output::conforms(result, &schema.0)
}

use crate::judge::view::Modern;
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use serde::Serialize;
use serde_json::Value;

/// One content check. The order of the variants is the order a Verdict lists them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[repr(u8)]
pub enum ContentCheck {
    /// `server/discover`: `supportedVersions` a non-empty array of strings and
    /// `capabilities` an object (DISC-SHAPE).
    DiscoverShape,
    /// `server/discover`: `_meta` names serverInfo with a string name and version
    /// (DISC-SERVERINFO; it takes BASE-SERVERINFO's place on this method).
    DiscoverServerInfo,
    /// A cacheable result with `resultType: "complete"` carries an integer `ttlMs` and a
    /// `cacheScope` of `"public"` or `"private"` (CACHE-HINTS).
    CacheHints,
    /// A numeric `ttlMs` is not negative (CACHE-TTL-NONNEG).
    CacheTtlNonNegative,
    /// `server/discover` declares `tools` (discovery found tools listed; TOOLS-CAP-DECLARE).
    ToolsDeclared,
    /// `server/discover` declares `resources` (RES-CAP-DECLARE).
    ResourcesDeclared,
    /// `server/discover` declares `prompts` (PROMPTS-CAP-DECLARE).
    PromptsDeclared,
    /// `tools/list` with `tools` declared: an array of named tools (TOOLS-LIST-RESPOND).
    ToolsListed,
    /// `resources/list` with `resources` declared: an array of resources with a URI
    /// (RES-LIST-RESPOND).
    ResourcesListed,
    /// `prompts/list` with `prompts` declared: an array of named prompts
    /// (PROMPTS-LIST-RESPOND).
    PromptsListed,
    /// Every tool `tools/list` publishes has a valid JSON Schema object as `inputSchema`
    /// (TOOLS-INPUTSCHEMA-VALID).
    ToolInputSchemas,
    /// A `tools/call` result of a tool with an `outputSchema` that carries
    /// `structuredContent` also carries it serialized in a text block
    /// (TOOLS-STRUCTURED-TEXT).
    StructuredText,
    /// Every resource `resources/list` publishes has a URI in accordance with RFC 3986
    /// unless its scheme is one the page defines (RES-URI-RFC3986).
    ResourceUris,
    /// A `tools/call` whose arguments break the tool's `inputSchema` is refused: a result is
    /// an execution error, `isError: true` (TOOLS-VALIDATE-INPUTS).
    ToolInputsRefused,
    /// Every `blob` of a `resources/read` result is Base64 (RES-BINARY).
    ResourceBlobs,
    /// Every image of a `prompts/get` result has Base64 `data` and a valid MIME type
    /// (PROMPTS-MEDIA-B64).
    PromptImages,
    /// Every resource a `prompts/get` result embeds has a valid URI, a MIME type and text or
    /// Base64 data (PROMPTS-EMBEDDED).
    PromptEmbedded,
    /// A `resources/read` of a resource that does not exist is not answered with an empty
    /// `contents` array (RES-NO-EMPTY-CONTENTS).
    NoEmptyContents,
    /// Every tool a `tools/list` result lists has a name of ASCII letters, digits, `_`, `-`
    /// and `.` only (TOOLS-NAMES).
    ToolNames,
    /// No listed tool's `inputSchema` or `outputSchema` declares, by `$schema`, a published
    /// JSON Schema dialect other than 2020-12 (BASE-SCHEMA-2020-12; D-190).
    SchemaDialect,
    /// `server/discover` declares `completions` (discovery saw `completion/complete`
    /// answered with a result; COMPL-CAP-DECLARE).
    CompletionsDeclared,
    /// A `tools/call` result of a target that declares no `resources` capability embeds no
    /// resource (TOOLS-EMBEDDED-RESCAP; D-129).
    NoEmbeddedWithoutResources,
}

impl ContentCheck {
    /// Every check, in listing order.
    pub const ALL: [ContentCheck; 22] = [
        ContentCheck::DiscoverShape,
        ContentCheck::DiscoverServerInfo,
        ContentCheck::CacheHints,
        ContentCheck::CacheTtlNonNegative,
        ContentCheck::ToolsDeclared,
        ContentCheck::ResourcesDeclared,
        ContentCheck::PromptsDeclared,
        ContentCheck::ToolsListed,
        ContentCheck::ResourcesListed,
        ContentCheck::PromptsListed,
        ContentCheck::ToolInputSchemas,
        ContentCheck::StructuredText,
        ContentCheck::ResourceUris,
        ContentCheck::ToolInputsRefused,
        ContentCheck::ResourceBlobs,
        ContentCheck::PromptImages,
        ContentCheck::PromptEmbedded,
        ContentCheck::NoEmptyContents,
        ContentCheck::ToolNames,
        ContentCheck::SchemaDialect,
        ContentCheck::CompletionsDeclared,
        ContentCheck::NoEmbeddedWithoutResources,
    ];

    /// The rule a failure of this check breaks.
    pub fn rule(self) -> RuleId {
        match self {
            ContentCheck::DiscoverShape => rules::DISC_SHAPE,
            ContentCheck::DiscoverServerInfo => rules::DISC_SERVERINFO,
            ContentCheck::CacheHints => rules::CACHE_HINTS,
            ContentCheck::CacheTtlNonNegative => rules::CACHE_TTL_NONNEG,
            ContentCheck::ToolsDeclared => rules::TOOLS_CAP_DECLARE,
            ContentCheck::ResourcesDeclared => rules::RES_CAP_DECLARE,
            ContentCheck::PromptsDeclared => rules::PROMPTS_CAP_DECLARE,
            ContentCheck::ToolsListed => rules::TOOLS_LIST_RESPOND,
            ContentCheck::ResourcesListed => rules::RES_LIST_RESPOND,
            ContentCheck::PromptsListed => rules::PROMPTS_LIST_RESPOND,
            ContentCheck::ToolInputSchemas => rules::TOOLS_INPUTSCHEMA_VALID,
            ContentCheck::StructuredText => rules::TOOLS_STRUCTURED_TEXT,
            ContentCheck::ResourceUris => rules::RES_URI_RFC3986,
            ContentCheck::ToolInputsRefused => rules::TOOLS_VALIDATE_INPUTS,
            ContentCheck::ResourceBlobs => rules::RES_BINARY,
            ContentCheck::PromptImages => rules::PROMPTS_MEDIA_B64,
            ContentCheck::PromptEmbedded => rules::PROMPTS_EMBEDDED,
            ContentCheck::NoEmptyContents => rules::RES_NO_EMPTY_CONTENTS,
            ContentCheck::ToolNames => rules::TOOLS_NAMES,
            ContentCheck::SchemaDialect => rules::SCHEMA_2020_12,
            ContentCheck::CompletionsDeclared => rules::COMPL_CAP_DECLARE,
            ContentCheck::NoEmbeddedWithoutResources => rules::TOOLS_EMBEDDED_RESCAP,
        }
    }

    /// Whether `result` (the `result` member of a JSON-RPC success) satisfies the check.
    pub fn holds(self, result: &Value) -> bool {
        match self {
            ContentCheck::DiscoverShape => discover::shape_holds(result),
            ContentCheck::DiscoverServerInfo => discover::server_info_holds(result),
            ContentCheck::CacheHints => cache::hints_hold(result),
            ContentCheck::CacheTtlNonNegative => cache::ttl_not_negative(result),
            ContentCheck::ToolsDeclared => lists::declares(result, "tools"),
            ContentCheck::ResourcesDeclared => lists::declares(result, "resources"),
            ContentCheck::PromptsDeclared => lists::declares(result, "prompts"),
            ContentCheck::ToolsListed => lists::list_holds(result, "tools", "name"),
            ContentCheck::ResourcesListed => lists::list_holds(result, "resources", "uri"),
            ContentCheck::PromptsListed => lists::list_holds(result, "prompts", "name"),
            ContentCheck::ToolInputSchemas => lists::input_schemas_hold(result),
            ContentCheck::StructuredText => output::structured_text_holds(result),
            ContentCheck::ResourceUris => uri::listed_uris_hold(result),
            ContentCheck::ToolInputsRefused => inputs::refused_holds(result),
            ContentCheck::ResourceBlobs => published::blobs_hold(result),
            ContentCheck::PromptImages => published::images_hold(result),
            ContentCheck::PromptEmbedded => published::embedded_hold(result),
            ContentCheck::NoEmptyContents => !result
                .get("contents")
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty),
            ContentCheck::ToolNames => lists::tool_names_hold(result),
            ContentCheck::SchemaDialect => dialect::dialects_hold(result),
            ContentCheck::CompletionsDeclared => lists::declares(result, "completions"),
            ContentCheck::NoEmbeddedWithoutResources => !published::tool_embeds(result),
        }
    }

    /// Whether the check speaks of something a result may not carry (`observed` can say no).
    pub fn answer_dependent(self) -> bool {
        matches!(
            self,
            ContentCheck::ResourceBlobs
                | ContentCheck::PromptImages
                | ContentCheck::PromptEmbedded
                | ContentCheck::NoEmbeddedWithoutResources
        )
    }

    /// Whether `result` carries what the check speaks of: a check about a blob, an image or
    /// an embedded resource is not observed on a result without one (neither a pass nor a
    /// failure; D-121); every other check is observed on every result.
    pub fn observed(self, result: &Value) -> bool {
        match self {
            ContentCheck::ResourceBlobs => published::observed_blobs(result),
            ContentCheck::PromptImages => published::observed_images(result),
            ContentCheck::PromptEmbedded => published::observed_embedded(result),
            // observed only where it can fail: a result that embeds a resource
            ContentCheck::NoEmbeddedWithoutResources => published::tool_embeds(result),
            _ => true,
        }
    }

    /// What the check demands, in words for reports.
    pub fn describe(self) -> &'static str {
        match self {
            ContentCheck::DiscoverShape => {
                "a discover result with supportedVersions a non-empty array of strings and \
                 capabilities an object"
            }
            ContentCheck::DiscoverServerInfo => {
                "a discover result whose _meta names serverInfo with name and version"
            }
            ContentCheck::CacheHints => {
                "a complete result carrying an integer ttlMs and cacheScope \"public\" or \
                 \"private\""
            }
            ContentCheck::CacheTtlNonNegative => "a ttlMs that is >= 0",
            ContentCheck::ToolsDeclared => {
                "a discover result declaring the tools capability (the target lists tools)"
            }
            ContentCheck::ResourcesDeclared => {
                "a discover result declaring the resources capability (the target lists \
                 resources)"
            }
            ContentCheck::PromptsDeclared => {
                "a discover result declaring the prompts capability (the target lists prompts)"
            }
            ContentCheck::ToolsListed => {
                "a tools/list result whose tools is an array of named tools"
            }
            ContentCheck::ResourcesListed => {
                "a resources/list result whose resources is an array of resources with a uri"
            }
            ContentCheck::PromptsListed => {
                "a prompts/list result whose prompts is an array of named prompts"
            }
            ContentCheck::ToolInputSchemas => {
                "every listed tool's inputSchema a valid JSON Schema object (not null)"
            }
            ContentCheck::StructuredText => {
                "a result with structuredContent also carrying it serialized in a text block"
            }
            ContentCheck::ResourceUris => {
                "every listed resource URI of a custom scheme in accordance with RFC 3986"
            }
            ContentCheck::ToolInputsRefused => {
                "a call whose arguments break the tool's inputSchema refused: an error, or a \
                 result with isError: true"
            }
            ContentCheck::ResourceBlobs => "every blob of the read contents Base64 (RFC 4648)",
            ContentCheck::PromptImages => {
                "every image of the prompt's messages with Base64 data and a valid MIME type"
            }
            ContentCheck::PromptEmbedded => {
                "every embedded resource of the prompt with a valid URI, a MIME type, and text \
                 or Base64 blob data"
            }
            ContentCheck::NoEmptyContents => {
                "no empty contents array for a resource that does not exist"
            }
            ContentCheck::ToolNames => {
                "every listed tool name of ASCII letters, digits, underscore, hyphen and dot only"
            }
            ContentCheck::SchemaDialect => {
                "no listed tool schema declaring a JSON Schema dialect other than 2020-12"
            }
            ContentCheck::CompletionsDeclared => {
                "a discover result declaring the completions capability (the target answers \
                 completion/complete)"
            }
            ContentCheck::NoEmbeddedWithoutResources => {
                "no embedded resource in a tool result of a target that does not declare the \
                 resources capability"
            }
        }
    }

    fn bit(self) -> u32 {
        1 << self as u8
    }
}

/// Whether a `tools/list` result keeps the order discovery saw (TOOLS-ORDER;
/// `Lint::ToolOrder`, which carries the fingerprints of that order).
pub fn order_holds(result: &Value, seen: ListOrder) -> bool {
    order::order_holds(result, seen)
}

/// The content checks an answer to `method` (for `tools/call`: whether the called tool
/// declares an `outputSchema`) must pass on `surface`, and whether they take
/// the place of BASE-SERVERINFO (on `server/discover`, where DISC-SERVERINFO names the same
/// omission more precisely: one omission is blamed on one sentence).
pub(crate) fn for_request(
    method: Option<Modern>,
    output_schema: bool,
    inputs_invalid: bool,
    resource_missing: bool,
    surface: &Surface,
) -> (ContentSet, bool) {
    let mut set = ContentSet::default();
    let caps = surface.capabilities;
    let mut add = |c: ContentCheck, when: bool| {
        if when {
            set.insert(c);
        }
    };
    match method {
        Some(Modern::Discover) => {
            add(ContentCheck::DiscoverShape, true);
            add(ContentCheck::DiscoverServerInfo, true);
            // "Servers that support tools MUST declare the `tools` capability": support is
            // what discovery saw listed (D-83)
            add(ContentCheck::ToolsDeclared, !surface.tools.is_empty());
            let resources = !surface.resources.is_empty() || !surface.resource_templates.is_empty();
            add(ContentCheck::ResourcesDeclared, resources);
            add(ContentCheck::PromptsDeclared, !surface.prompts.is_empty());
            // «Servers that support completions MUST declare the `completions` capability»:
            // support is discovery's completion/complete answered with a result (D-143)
            add(ContentCheck::CompletionsDeclared, surface.completes);
        }
        Some(Modern::ToolsList) => {
            add(ContentCheck::ToolsListed, caps.tools);
            add(ContentCheck::ToolInputSchemas, !surface.tools.is_empty());
            add(ContentCheck::ToolNames, !surface.tools.is_empty());
            add(ContentCheck::SchemaDialect, !surface.tools.is_empty());
        }
        Some(Modern::ResourcesList) => {
            add(ContentCheck::ResourcesListed, caps.resources);
            add(ContentCheck::ResourceUris, !surface.resources.is_empty());
        }
        Some(Modern::PromptsList) => add(ContentCheck::PromptsListed, caps.prompts),
        Some(Modern::TemplatesList) => {}
        Some(Modern::ResourcesRead) => {
            add(ContentCheck::ResourceBlobs, true);
            // the judge found the URI naming no resource the target publishes (D-124)
            add(ContentCheck::NoEmptyContents, resource_missing);
        }
        Some(Modern::PromptsGet) => {
            add(ContentCheck::PromptImages, true);
            add(ContentCheck::PromptEmbedded, true);
            // a prompt is no cacheable result
            return (set, false);
        }
        Some(Modern::ToolsCall) => {
            // only a tool that declares an outputSchema is known to return structured content
            // (the rule is not observed on the others; D-85)
            add(ContentCheck::StructuredText, output_schema);
            // the judge read the arguments against the called tool's inputSchema
            add(ContentCheck::ToolInputsRefused, inputs_invalid);
            // «Servers that use embedded resources SHOULD implement the `resources`
            // capability»: binds only a target whose discover declares none (D-129)
            add(ContentCheck::NoEmbeddedWithoutResources, !caps.resources);
            return (set, false);
        }
        _ => return (set, false),
    }
    // every method above is one whose complete results carry caching hints
    set.insert(ContentCheck::CacheHints);
    set.insert(ContentCheck::CacheTtlNonNegative);
    (set, method == Some(Modern::Discover))
}

#[cfg(test)]
mod tests;
