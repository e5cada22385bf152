//! `judge(case, surface) -> Verdict`: which rules a case triggers and what each allows.
//!
//! The judge first lists the case's *defects* (each one a departure from a conformant request
//! with the answer the spec mandates when it is alone), then combines them the way
//! `shared/rules/PRECEDENCE.md` reads the spec: the revision fixes no validation order, so
//! when several MUST-level defects meet, every answer one of them mandates is acceptable
//! (P-NONE), success never is (P-NO-SUCCESS), and SHOULD-level answers give way to MUST-level
//! ones (P-MUST-SHOULD). Benign inputs (`Mcp-Session-Id`, odd header-name case, padding, a
//! valid sentinel, `42.0` for `42`, another client's `clientInfo`, `inputResponses` entries
//! nobody asked for) never change the acceptable set (P-BENIGN).
//!
//! Each MUST defect yields two expectations: its *reject* rule (the request must be refused
//! at all) and its *shape* rule (a refusal must be one of the acceptable answers). A mutant
//! that skips a check then breaks only the reject rule, one that answers with the wrong code
//! only the shape rule.
//!
//! The rules read a request only through its `RequestView` (`view`), which `read` produces
//! two ways (the fast reader the judge runs, the simple one kept as its twin); every rule is
//! written once, in the modules below: `origin`, `lints` (media headers and the per-answer
//! lints), `headers` (mirrored headers and `_meta`), `methods`, `mrtr` (a retry's
//! `inputResponses`), `params` (`Mcp-Param-*`), and `assemble` (combining what they found
//! into a Verdict); `rare` holds the views of the `params` members only rare requests carry.

mod answers;
mod assemble;
mod content_lints;
mod findings;
mod header_values;
mod headers;
mod lints;
mod methods;
mod mrtr;
mod origin;
mod paging;
mod param_path;
mod params;
mod rare;
pub mod read;
mod refusals;
pub mod view;

pub use headers::name_source;
pub use read::body_read_in_place;
#[cfg(any(test, feature = "judge-reference"))]
pub use read::read_simple;
pub use read::{read_fast, ParsedBody};
use view::Modern;
pub use view::RequestView;

use crate::case::{Case, HeaderField};
use crate::encoding::field_words::same_bytes;
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules;
use crate::surface::{Surface, ToolDecl};
use crate::verdict::{
    Answer, Canonical, DataRule, Demand, Expectation, Lint, LintKind, LintSet, Listed, StatusSet,
    Verdict,
};
use answers::{parser_refusal, refusal_answer, strict_refusal};
use assemble::{assemble, Fallback};
use findings::{is_blocking, Answers, Defect, Findings};
use lints::{declares_extension, error_lints, media_defects, request_lints, shape_lints};
use origin::OriginClass;
use smallvec::smallvec;
use view::BodyView;

/// Judge one case against one surface.
pub fn judge(case: &Case, surface: &Surface) -> Verdict {
    let mut parsed = None;
    let mut view = RequestView::empty(case);
    read::read_fast_into(case, &mut parsed, &mut view);
    judge_view(&view, surface)
}

