//! The judge as it was before the issue-7 speed work, kept verbatim as the differential
//! reference (with `check`, in `check.rs`): `props/tests/judge_differential.rs` asserts that [`crate::judge::judge`] returns
//! the same Verdict as [`judge`] here for every generated case. It parses the body into a
//! `serde_json::Value` and builds every message eagerly; nothing outside tests calls it.
//!
//! Compiled only for the oracle's own tests and with the `judge-reference` feature (which
//! `props`' dev-dependency enables). Change it only to follow a deliberate change of the
//! judge's semantics, in the same commit.
#![allow(dead_code)]

mod assemble;
pub mod check;
mod envelope;
mod headers;
mod lints;
mod methods;
mod origin;
mod params;

use crate::case::Case;
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, DataRule, Lint, StatusSet, Verdict};
use assemble::assemble;
use envelope::Envelope;
use lints::{error_lints, has_parser_refusable_bytes, media_defects, request_lints};
use origin::OriginClass;
use serde_json::Value;

/// One departure from a conformant request.
#[derive(Clone, Debug)]
pub(crate) struct Defect {
    /// The rule that says the request must be refused.
    pub reject: RuleId,
    /// The rule that says how a refusal looks.
    pub shape: RuleId,
    /// The answers this defect mandates when it is alone (the first is canonical).
    pub answers: Vec<Answer>,
    /// Position in the recommended canonical order (PRECEDENCE.md §5); lower goes first.
    pub priority: u8,
    /// The reference server's answer for this defect.
    pub canonical: Canonical,
}

/// Everything the per-part checks learn about one request.
#[derive(Default)]
pub(crate) struct Findings {
    pub defects: Vec<Defect>,
    /// Answers that become acceptable because the spec leaves a point open (AMB-nn).
    pub tolerated: Vec<Answer>,
    /// Rules exercised by benign inputs: the acceptable set must stay as if they were absent.
    pub benign: Vec<RuleId>,
    /// When set, the spec allows any answer at all for this request (legacy MAY paths).
    pub anything_goes: bool,
}

impl Findings {
    pub fn defect(&mut self, reject: RuleId, shape: RuleId, priority: u8, answer: Canonical) {
        let answers = vec![answer_of(&answer)];
        self.defects.push(Defect {
            reject,
            shape,
            answers,
            priority,
            canonical: answer,
        });
    }

    pub fn tolerate(&mut self, a: Answer) {
        if !self.tolerated.contains(&a) {
            self.tolerated.push(a);
        }
    }

    pub fn benign(&mut self, r: RuleId) {
        if !self.benign.contains(&r) {
            self.benign.push(r);
        }
    }
}

/// The canonical 400/-32020 rejection.
pub(crate) fn header_mismatch(id: &Value, message: &str) -> Canonical {
    Canonical::Reject {
        status: 400,
        code: Some(-32020),
        id: Some(id.clone()),
        data: None,
        message: format!("Header mismatch: {message}"),
    }
}

/// The acceptable-answer pattern a canonical rejection belongs to.
pub(crate) fn answer_of(c: &Canonical) -> Answer {
    match c {
        Canonical::Reject {
            status,
            code: Some(code),
            ..
        } => {
            let status = match *code {
                // unspecified statuses (AMB-08): only the code is checked
                -32602 | -32603 | -32700 | -32600 if *status != 400 => StatusSet::ANY,
                _ => StatusSet::Exact(*status),
            };
            let data = match *code {
                -32021 => DataRule::RequiredCapabilities,
                _ => DataRule::None,
            };
            Answer::RpcError {
                status,
                code: *code,
                data,
            }
        }
        Canonical::Reject {
            status, code: None, ..
        } => Answer::HttpStatus {
            status: StatusSet::Exact(*status),
        },
        Canonical::Accepted => Answer::Accepted,
        Canonical::MethodNotAllowed => Answer::HttpStatus {
            status: StatusSet::Exact(405),
        },
        Canonical::Dispatch => Answer::RpcResult,
    }
}

