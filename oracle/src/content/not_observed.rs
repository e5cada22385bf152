//! Why a content rule was not observed on a target: what it reads is something the target
//! does not publish (from its surface), or something no answer carried (a blob, an image,
//! an embedded resource: `ContentCheck::observed`). The report's "not observed" reason.

use crate::rules::{self, RuleId};
use crate::surface::Surface;

/// Why a content rule was not observed on `surface`, when what it reads is something the
/// target does not publish (the report's "not observed" reason); `None` for any other rule
/// or when the surface has it.
pub fn why_not_observed(rule: RuleId, surface: &Surface) -> Option<&'static str> {
    let caps = surface.capabilities;
    let structured = surface.tools.iter().any(|t| t.output_schema.is_some());
    let resources = !surface.resources.is_empty() || !surface.resource_templates.is_empty();
    let reason = [
        (
            rules::TOOLS_OUTPUT_CONFORM,
            !structured,
            "the target declares no tool with an outputSchema",
        ),
        (
            rules::TOOLS_STRUCTURED_TEXT,
            !structured,
            "the target declares no tool with an outputSchema",
        ),
        (
            rules::TOOLS_CAP_DECLARE,
            surface.tools.is_empty(),
            "the target lists no tools",
        ),
        (
            rules::TOOLS_INPUTSCHEMA_VALID,
            surface.tools.is_empty(),
            "the target lists no tools",
        ),
        (
            rules::RES_CAP_DECLARE,
            !resources,
            "the target lists no resources or resource templates",
        ),
        (
            rules::RES_URI_RFC3986,
            surface.resources.is_empty(),
            "the target lists no resources",
        ),
        (
            rules::PROMPTS_CAP_DECLARE,
            surface.prompts.is_empty(),
            "the target lists no prompts",
        ),
        (
            rules::TOOLS_LIST_RESPOND,
            !caps.tools,
            "the target does not advertise tools",
        ),
        (
            rules::TOOLS_ORDER,
            !caps.tools || surface.tools.len() < 2,
            "the target does not advertise tools, or lists fewer than two",
        ),
        (
            rules::RES_LIST_RESPOND,
            !caps.resources,
            "the target does not advertise resources",
        ),
        (
            rules::PROMPTS_LIST_RESPOND,
            !caps.prompts,
            "the target does not advertise prompts",
        ),
        // H2: what the results carry (observed only when an answer carries it)
        (
            rules::TOOLS_VALIDATE_INPUTS,
            surface.tools.is_empty(),
            "the target lists no tools",
        ),
        (
            rules::TOOLS_VALIDATE_INPUTS,
            true,
            "no call with arguments breaking an inputSchema was served",
        ),
        (
            rules::TOOLS_NAMES,
            surface.tools.is_empty(),
            "the target lists no tools",
        ),
        (
            rules::RES_NO_EMPTY_CONTENTS,
            !caps.resources,
            "the target does not advertise resources",
        ),
        (
            rules::RES_TRAVERSAL,
            !crate::traversal::serves_files(surface),
            "the target lists no file:// resource or resource template",
        ),
        (
            rules::RES_BINARY,
            true,
            "no resources/read answer carried binary (blob) contents",
        ),
        (
            rules::PROMPTS_MEDIA_B64,
            true,
            "no prompts/get answer carried an image",
        ),
        (
            rules::PROMPTS_EMBEDDED,
            true,
            "no prompts/get answer carried an embedded resource",
        ),
        // binds only a target that declares no `resources` capability (D-129)
        (
            rules::TOOLS_EMBEDDED_RESCAP,
            caps.resources,
            "the target declares the resources capability, which the rule asks of a server \
             that embeds resources",
        ),
        (
            rules::TOOLS_EMBEDDED_RESCAP,
            surface.tools.is_empty(),
            "the target lists no tools",
        ),
        (
            rules::TOOLS_EMBEDDED_RESCAP,
            true,
            "no tools/call answer carried an embedded resource",
        ),
        // the SHOULD sweep: what the rule's carrier needs from the target
        (
            rules::COMPL_ERRORS,
            !caps.completions,
            "the target does not advertise completions",
        ),
        (
            rules::SCHEMA_2020_12,
            surface.tools.is_empty(),
            "the target lists no tools",
        ),
        // H3: pagination, completion, logging (D-141..D-144)
        (
            rules::PAGE_STABLE,
            surface.pagination.lists.is_empty(),
            "discovery was given no nextCursor: the target lists everything on one page",
        ),
        (
            rules::CACHE_SCOPE_PAGES,
            surface.pagination.lists.iter().all(|l| l.scope.is_none()),
            "discovery saw no paginated list whose first page carried a cacheScope",
        ),
        (
            rules::COMPL_CAP_DECLARE,
            !surface.completes,
            "discovery's completion/complete was not answered with a result (or the target \
             lists no prompt argument or resource template to complete)",
        ),
        (
            rules::LOG_CAP_DECLARE,
            caps.logging,
            "the target declares the logging capability",
        ),
        (
            rules::LOG_CAP_DECLARE,
            true,
            "no answer to a request that set a log level was a stream",
        ),
        // binds only a target that declares `logging` (D-198)
        (
            rules::LOG_LEVEL_THRESHOLD,
            !caps.logging,
            "the target does not declare the logging capability, so any log message it sends \
             is LOG-CAP-DECLARE's",
        ),
        (
            rules::LOG_LEVEL_THRESHOLD,
            true,
            "no answer to a request that set a log level carried a log message before its \
             response",
        ),
    ];
    reason
        .into_iter()
        .find(|(r, missing, _)| *r == rule && *missing)
        .map(|(_, _, why)| why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completion_rule_needs_the_capability() {
        let mut s = crate::fixture::surface();
        assert_eq!(why_not_observed(rules::COMPL_ERRORS, &s), None);
        s.capabilities.completions = false;
        assert_eq!(
            why_not_observed(rules::COMPL_ERRORS, &s),
            Some("the target does not advertise completions")
        );
    }
}