/// Judge one request, as its view, against one surface.
pub fn judge_view(view: &RequestView<'_>, surface: &Surface) -> Verdict {
    if !same_bytes(view.path.as_bytes(), surface.endpoint.as_bytes()) {
        // not the MCP endpoint: the transport's rules speak only of the endpoint, so
        // nothing is triggered; the reference server answers 404
        return Verdict::new(
            Vec::new(),
            Canonical::Reject {
                status: 404,
                code: None,
                id: None,
                data: None,
                message: Message::Fixed("Not Found"),
            },
        );
    }
    let h = &view.headers;
    let origin = origin::classify(h, surface);
    let mut f = Findings::default();
    if origin == OriginClass::Invalid {
        origin::defect(view.verb, &mut f);
    } else if origin == OriginClass::Unclear {
        f.tolerate(origin::answer());
    }
    // (asked once a request: the header rules read it too)
    let dual_era = surface.is_dual_era();
    // the session SHOULD binds servers that support only this revision (D-26)
    let mut lints = LintSet::default();
    if !dual_era {
        lints.insert(LintKind::NoSessionId);
    }
    let (ct_off, accept_off) = media_defects(h);
    if ct_off || accept_off {
        // US-CTYPE / US-ACCEPT: no MCP sentence fixes the answer to a request the client
        // MUST NOT send so; HTTP's own refusals join the acceptable set: 400 ("perceived to
        // be a client error"), 415 for the Content-Type, 406 for the Accept (RFC 9110
        // §15.5.1, §15.5.16, §15.5.7; DEVIATIONS.md D-31, narrowed)
        for (off, status) in [(true, 400), (ct_off, 415), (accept_off, 406)] {
            if off {
                f.tolerate(Answer::HttpStatus {
                    status: StatusSet::Exact(status),
                });
            }
        }
    }
    if h.parser_refusable {
        // RFC 9110 §5.5: a recipient of CR, LF or NUL in a field value MUST reject the
        // message or replace them; HTTP stacks refuse control bytes before MCP code runs
        // (DEVIATIONS.md D-05)
        f.tolerate(parser_refusal());
    }

    if !view.verb.eq_ignore_ascii_case("POST") {
        let session_absent = matches!(h.session_id, HeaderField::Absent);
        return judge_other_verb(view.verb, session_absent, surface, &mut f, lints);
    }
    match &view.body {
        BodyView::Unusable(u) => {
            // US-PARSE / US-BATCH / US-NOTRPC: no rule fixes the answer; header-only defects
            // stay reportable but the body-dependent ones cannot be established (P-LOGIC).
            let refusal = Fallback::Refuse(u);
            let mut success = Answers::new();
            f.tolerate(Answer::HttpStatus {
                status: StatusSet::Range(400, 499),
            });
            success.push(refusal_answer(u));
            error_lints(&mut lints);
            if let Some(id) = &u.id {
                // "Error responses MUST include the same ID as the request they correspond
                // to (except in error cases where the ID could not be read due a malformed
                // request)" (basic/index.mdx): an object whose integer or string id was read
                // is malformed elsewhere, so its id was readable (DEVIATIONS.md D-24)
                lints.echo(id);
            }
            assemble(
                &mut f,
                &mut success,
                None,
                refusal,
                lints,
                &mut Listed::new(),
            )
        }
        BodyView::Notification => {
            lints.insert(LintKind::NoResponseToNotification);
            // only the Origin defect survives (P-NOTIF)
            f.tolerated.clear();
            f.benign.clear();
            f.anything_goes = false;
            // «If the server accepts it, the server MUST return HTTP status code `202
            // Accepted` with no body» owns the 2xx answers (a 2xx is an acceptance, RFC 9110
            // §15.3); «If the server cannot accept it, it MUST return an HTTP error status
            // code» owns the rest: an answer that neither accepts nor is an error status (a
            // 3xx redirect) is SHTTP-NOTIF-REJECT's (DEVIATIONS.md D-103)
            let mut success = smallvec![
                Answer::Accepted,
                Answer::HttpStatus {
                    status: StatusSet::Range(100, 199),
                },
                Answer::HttpStatus {
                    status: StatusSet::Range(300, 599),
                },
            ];
            let reject = Expectation {
                rule: rules::NOTIF_REJECT,
                demand: Demand::OneOf(smallvec![
                    Answer::HttpStatus {
                        status: StatusSet::Range(200, 299),
                    },
                    Answer::HttpStatus {
                        status: StatusSet::ERROR,
                    },
                ]),
            };
            assemble(
                &mut f,
                &mut success,
                Some(rules::NOTIF_202),
                Fallback::Accepted,
                lints,
                &mut smallvec![reject],
            )
        }
        BodyView::Request(req) => {
            request_lints(&mut lints, req, surface.capabilities.logging);
            if !surface.capabilities.logging
                && req.kind != Some(Modern::Listen)
                && req
                    .params
                    .as_ref()
                    .is_some_and(|p| p.log_level != crate::soft_params::LogLevel::Absent)
            {
                // «Servers that emit log message notifications MUST declare the `logging`
                // capability»: on the one stream the log rules let it emit them (a request
                // that set a level, not a listen stream; D-144)
                lints.insert(LintKind::NoUndeclaredLog);
            }
            let caps = req.params.as_ref().map_or(0, |p| p.input_caps);
            shape_lints(&mut lints, req.kind, surface.capabilities.extensions, caps);
            if surface.capabilities.extensions && !declares_extension(view.raw_body) {
                lints.insert(LintKind::ExtensionFallback);
            }
            // what the result must carry for this method (`crate::content`)
            let published = methods::Published::of(req, surface);
            let inputs_invalid = published.tool.is_some_and(|t| tool_inputs_invalid(req, t));
            let output_schema = published.tool.and_then(|t| t.output_schema.as_ref());
            let (content, replaces_server_info) = crate::content::for_request(
                req.kind,
                output_schema.is_some(),
                inputs_invalid,
                published.uri.is_some_and(methods::UriLookup::missing),
                surface,
            );
            if replaces_server_info {
                lints.remove(LintKind::ServerInfo);
            }
            lints.insert_content(content);
            // the expectations after the compact lints (allocated when the first is listed)
            let mut listed = Listed::new();
            if req.kind.is_none()
                && &*req.method == "initialize"
                && !dual_era
                && !h.parser_refusable
            {
                // versioning.mdx: a modern-only server SHOULD name its versions in any
                // error it returns to `initialize` (legacy clients cannot fall forward);
                // not to a message its HTTP parser may refuse before any `initialize` is
                // read, with a bare 400 (D-05, DEVIATIONS.md D-61)
                listed.push(Expectation {
                    rule: rules::VER_INIT_NAMES,
                    demand: Demand::Lint(Lint::NamesVersions(surface.supported_versions.clone())),
                });
            }
            if !content.is_empty() {
                // the content lints that carry data (an outputSchema, a list's order)
                let cursor = req.params.as_ref().is_some_and(|p| p.cursor.present());
                content_lints::data_lints(content, output_schema, cursor, surface, &mut listed);
            }
            if req.kind == Some(Modern::ToolsList) {
                // "Constraints on `x-mcp-header` values:" bind the server that writes them:
                // it lists no tool that breaks them (DEVIATIONS.md D-37)
                listed.push(Expectation {
                    rule: rules::TOOLS_XMCP_CONSTRAINTS,
                    demand: Demand::Lint(Lint::ToolAnnotationsValid),
                });
            }
            if id_unsafe(&req.id) || view.nesting_beyond {
                // RFC 8259 §9: a reader may limit the range of numbers and the depth of
                // nesting, and refuse as Invalid Request (D-48, narrowed)
                f.tolerate(strict_refusal());
            }
            let cursor = match &req.params {
                Some(p) => paging::cursor_of(req, p, surface),
                None => paging::Cursor::None,
            };
            let soft = req.params.as_ref().and_then(|p| {
                // an issued cursor is no refusable one: it is PAGE-STABLE's to serve
                let refusable = p.cursor.present() && !matches!(cursor, paging::Cursor::Issued(_));
                let listed = req.kind.is_some_and(Modern::is_list);
                crate::soft_params::refusal_of(listed, refusable, &p.log_level)
            });
            if soft.is_some() {
                // an unknown cursor or log level SHOULD be refused with -32602: accepted
                // beside any other defect (DEVIATIONS.md D-62), and judged alone below
                // (PAGE-INVALID-CURSOR, LOG-INVALID-LEVEL; D-140, D-145)
                f.tolerate(Answer::RpcError {
                    status: StatusSet::ANY,
                    code: -32602,
                    data: DataRule::None,
                });
            }
            headers::check(h, surface, dual_era, req, &mut f);
            let mut success = Answers::new();
            let rule = methods::check(h, surface, req, published, &mut f, &mut success);
            if let Some(p) = &req.params {
                paging::refusals(req, p, &cursor, &mut f);
                paging::page_expectations(&cursor, &f, &mut listed);
            }
            assemble(
                &mut f,
                &mut success,
                Some(rule),
                Fallback::Dispatch,
                lints,
                &mut listed,
            )
        }
    }
}

