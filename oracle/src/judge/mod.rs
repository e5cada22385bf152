//! `judge(case, surface) -> Verdict`: which rules a case triggers and what each allows.
//!
//! The judge first lists the case's *defects* (each one a departure from a conformant request
//! with the answer the spec mandates when it is alone), then combines them the way
//! `shared/rules/PRECEDENCE.md` reads the spec: the revision fixes no validation order, so
//! when several MUST-level defects meet, every answer one of them mandates is acceptable
//! (P-NONE), success never is (P-NO-SUCCESS), and SHOULD-level answers give way to MUST-level
//! ones (P-MUST-SHOULD). Benign inputs (`Mcp-Session-Id`, odd header-name case, padding, a
//! valid sentinel, `42.0` for `42`) never change the acceptable set (P-BENIGN).
//!
//! Each MUST defect yields two expectations: its *reject* rule (the request must be refused
//! at all) and its *shape* rule (a refusal must be one of the acceptable answers). A mutant
//! that skips a check then breaks only the reject rule, one that answers with the wrong code
//! only the shape rule.

mod assemble;
mod envelope;
mod header_index;
mod headers;
mod lints;
pub use headers::name_source;
mod methods;
mod origin;
mod params;
mod scan;
mod swar;

use crate::case::Case;
use crate::rules::{self, RuleId};
use crate::rules::{level_of, Severity};
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, DataRule, Expectation, Lint, StatusSet, Verdict};
use assemble::assemble;
use envelope::Envelope;
use header_index::HeaderIndex;
use lints::{error_lints, lint, media_defects, request_lints};
use origin::OriginClass;
use serde_json::Value;
use smallvec::{smallvec, SmallVec};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// An answer set while the judge builds it: inline up to four answers (nearly every set), so
/// building, merging and copying sets does not allocate; only the final `Demand::OneOf`
/// of each expectation gets its own `Vec`.
pub(crate) type Answers = SmallVec<[Answer; 4]>;

/// One departure from a conformant request.
#[derive(Clone, Debug)]
pub(crate) struct Defect {
    /// The rule that says the request must be refused.
    pub reject: RuleId,
    /// The rule that says how a refusal looks.
    pub shape: RuleId,
    /// The answers this defect mandates when it is alone (the first is canonical).
    pub answers: Answers,
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
    pub tolerated: Answers,
    /// Rules exercised by benign inputs: the acceptable set must stay as if they were absent.
    pub benign: SmallVec<[RuleId; 4]>,
    /// When set, the spec allows any answer at all for this request (legacy MAY paths).
    pub anything_goes: bool,
}

/// Whether `rule` is at a blocking level (MUST-like), from a table built once: the judge asks
/// for every defect, and the rules table is a list.
pub(crate) fn is_blocking(rule: RuleId) -> bool {
    static BLOCKING: OnceLock<HashMap<&'static str, bool, BuildHasherDefault<Fnv>>> =
        OnceLock::new();
    let table = BLOCKING.get_or_init(|| {
        rules::RULES
            .iter()
            .map(|r| (r.id.0, level_of(r.id).severity() == Severity::Blocking))
            .collect()
    });
    match table.get(rule.0) {
        Some(b) => *b,
        None => level_of(rule).severity() == Severity::Blocking,
    }
}

/// FNV-1a: rule ids are short static strings and the table is fixed, so a simple hash
/// beats SipHash here (no untrusted keys reach it).
#[derive(Default)]
pub(crate) struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

impl Findings {
    /// Whether a new defect on `reject` at `priority` could still give the canonical answer
    /// (`assemble` takes the first defect of least priority among the blocking ones, or
    /// among all when none blocks): when it cannot, its canonical answer is never built.
    pub fn could_lead(&self, reject: RuleId, priority: u8) -> bool {
        let blocking = is_blocking(reject);
        !self.defects.iter().any(|d| {
            let earlier_blocks = is_blocking(d.reject);
            (earlier_blocks || !blocking) && (d.priority <= priority || earlier_blocks != blocking)
        })
    }

    /// A defect whose canonical answer (with its message) is built only when it could be the
    /// canonical one; `answer` is the answer the defect mandates alone.
    pub fn defect_lazy(
        &mut self,
        reject: RuleId,
        shape: RuleId,
        priority: u8,
        answer: Answer,
        canonical: impl FnOnce() -> Canonical,
    ) {
        let canonical = if self.could_lead(reject, priority) {
            canonical()
        } else {
            // never read: an earlier defect gives the canonical answer
            Canonical::Dispatch
        };
        self.defects.push(Defect {
            reject,
            shape,
            answers: smallvec![answer],
            priority,
            canonical,
        });
    }