/// Judge one case against one surface.
pub fn judge(case: &Case, surface: &Surface) -> Verdict {
    let path = case.path.split('?').next().unwrap_or("");
    if path != surface.endpoint {
        // not the MCP endpoint: the transport's rules speak only of the endpoint, so
        // nothing is triggered; the reference server answers 404
        return Verdict {
            expectations: Vec::new(),
            canonical: Canonical::Reject {
                status: 404,
                code: None,
                id: None,
                data: None,
                message: "Not Found".to_string(),
            },
        };
    }
    let origin = origin::classify(case, surface);
    let mut f = Findings::default();
    if origin == OriginClass::Invalid {
        f.defects.push(origin::defect());
    } else if origin == OriginClass::Unclear {
        f.tolerate(origin::answer());
    }
    // the session SHOULD binds servers that support only this revision (D-26)
    let mut lints: Vec<(RuleId, Lint)> = if surface.is_dual_era() {
        Vec::new()
    } else {
        vec![(rules::BC_SESSION, Lint::NoSessionId)]
    };
    let (ct_off, accept_off) = media_defects(case);
    if ct_off || accept_off {
        // US-CTYPE / US-ACCEPT: no MCP sentence fixes the answer to a request the client
        // MUST NOT send so; HTTP's own refusals join the acceptable set: 400 ("perceived to
        // be a client error"), 415 for the Content-Type, 406 for the Accept (RFC 9110
        // §15.5.1, §15.5.16, §15.5.7; DEVIATIONS.md D-31, narrowed 2026-12-03)
        for (off, status) in [(true, 400), (ct_off, 415), (accept_off, 406)] {
            if off {
                f.tolerate(Answer::HttpStatus {
                    status: StatusSet::Exact(status),
                });
            }
        }
    }
    if has_parser_refusable_bytes(case) {
        // RFC 9110 §5.5: a recipient of CR, LF or NUL in a field value MUST reject the
        // message or replace them; HTTP stacks refuse control bytes before MCP code runs
        // (DEVIATIONS.md D-05)
        f.tolerate(headers::parser_refusal());
    }

    if !case.method.eq_ignore_ascii_case("POST") {
        return judge_other_verb(case, surface, f, lints);
    }
    match envelope::parse(&case.body) {
        Envelope::Unusable(canonical) => {
            // US-PARSE / US-BATCH / US-NOTRPC: no rule fixes the answer; header-only defects
            // stay reportable but the body-dependent ones cannot be established (P-LOGIC).
            let mut success = Vec::new();
            f.tolerate(Answer::HttpStatus {
                status: StatusSet::Range(400, 499),
            });
            success.push(answer_of(&canonical));
            lints.extend(error_lints());
            assemble(f, success, None, canonical, lints)
        }
        Envelope::Notification => {
            lints.push((rules::NOTIF_NO_RESPONSE, Lint::NoResponseToNotification));
            // only the Origin defect survives (P-NOTIF)
            let f2 = Findings {
                defects: f.defects,
                ..Findings::default()
            };
            let success = vec![
                Answer::Accepted,
                Answer::HttpStatus {
                    status: StatusSet::ERROR,
                },
            ];
            assemble(
                f2,
                success,
                Some(rules::NOTIF_202),
                Canonical::Accepted,
                lints,
            )
        }
        Envelope::Request(req) => {
            lints.extend(request_lints(&req.id));
            if req.method == "initialize" && !surface.is_dual_era() {
                // a modern-only server SHOULD name its versions in any error to `initialize`
                lints.push((
                    rules::VER_INIT_NAMES,
                    Lint::NamesVersions(surface.supported_versions.clone()),
                ));
            }
            if req.strict_refusable || crate::case::nesting_beyond(&case.body) {
                // a strict JSON-RPC reader may refuse as Invalid Request (D-48)
                f.tolerate(Answer::RpcError {
                    status: StatusSet::ANY,
                    code: -32600,
                    data: DataRule::None,
                });
            }
            if crate::soft_params::should_refuse(&case.body).is_some() {
                // an unknown cursor or log level SHOULD be refused with -32602 (D-62)
                f.tolerate(Answer::RpcError {
                    status: StatusSet::ANY,
                    code: -32602,
                    data: DataRule::None,
                });
            }
            headers::check(case, surface, &req, &mut f);
            let (success, rule) = methods::check(case, surface, &req, &mut f);
            assemble(f, success, Some(rule), Canonical::Dispatch, lints)
        }
    }
}

/// GET, DELETE and other verbs: SHOULD 405 for a modern-only server, 403 beats it.
fn judge_other_verb(
    case: &Case,
    surface: &Surface,
    f: Findings,
    mut lints: Vec<(RuleId, Lint)>,
) -> Verdict {
    let legacy_verb =
        case.method.eq_ignore_ascii_case("GET") || case.method.eq_ignore_ascii_case("DELETE");
    lints.push((rules::BC_GET_DELETE, Lint::AllowOn405));
    // an error in the body is still an error response: the code ranges and its shape bind
    // it whatever the verb (DEVIATIONS.md D-26, 2026-12-03)
    lints.extend(error_lints());
    let mut f = f;
    if surface.is_dual_era() && legacy_verb {
        // a dual-era server may serve the 2025-11-25 GET stream / session DELETE
        f.anything_goes = f.defects.is_empty();
    }
    if legacy_verb && f.defects.is_empty() && !f.anything_goes {
        f.defects.push(Defect {
            reject: rules::BC_GET_DELETE,
            shape: rules::BC_GET_DELETE,
            answers: vec![Answer::HttpStatus {
                status: StatusSet::Exact(405),
            }],
            priority: 2,
            canonical: Canonical::MethodNotAllowed,
        });
    }
    // other verbs: no rule names an answer; 405 is the canonical choice
    assemble(f, Vec::new(), None, Canonical::MethodNotAllowed, lints)
}