/// GET, DELETE and other verbs: SHOULD 405 for a modern-only server, 403 beats it.
fn judge_other_verb(
    verb: &str,
    session_absent: bool,
    surface: &Surface,
    f: &mut Findings,
    mut lints: LintSet,
) -> Verdict {
    let legacy_verb = verb.eq_ignore_ascii_case("GET") || verb.eq_ignore_ascii_case("DELETE");
    lints.insert(LintKind::AllowOn405);
    // an error in the body is still an error response: the code ranges and its shape bind
    // it whatever the verb (DEVIATIONS.md D-26)
    error_lints(&mut lints);
    if surface.is_dual_era() && legacy_verb {
        // a dual-era server may serve the 2025-11-25 GET stream / session DELETE
        f.anything_goes = f.defects.is_empty();
        if !f.defects.is_empty() && session_absent {
            // its legacy session check may refuse a GET/DELETE without `Mcp-Session-Id` with
            // 400 before the Origin step: as the legacy judge reads it (DEVIATIONS.md D-L9:
            // «beside a dead or missing session id no demand is made of that step»), 400
            // joins the 403 the Origin sentences ask for (D-102)
            f.tolerate(Answer::HttpStatus {
                status: StatusSet::Exact(400),
            });
        }
    }
    if legacy_verb && f.defects.is_empty() && !f.anything_goes {
        let d = Defect {
            reject: rules::BC_GET_DELETE,
            shape: rules::BC_GET_DELETE,
            blocking: is_blocking(rules::BC_GET_DELETE),
            answers: smallvec![Answer::HttpStatus {
                status: StatusSet::Exact(405),
            }],
            priority: 2,
        };
        f.push(d, || Canonical::MethodNotAllowed);
    }
    // other verbs: no rule names an answer; 405 is the canonical choice
    assemble(
        f,
        &mut Answers::new(),
        None,
        Fallback::MethodNotAllowed,
        lints,
        &mut Listed::new(),
    )
}

