//! Method dispatch: which methods a 2026-07-28 server implements, what a successful answer
//! to each looks like, and the method-specific refusals (unknown method, tool, resource or
//! prompt).

use super::answers::mismatch_answer;
use super::findings::{Answers, Findings};
use super::params;
use super::refusals::{completion_errors, missing_resource, unknown_tool};
use super::view::{HeaderView, InputResponsesView, Modern, RequestBody};
use crate::listen_filter::FILTER_VALID;
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules::{self, RuleId};
use crate::surface::{Surface, ToolDecl};
use crate::verdict::{Answer, Canonical, DataRule, StatusSet};

/// Methods of earlier revisions that 2026-07-28 removed: a modern-only server answers them
/// 404/-32601, a dual-era server may serve them (AMB-21).
pub const LEGACY_METHODS: [&str; 5] = [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

pub(super) fn invalid_params() -> Answer {
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

pub(super) fn invalid(id: &RequestId, message: Message) -> Canonical {
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
/// (DEVIATIONS.md D-36, narrowed).
fn legacy_opening(m: &str, req: &RequestBody<'_>) -> bool {
    m == "initialize"
        || req
            .params
            .as_ref()
            .and_then(|p| p.version.as_deref())
            .is_none_or(|v| super::headers::LEGACY_VERSIONS.contains(&v))
}

/// A method no server of this revision serves (or a legacy one a modern-only server refuses).
#[cold]
#[inline(never)]
fn unknown_method(surface: &Surface, req: &RequestBody<'_>, f: &mut Findings) -> RuleId {
    let m = &*req.method;
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
    rules::METHOD_404
}

/// Whether the defects found so far leave the version supported (the method-level refusals
/// below are this revision's only when it is).
pub(super) fn version_ok(f: &Findings) -> bool {
    !f.defects.iter().any(|d| {
        d.reject == rules::PV_UNSUPPORTED
            || (d.reject == rules::PV_MISMATCH
                && d.answers
                    .iter()
                    .any(|a| matches!(a, Answer::RpcError { code: -32022, .. })))
    })
}

/// What the target publishes of what a request names, looked up once a request: the content
/// rules, the schema check and the method checks below all read it.
#[derive(Clone, Copy)]
pub(crate) struct Published<'s> {
    /// A `resources/read`'s string `uri` (`None` for any other request).
    pub uri: Option<UriLookup>,
    /// The declared tool a `tools/call` names (`None` for any other request, or an unknown
    /// or missing name).
    pub tool: Option<&'s ToolDecl>,
}

impl<'s> Published<'s> {
    pub fn of(req: &RequestBody<'_>, s: &'s Surface) -> Published<'s> {
        let tool = match req.kind {
            Some(Modern::ToolsCall) => req.params.as_ref().and_then(|p| p.name.as_deref()),
            _ => None,
        };
        Published {
            uri: UriLookup::of(req, s),
            tool: tool.and_then(|n| s.tool(n)),
        }
    }
}

/// What the target publishes of a `resources/read`'s `uri`.
#[derive(Clone, Copy)]
pub(crate) struct UriLookup {
    /// A `file://` traversal on a target that serves files (RES-TRAVERSAL).
    traversal: bool,
    /// Listed, or matching a listed template.
    known: bool,
}

impl UriLookup {
    /// The lookup of a `resources/read` with a string `uri` (`None` for any other request).
    fn of(req: &RequestBody<'_>, s: &Surface) -> Option<UriLookup> {
        if req.kind != Some(Modern::ResourcesRead) {
            return None;
        }
        let uri = req.params.as_ref().and_then(|p| p.uri.as_deref())?;
        Some(UriLookup {
            traversal: crate::traversal::is_traversal(uri) && crate::traversal::serves_files(s),
            known: s.knows_resource(uri),
        })
    }

    /// The read names a resource the target does not publish (unlisted and matching no
    /// template, or a traversal: both are refused below).
    pub fn missing(self) -> bool {
        !self.known || self.traversal
    }
}

/// Record method-level defects; fill `success` with the success set (empty before) and
/// return the rule that carries it.
pub(crate) fn check(
    h: &HeaderView<'_>,
    surface: &Surface,
    req: &RequestBody<'_>,
    published: Published<'_>,
    f: &mut Findings,
    success: &mut Answers,
) -> RuleId {
    let Some(m) = req.kind else {
        return unknown_method(surface, req, f);
    };
    let caps = surface.capabilities;
    let gated = match m {
        Modern::ToolsList | Modern::ToolsCall => !caps.tools,
        Modern::ResourcesList | Modern::ResourcesRead | Modern::TemplatesList => !caps.resources,
        Modern::PromptsList | Modern::PromptsGet => !caps.prompts,
        Modern::Complete => !caps.completions,
        Modern::Discover | Modern::Listen => false,
    };
    if m != Modern::ToolsCall && h.any_param() {
        // only a tools/call has arguments to mirror: an Mcp-Param-* header elsewhere has no
        // body value to match, which D-08 / D-16 (AMB-02, AMB-14) let a server ignore or refuse
        f.tolerate(mismatch_answer());
    }
    // inline: the largest success set has three answers
    success.push(Answer::RpcResult);
    if gated {
        // AMB-24: -32601 is preferred for an unadvertised capability; a result is tolerated
        success.push(Answer::RpcError {
            status: StatusSet::Exact(404),
            code: -32601,
            data: DataRule::None,
        });
        as_if_declared(h, surface, req, published, m, f, success);
        return rules::EP_POST;
    }
    declared(h, surface, req, published, m, f, success)
}

/// What a server that implements a method it does not advertise may answer besides a result
/// and 404/-32601 (D-21: «a server that implements the method implements it»): whatever the
/// method admits when its capability is declared, its success set and the refusals its own
/// checks would mandate or tolerate (-32602 for params its schema refuses or an unknown
/// tool, resource or prompt, a -32020 header mismatch of a tool's parameters), all tolerated
/// and none mandated: those rules bind a declared capability only.
#[cold]
#[inline(never)]
fn as_if_declared(
    h: &HeaderView<'_>,
    surface: &Surface,
    req: &RequestBody<'_>,
    published: Published<'_>,
    m: Modern,
    f: &mut Findings,
    success: &mut Answers,
) {
    let (mut as_if, mut admitted) = (Findings::default(), Answers::new());
    declared(h, surface, req, published, m, &mut as_if, &mut admitted);
    for a in &admitted {
        if !success.contains(a) {
            success.push(*a);
        }
    }
    let refusals = as_if.defects.iter().flat_map(|d| &d.answers);
    for a in refusals.chain(&as_if.tolerated) {
        f.tolerate(*a);
    }
}

/// `check` past the capability gate: the method's own checks, for a target that advertises
/// the capability (or, through `as_if_declared`, one that implements it anyway). (Inlined:
/// the common path then costs no call, as before the gate's cold branch was split out.)
#[inline(always)]
fn declared(
    h: &HeaderView<'_>,
    surface: &Surface,
    req: &RequestBody<'_>,
    published: Published<'_>,
    m: Modern,
    f: &mut Findings,
    success: &mut Answers,
) -> RuleId {
    // `params.name` or `params.uri`, as `name_source` names the member
    let params = req.params.as_ref();
    if let Some(p) = params.filter(|p| p.input_responses != InputResponsesView::Absent) {
        if matches!(
            m,
            Modern::ToolsCall | Modern::ResourcesRead | Modern::PromptsGet
        ) {
            super::mrtr::check(p.input_responses, req, version_ok(f), f);
        }
    }
    match m {
        Modern::Discover => rules::VER_DISCOVER,
        Modern::ToolsCall => {
            success.push(invalid_params());
            success.push(missing_capability());
            if call_params_malformed(params) {
                // «Malformed requests (requests that fail to satisfy CallToolRequest schema)
                // … are returned as standard JSON-RPC errors», no code fixed: each of them
                // is acceptable, beside a MUST refusal too (D-125, amended again)
                for code in PROTOCOL_ERROR_CODES {
                    f.tolerate(Answer::RpcError {
                        status: StatusSet::ANY,
                        code,
                        data: DataRule::None,
                    });
                }
            }
            let Some(name) = params.and_then(|p| p.name.as_deref()) else {
                return rules::HDR_MN_SOURCE;
            };
            match published.tool {
                Some(tool) => {
                    let version_ok = version_ok(f);
                    params::check(h, tool, req, version_ok, f).unwrap_or(rules::HDR_MN_SOURCE)
                }
                None => {
                    if version_ok(f) {
                        unknown_tool(h, req, name, f);
                    }
                    rules::HDR_MN_SOURCE
                }
            }
        }
        Modern::ResourcesRead => {
            success.push(missing_capability());
            match params.and_then(|p| p.uri.as_deref()) {
                Some(text) if published.uri.is_some_and(|u| u.traversal) && version_ok(f) => {
                    // «MUST sanitize file paths to prevent directory traversal attacks when
                    // serving `file://` resources»: a `..` path is refused at all
                    // (RES-TRAVERSAL), and as what it names, a resource that does not exist
                    // (RES-NOTFOUND-32602 shapes the refusal; D-123)
                    missing_resource(rules::RES_TRAVERSAL, req, text, f);
                }
                Some(text) if published.uri.is_some_and(|u| !u.known) && version_ok(f) => {
                    missing_resource(rules::RES_NOTFOUND, req, text, f);
                }
                None => f.tolerate(invalid_params()),
                _ => {}
            }
            rules::HDR_MN_SOURCE
        }
        Modern::PromptsGet => {
            success.push(invalid_params());
            success.push(missing_capability());
            // arguments that are not strings break `GetPromptRequestParams`, whatever the
            // prompt: schema.json's «invalid or malformed» -32602 stays acceptable beside a
            // MUST refusal, as for a tools/call without `name` (D-125, amended)
            let args_invalid = prompt_args_invalid(params);
            if args_invalid {
                f.tolerate(invalid_params());
            }
            match params.and_then(|p| p.name.as_deref()) {
                Some(p) if !surface.prompts.iter().any(|x| x == p) && version_ok(f) => {
                    f.defect_lazy(
                        rules::PROMPTS_ERRORS,
                        rules::PROMPTS_ERRORS,
                        7,
                        invalid_params(),
                        || invalid(&req.id, Message::texts(&["Unknown prompt: ", ""], &[p])),
                    );
                }
                Some(p) if args_invalid && version_ok(f) => {
                    // «Servers SHOULD validate prompt arguments before processing»: arguments
                    // that are not strings are refused; no sentence fixes the code of this
                    // refusal (PROMPTS-ERRORS names missing ones, not ill-typed ones; D-125)
                    f.defect_lazy(
                        rules::PROMPTS_VALIDATE_ARGS,
                        rules::PROMPTS_VALIDATE_ARGS,
                        7,
                        Answer::AnyError,
                        || {
                            invalid(
                                &req.id,
                                Message::texts(
                                    &["Invalid arguments for prompt ", ": values must be strings"],
                                    &[p],
                                ),
                            )
                        },
                    );
                }
                None => f.tolerate(invalid_params()),
                _ => {}
            }
            rules::HDR_MN_SOURCE
        }
        Modern::Listen => {
            success.push(Answer::OpenStream);
            success.push(invalid_params());
            // no valid `notifications` filter: the params break SubscriptionsListenRequestParams,
            // and schema.json's «invalid or malformed» -32602 stays acceptable beside a MUST
            // refusal (D-125, amended)
            if params.is_none_or(|p| p.listen_filter & FILTER_VALID == 0) {
                f.tolerate(invalid_params());
            }
            rules::BASE_ALL_SUPPORT
        }
        Modern::Complete => {
            success.push(invalid_params());
            if let Some(c) = params.and_then(|p| p.completion.as_ref()) {
                completion_errors(c, surface, req, f);
            }
            rules::EP_POST
        }
        Modern::ToolsList | Modern::ResourcesList | Modern::TemplatesList | Modern::PromptsList => {
            // list methods: a bad cursor is a (SHOULD) -32602
            success.push(invalid_params());
            rules::EP_POST
        }
    }
}

/// The standard JSON-RPC 2.0 codes a request that was read as JSON can be refused with
/// («MCP uses the standard JSON-RPC 2.0 error codes (`-32700`, `-32600` to `-32603`) for
/// general protocol failures», basic/index.mdx; -32700 is for text that is no JSON).
const PROTOCOL_ERROR_CODES: [i32; 4] = [-32600, -32601, -32602, -32603];

/// Whether a `tools/call`'s params break CallToolRequestParams: no string `name`, or
/// `arguments` present and not an object (the schema's `{ [key: string]: unknown }`).
fn call_params_malformed(params: Option<&super::view::ParamsView<'_>>) -> bool {
    params.is_none_or(|p| p.name.is_none() || p.arguments.is_some_and(|a| !a.is_object()))
}

/// Whether the `arguments` of a `prompts/get` break GetPromptRequestParams (values strings).
fn prompt_args_invalid(params: Option<&super::view::ParamsView<'_>>) -> bool {
    use super::read::arguments::Arguments;
    match params.and_then(|p| p.arguments) {
        None => false,
        Some(Arguments::Parsed(v)) => crate::content::prompt_args_invalid(Some(v)),
        // (read in the validated text: no tree built on every prompts/get)
        Some(Arguments::Raw(raw)) => super::read::arg_schema::prompt_args_invalid(raw.text),
    }
}
