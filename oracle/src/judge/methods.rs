//! Method dispatch: which methods a 2026-07-28 server implements, what a successful answer
//! to each looks like, and the method-specific refusals (unknown method, tool, resource or
//! prompt).

use super::findings::{Answers, Findings};
use super::header_values::mismatch_answer;
use super::headers::name_source;
use super::params;
use super::view::{HeaderView, RequestBody};
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, DataRule, StatusSet};

/// Methods the revision defines for clients to send (schema.json ClientRequest).
pub const MODERN_METHODS: [&str; 10] = [
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "subscriptions/listen",
];

/// Methods of earlier revisions that 2026-07-28 removed: a modern-only server answers them
/// 404/-32601, a dual-era server may serve them (AMB-21).
pub const LEGACY_METHODS: [&str; 5] = [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

fn invalid_params() -> Answer {
    Answer::RpcError {
        status: StatusSet::ANY,
        code: -32602,
        data: DataRule::None,
    }
}

fn missing_capability() -> Answer {
    Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32021,
        data: DataRule::RequiredCapabilities,
    }
}

fn not_found(id: &RequestId) -> Canonical {
    Canonical::Reject {
        status: 404,
        code: Some(-32601),
        id: Some(id.clone()),
        data: None,
        message: Message::Fixed("Method not found"),
    }
}

fn invalid(id: &RequestId, message: Message) -> Canonical {
    Canonical::Reject {
        status: 200,
        code: Some(-32602),
        id: Some(id.clone()),
        data: None,
        message,
    }
}

/// Whether a dual-era server may serve legacy method `m` on its legacy path: "An
/// `initialize` request selects legacy semantics", while "A request carrying modern
/// per-request `_meta` is served statelessly according to this revision" (versioning.mdx),
/// so any other removed method whose `_meta` names a modern version is judged as modern
/// (DEVIATIONS.md D-36, narrowed 2026-12-03).
fn legacy_opening(m: &str, req: &RequestBody<'_>) -> bool {
    m == "initialize"
        || req
            .params
            .as_ref()
            .and_then(|p| p.version.as_deref())
            .is_none_or(|v| super::headers::LEGACY_VERSIONS.contains(&v))
}

/// Record method-level defects; return the success set and the rule that carries it.
pub(crate) fn check(
    h: &HeaderView<'_>,
    surface: &Surface,
    req: &RequestBody<'_>,
    f: &mut Findings,
) -> (Answers, RuleId) {
    let m = &*req.method;
    let caps = surface.capabilities;
    if !MODERN_METHODS.contains(&m) {
        if surface.is_dual_era() && LEGACY_METHODS.contains(&m) && legacy_opening(m, req) {
            f.anything_goes = true;
        } else {
            let answer = Answer::RpcError {
                status: StatusSet::Exact(404),
                code: -32601,
                data: DataRule::None,
            };
            f.defect_lazy(rules::METHOD_404, rules::METHOD_404, 6, answer, || {
                not_found(&req.id)
            });
        }
        return (Answers::new(), rules::METHOD_404);
    }
    let gated = match m {
        "tools/list" | "tools/call" => !caps.tools,
        "resources/list" | "resources/read" | "resources/templates/list" => !caps.resources,
        "prompts/list" | "prompts/get" => !caps.prompts,
        "completion/complete" => !caps.completions,
        _ => false,
    };
    if m != "tools/call" && h.any_param() {
        // only a tools/call has arguments to mirror: an Mcp-Param-* header elsewhere has no
        // body value to match, which D-08 / D-16 (AMB-02, AMB-14) let a server ignore or refuse
        f.tolerate(mismatch_answer());
    }
    // inline: the largest success set has three answers
    let mut success = Answers::new();
    success.push(Answer::RpcResult);
    if gated {
        // AMB-24: -32601 is preferred for an unadvertised capability; a result is tolerated
        success.push(Answer::RpcError {
            status: StatusSet::Exact(404),
            code: -32601,
            data: DataRule::None,
        });
        return (success, rules::EP_POST);
    }
    let name = name_source(m).and_then(|field| req.params.as_ref().and_then(|p| p.get_str(field)));
    let version_ok = !f.defects.iter().any(|d| {
        d.reject == rules::PV_UNSUPPORTED
            || (d.reject == rules::PV_MISMATCH
                && d.answers
                    .iter()
                    .any(|a| matches!(a, Answer::RpcError { code: -32022, .. })))
    });
    match m {
        "server/discover" => (success, rules::VER_DISCOVER),
        "tools/call" => {
            success.push(invalid_params());
            success.push(missing_capability());
            let Some(name) = name else {
                f.tolerate(invalid_params());
                return (success, rules::HDR_MN_SOURCE);
            };
            match surface.tool(name) {
                None if version_ok => {
                    f.defect_lazy(
                        rules::TOOLS_UNKNOWN,
                        rules::TOOLS_UNKNOWN,
                        7,
                        invalid_params(),
                        || invalid(&req.id, Message::parts(&["Unknown tool: ", ""], &[&name])),
                    );
                    // an unknown tool has no recognized Mcp-Param headers (P-LOGIC, AMB-14)
                    if h.any_param() {
                        f.tolerate(mismatch_answer());
                    }
                    (success, rules::HDR_MN_SOURCE)
                }
                None => (success, rules::HDR_MN_SOURCE),
                Some(tool) => {
                    let rule = params::check(h, tool, req, version_ok, f);
                    (success, rule.unwrap_or(rules::HDR_MN_SOURCE))
                }
            }
        }
        "resources/read" => {
            success.push(missing_capability());
            match name {
                Some(uri) if !surface.knows_resource(uri) && version_ok => {
                    f.defect_lazy(
                        rules::RES_NOTFOUND,
                        rules::RES_NOTFOUND,
                        7,
                        invalid_params(),
                        || {
                            invalid(
                                &req.id,
                                Message::parts(&["Resource not found: ", ""], &[&uri]),
                            )
                        },
                    );
                }
                None => f.tolerate(invalid_params()),
                _ => {}
            }
            (success, rules::HDR_MN_SOURCE)
        }
        "prompts/get" => {
            success.push(invalid_params());
            success.push(missing_capability());
            match name {
                Some(p) if !surface.prompts.iter().any(|x| x == p) && version_ok => {
                    f.defect_lazy(
                        rules::PROMPTS_ERRORS,
                        rules::PROMPTS_ERRORS,
                        7,
                        invalid_params(),
                        || invalid(&req.id, Message::parts(&["Unknown prompt: ", ""], &[&p])),
                    );
                }
                None => f.tolerate(invalid_params()),
                _ => {}
            }
            (success, rules::HDR_MN_SOURCE)
        }
        "subscriptions/listen" => {
            success.push(Answer::OpenStream);
            success.push(invalid_params());
            (success, rules::BASE_ALL_SUPPORT)
        }
        "completion/complete" => {
            success.push(invalid_params());
            (success, rules::EP_POST)
        }
        _ => {
            // list methods: a bad cursor is a (SHOULD) -32602
            success.push(invalid_params());
            (success, rules::EP_POST)
        }
    }
}
