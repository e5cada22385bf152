//! The fixture surface: what the reference server (and its mutants) declare. Rich enough
//! that every rule of the oracle can be exercised: a plain tool, a tool with `x-mcp-header`
//! on string, integer and boolean parameters (one nested through a `properties` chain), a
//! tool without parameters, a streaming tool, a text resource, a binary resource
//! (RES-BINARY), a resource template (whose instance [`SENTINEL_URI`] needs the sentinel in
//! `Mcp-Name`) and a prompt (whose messages carry an image and an embedded resource:
//! PROMPTS-MEDIA-B64, PROMPTS-EMBEDDED).
//!
//! Every tool name keeps to the characters server/tools.mdx § Tool Names allows
//! (TOOLS-NAMES): the reference publishes conformant tools. The non-ASCII `Mcp-Name` the
//! sentinel rules need is carried by a `resources/read` of a template instance instead of
//! a tool name (DEVIATIONS.md D-130); the client tool generator (`props/src/toolgen/`)
//! keeps its non-ASCII names.

use crate::case::MODERN_VERSION;
use crate::rules::{self, RuleId};
use crate::surface::{Capabilities, Surface, ToolDecl};
use serde_json::json;

pub const PLAIN_TOOL: &str = "get_weather";
pub const HEADER_TOOL: &str = "execute_sql";
/// A tool without parameters.
pub const MENU_TOOL: &str = "cafe_menu";
/// The former name of [`MENU_TOOL`] (`café_menu` until TOOLS-NAMES was judged), kept so code
/// written against it still builds; its name needs no sentinel any more: use
/// [`SENTINEL_URI`] for a non-ASCII `Mcp-Name`.
pub const SENTINEL_TOOL: &str = MENU_TOOL;
pub const STREAM_TOOL: &str = "slow_count";
pub const RESOURCE: &str = "file:///projects/myapp/config.json";
/// A resource read as binary contents (a `blob`).
pub const BINARY_RESOURCE: &str = "file:///projects/myapp/logo.png";
/// The bytes of [`BINARY_RESOURCE`] in Base64: a 1x1 PNG.
pub const LOGO_PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
pub const TEMPLATE: &str = "file:///logs/{day}.log";
/// An instance of [`TEMPLATE`] with a non-ASCII name: `resources/read` mirrors it into
/// `Mcp-Name`, which then needs the Base64 sentinel.
pub const SENTINEL_URI: &str = "file:///logs/café.log";
pub const PROMPT: &str = "code_review";

/// The fixture tools, in `tools/list` order.
pub fn tools() -> Vec<ToolDecl> {
    vec![
        ToolDecl::new(
            PLAIN_TOOL,
            json!({
                "type": "object",
                "properties": {"location": {"type": "string"}},
                "required": ["location"]
            }),
            true,
        ),
        ToolDecl::new(
            HEADER_TOOL,
            json!({
                "type": "object",
                "properties": {
                    "region": {"type": "string", "x-mcp-header": "Region"},
                    "count": {"type": "integer", "x-mcp-header": "Count"},
                    "flag": {"type": "boolean", "x-mcp-header": "Flag"},
                    "opt": {"type": "string", "x-mcp-header": "Opt"},
                    "target": {
                        "type": "object",
                        "properties": {
                            "region": {"type": "string", "x-mcp-header": "TargetRegion"}
                        }
                    },
                    "query": {"type": "string"}
                },
                "required": ["region", "query"]
            }),
            true,
        )
        // it echoes its arguments as structured content (TOOLS-OUTPUT-CONFORM)
        .with_output_schema(json!({
            "type": "object",
            "properties": {"arguments": {"type": "object"}},
            "required": ["arguments"]
        })),
        ToolDecl::new(MENU_TOOL, json!({"type": "object", "properties": {}}), true),
        ToolDecl::new(
            STREAM_TOOL,
            json!({
                "type": "object",
                "properties": {"to": {"type": "integer", "minimum": 1, "maximum": 5}}
            }),
            true,
        ),
    ]
}