/// Whether a `tools/call` of the declared `tool` carries arguments its `inputSchema` refuses
/// (TOOLS-VALIDATE-INPUTS; the arguments are parsed only for such a call).
fn tool_inputs_invalid(req: &view::RequestBody<'_>, tool: &ToolDecl) -> bool {
    let Some(p) = &req.params else { return false };
    let schema = &tool.input_schema;
    let by_text = match (p.arguments, &tool.input_check.0) {
        (Some(read::arguments::Arguments::Parsed(v)), _) => {
            return crate::content::tool_inputs_invalid(Some(v), schema)
        }
        (None, Some(root)) => read::arg_schema::inputs_invalid(None, root),
        (Some(read::arguments::Arguments::Raw(raw)), Some(root)) => {
            read::arg_schema::inputs_invalid(Some((raw.text, &raw.members)), root)
        }
        // a tool read back from JSON, with no compiled schema: the tree decides
        (_, None) => None,
    };
    // a keyword the text reading leaves to the tree: parse the arguments (rare)
    by_text.unwrap_or_else(|| {
        let args = p.arguments.and_then(|a| a.to_value());
        crate::content::tool_inputs_invalid(args.as_ref(), schema)
    })
}

/// An integer id a double-based reader cannot hold exactly: "An implementation may set
/// limits on the range and precision of numbers" (RFC 8259 §9; D-48).
fn id_unsafe(id: &RequestId) -> bool {
    let n = id.as_i128();
    // the largest integer every JSON reader holds exactly (RFC 8259 §6)
    let max = i128::from(crate::annotations::MAX_SAFE_INTEGER);
    n.is_some_and(|n| !(-max..=max).contains(&n))
}