    /// A 400/-32020 defect whose message is written only when it could be canonical.
    pub fn mismatch(
        &mut self,
        reject: RuleId,
        shape: RuleId,
        priority: u8,
        id: &Value,
        message: impl FnOnce() -> String,
    ) {
        self.defect_lazy(reject, shape, priority, headers::mismatch_answer(), || {
            header_mismatch(id, &message())
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
        message: {
            // concatenated rather than formatted: the fmt machinery cost more than the copy
            const PREFIX: &str = "Header mismatch: ";
            let mut text = String::with_capacity(PREFIX.len() + message.len());
            text.push_str(PREFIX);
            text.push_str(message);
            text
        },
    }
}

/// A limited JSON reader's refusal (D-48): -32600 Invalid Request, any status (D-23).
pub(crate) fn strict_refusal() -> Answer {
    Answer::RpcError {
        status: StatusSet::ANY,
        code: -32600,
        data: DataRule::None,
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

/// Whether the judge reads `body` in place (the scanner's subset) rather than through a full
/// `serde_json` parse; the differential test uses it to show both paths are exercised.
#[doc(hidden)]
pub fn body_read_in_place(body: &[u8]) -> bool {
    scan::validate(body).is_some()
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
    let h = HeaderIndex::new(case);
    let origin = origin::classify(&h, surface);
    let mut f = Findings::default();
    if origin == OriginClass::Invalid {
        f.defects.push(origin::defect());
    } else if origin == OriginClass::Unclear {
        f.tolerate(origin::answer());
    }
    // the session SHOULD binds servers that support only this revision (D-26)
    // room for every lint and a few request-level expectations: no regrowth
    let mut lints: Vec<Expectation> = Vec::with_capacity(16);
    if !surface.is_dual_era() {
        lints.push(lint(rules::BC_SESSION, Lint::NoSessionId));
    }
    let (ct_off, accept_off) = media_defects(&h);
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
    if h.parser_refusable {
        // RFC 9110 §5.5: a recipient of CR, LF or NUL in a field value MUST reject the
        // message or replace them; HTTP stacks refuse control bytes before MCP code runs
        // (DEVIATIONS.md D-05)
        f.tolerate(headers::parser_refusal());
    }

    if !case.method.eq_ignore_ascii_case("POST") {
        return judge_other_verb(case, surface, f, lints);
    }
    let mut holder = None;
    match envelope::parse(&case.body, &mut holder) {
        Envelope::Unusable(canonical) => {
            // US-PARSE / US-BATCH / US-NOTRPC: no rule fixes the answer; header-only defects
            // stay reportable but the body-dependent ones cannot be established (P-LOGIC).
            let mut success = Answers::new();
            f.tolerate(Answer::HttpStatus {
                status: StatusSet::Range(400, 499),
            });
            success.push(answer_of(&canonical));
            error_lints(&mut lints);
            assemble(f, success, None, canonical, lints)
        }
        Envelope::Notification => {
            lints.push(lint(
                rules::NOTIF_NO_RESPONSE,
                Lint::NoResponseToNotification,
            ));
            // only the Origin defect survives (P-NOTIF)
            let f2 = Findings {
                defects: f.defects,
                ..Findings::default()
            };
            let success = smallvec![
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
            request_lints(&mut lints, &req.id);
            if &*req.method == "initialize" && !surface.is_dual_era() {
                // versioning.mdx: a modern-only server SHOULD name its versions in any
                // error it returns to `initialize` (legacy clients cannot fall forward)
                lints.push(lint(
                    rules::VER_INIT_NAMES,
                    Lint::NamesVersions(surface.supported_versions.clone()),
                ));
            }
            if req.strict_refusable || crate::case::nesting_beyond(&case.body) {
                // RFC 8259 §9: a reader may limit the range of numbers and the depth of
                // nesting, and refuse as Invalid Request (D-48, narrowed 2026-12-03)
                f.tolerate(strict_refusal());
            }
            if crate::soft_params::should_refuse(&case.body).is_some() {
                // an unknown cursor or log level SHOULD be refused with -32602: the oracle
                // does not score it yet, but accepts it (DEVIATIONS.md D-62)
                f.tolerate(Answer::RpcError {
                    status: StatusSet::ANY,
                    code: -32602,
                    data: DataRule::None,
                });
            }
            headers::check(&h, surface, &req, &mut f);
            let (success, rule) = methods::check(case, &h, surface, &req, &mut f);
            assemble(f, success, Some(rule), Canonical::Dispatch, lints)
        }
    }
}

/// GET, DELETE and other verbs: SHOULD 405 for a modern-only server, 403 beats it.
fn judge_other_verb(
    case: &Case,
    surface: &Surface,
    f: Findings,
    mut lints: Vec<Expectation>,
) -> Verdict {
    let legacy_verb =
        case.method.eq_ignore_ascii_case("GET") || case.method.eq_ignore_ascii_case("DELETE");
    lints.push(lint(rules::BC_GET_DELETE, Lint::AllowOn405));
    // an error in the body is still an error response: the code ranges and its shape bind
    // it whatever the verb (DEVIATIONS.md D-26, 2026-12-03)
    error_lints(&mut lints);
    let mut f = f;
    if surface.is_dual_era() && legacy_verb {
        // a dual-era server may serve the 2025-11-25 GET stream / session DELETE
        f.anything_goes = f.defects.is_empty();
    }
    if legacy_verb && f.defects.is_empty() && !f.anything_goes {
        f.defects.push(Defect {
            reject: rules::BC_GET_DELETE,
            shape: rules::BC_GET_DELETE,
            answers: smallvec![Answer::HttpStatus {
                status: StatusSet::Exact(405),
            }],
            priority: 2,
            canonical: Canonical::MethodNotAllowed,
        });
    }
    // other verbs: no rule names an answer; 405 is the canonical choice
    assemble(f, Answers::new(), None, Canonical::MethodNotAllowed, lints)
}
