//! A retry's `inputResponses` on the three requests that take one (`tools/call`,
//! `resources/read`, `prompts/get`; basic/patterns/mrtr.mdx § Error Handling): one that is
//! no `InputResponses` object is refused (MRTR-VALIDATE-INPUTS, D-192), and entries no
//! `InputRequests` of this exchange asked for are a benign input, to be ignored
//! (MRTR-IGNORE-EXTRA, D-193).

use super::findings::Findings;
use super::view::{InputResponsesView, RequestBody};
use crate::message::Message;
use crate::rules;
use crate::verdict::{Answer, Canonical};

/// Record what `inputResponses` asks of the answer; `version_ok` when the defects found so far
/// leave the version supported.
#[cold]
#[inline(never)]
pub(crate) fn check(
    responses: InputResponsesView,
    req: &RequestBody<'_>,
    version_ok: bool,
    f: &mut Findings,
) {
    match responses {
        InputResponsesView::NotObject if version_ok => {
            // «Servers SHOULD validate that the data provided by the client is a valid
            // `InputResponses` object … Protocol errors (malformed JSON, invalid schema,
            // internal server errors) SHOULD return a JSON-RPC error response with an
            // appropriate error code and message»: any refusal; no code is fixed
            f.defect_lazy(
                rules::MRTR_VALIDATE_INPUTS,
                rules::MRTR_VALIDATE_INPUTS,
                7,
                Answer::AnyError,
                || Canonical::Reject {
                    status: 200,
                    code: Some(-32602),
                    id: Some(req.id.clone()),
                    data: None,
                    message: Message::Fixed("Invalid params: inputResponses must be an object"),
                },
            );
        }
        // «If additional, unexpected parameters are provided in the `InputResponses` object,
        // the server SHOULD ignore any information it does not recognize or need»
        InputResponsesView::Entries => f.benign(rules::MRTR_IGNORE_EXTRA),
        _ => {}
    }
}
