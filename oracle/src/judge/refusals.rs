//! The refusals of a declared method's bad requests that are rare on the judge's path (an
//! unknown tool, a resource that does not exist, a bad completion request): each records
//! its defect with the answer the spec names. Out of line and cold, so the common path's
//! instruction cache lines stay free of them (docs/PERFORMANCE.md).

use super::answers::mismatch_answer;
use super::findings::Findings;
use super::methods::{invalid, invalid_params, version_ok};
use super::view::{CompletionView, HeaderView, RequestBody};
use crate::message::Message;
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use crate::verdict::Answer;

/// «Servers SHOULD return standard JSON-RPC errors for common failure cases: … - Invalid
/// prompt name: `-32602` (Invalid params) - Missing required arguments: `-32602`»
/// (completion.mdx § Error Handling; COMPL-ERRORS, D-191): a `ref/prompt` naming no prompt
/// the target lists, or a request without the `ref` and `argument` the schema requires, is
/// refused with -32602.
#[cold]
#[inline(never)]
pub(super) fn completion_errors(
    c: &CompletionView,
    surface: &Surface,
    req: &RequestBody<'_>,
    f: &mut Findings,
) {
    if !version_ok(f) {
        return;
    }
    let unknown_prompt = c.prompt_ref
        && c.prompt
            .as_deref()
            .is_none_or(|p| !surface.prompts.iter().any(|x| x == p));
    let why = if unknown_prompt {
        "Invalid params: unknown prompt"
    } else if !c.required_present {
        "Invalid params: ref and argument are required"
    } else {
        return;
    };
    f.defect_lazy(
        rules::COMPL_ERRORS,
        rules::COMPL_ERRORS,
        7,
        invalid_params(),
        || invalid(&req.id, Message::Fixed(why)),
    );
}

/// A `resources/read` of a resource that does not exist, refused at all under `reject`:
/// -32602 (RES-NOTFOUND-32602), and an empty `contents` left to the sentence that names it
/// (RES-NO-EMPTY-CONTENTS, a lint; D-124).
#[cold]
#[inline(never)]
pub(super) fn missing_resource(reject: RuleId, req: &RequestBody<'_>, uri: &str, f: &mut Findings) {
    f.defect_lazy(reject, rules::RES_NOTFOUND, 7, invalid_params(), || {
        invalid(
            &req.id,
            Message::texts(&["Resource not found: ", ""], &[uri]),
        )
    });
    if let Some(d) = f.defects.last_mut() {
        d.answers.push(Answer::EmptyContents);
    }
}

/// A `tools/call` of a tool the surface does not declare.
#[cold]
#[inline(never)]
pub(super) fn unknown_tool(
    h: &HeaderView<'_>,
    req: &RequestBody<'_>,
    name: &str,
    f: &mut Findings,
) {
    f.defect_lazy(
        rules::TOOLS_UNKNOWN,
        rules::TOOLS_UNKNOWN,
        7,
        invalid_params(),
        || invalid(&req.id, Message::texts(&["Unknown tool: ", ""], &[name])),
    );
    // an unknown tool has no recognized Mcp-Param headers (P-LOGIC, AMB-14)
    if h.any_param() {
        f.tolerate(mismatch_answer());
    }
}