/// The fixture surface as the oracle sees it.
pub fn surface() -> Surface {
    Surface {
        endpoint: "/mcp".to_string(),
        supported_versions: vec![MODERN_VERSION.to_string()],
        capabilities: Capabilities {
            tools: true,
            resources: true,
            prompts: true,
            completions: true,
            logging: false,
            extensions: false,
        },
        tools: tools(),
        resources: vec![RESOURCE.to_string(), BINARY_RESOURCE.to_string()],
        resource_templates: vec![TEMPLATE.to_string()],
        prompts: vec![PROMPT.to_string()],
        allowed_origins: Vec::new(),
        legacy_era: false,
        protected: false,
        pagination: Default::default(),
        // it answers completion/complete for its prompt and template
        completes: true,
    }
}

/// The identifier of the extension [`extension_surface`] advertises (a prefixed `_meta` key
/// name, VER-EXT-IDS).
pub const FIXTURE_EXTENSION: &str = "dev.mcpdiff/fixture";

/// The fixture surface advertising one extension ([`FIXTURE_EXTENSION`]): the surface the
/// VER-EXT-FALLBACK probe is judged against (on [`surface`], which advertises none, the
/// rule does not apply, and BASE-RESULTTYPE-SET is judged instead; D-164, D-183).
pub fn extension_surface() -> Surface {
    with_extension(&surface())
}

/// `s` advertising one extension (the surface VER-EXT-FALLBACK binds, D-183).
fn with_extension(s: &Surface) -> Surface {
    let mut on = s.clone();
    on.capabilities.extensions = true;
    on
}

/// `s` serving no resources: no `resources` capability, none listed, no template (the
/// surface TOOLS-EMBEDDED-RESCAP binds, D-129; what discovery finds on the
/// `embedded-without-resources` mutant).
pub fn without_resources(s: &Surface) -> Surface {
    let mut on = s.clone();
    on.capabilities.resources = false;
    on.resources.clear();
    on.resource_templates.clear();
    on
}

/// `s` declaring the `logging` capability (the surface LOG-LEVEL-THRESHOLD binds, D-198; what
/// discovery finds on the `log-below-level` mutant).
pub fn with_logging(s: &Surface) -> Surface {
    let mut on = s.clone();
    on.capabilities.logging = true;
    on
}

/// Makes a surface into the target a rule binds.
type MakeSurface = fn(&Surface) -> Surface;

/// The rules that bind only a target the fixture is not, each with how [`surface_for`] makes
/// a surface into one (VER-EXT-FALLBACK: advertising an extension, D-183;
/// TOOLS-EMBEDDED-RESCAP: declaring no resources, D-129; LOG-LEVEL-THRESHOLD: declaring
/// `logging`, D-198).
const OWN_SURFACES: [(RuleId, MakeSurface); 3] = [
    (rules::VER_EXT_FALLBACK, with_extension),
    (rules::TOOLS_EMBEDDED_RESCAP, without_resources),
    (rules::LOG_LEVEL_THRESHOLD, with_logging),
];

/// The rules judged on a surface of their own ([`surface_for`]).
pub fn own_surface_rules() -> impl Iterator<Item = RuleId> {
    OWN_SURFACES.iter().map(|(rule, _)| *rule)
}

/// The surface a probe (or a generated case) of `rule` is judged on: `s` made into the target
/// the rule binds, for a rule of [`own_surface_rules`]; any other rule `s` itself.
pub fn surface_for(rule: RuleId, s: &Surface) -> Surface {
    match OWN_SURFACES.iter().find(|(r, _)| *r == rule) {
        Some((_, make)) => make(s),
        None => s.clone(),
    }
}

/// The fixture surface served two items a page (`serve --page-size 2`): `tools/list` in two
/// pages, the other lists whole (`crate::pages`).
pub fn paged_surface() -> Surface {
    crate::pages::with_page_size(surface(), PAGE_SIZE)
}

/// The page size of [`paged_surface`].
pub const PAGE_SIZE: usize = 2;
