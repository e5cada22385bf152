//! Which rules decide a case, and which one it isolates.
//!
//! A rule *decides* a case when its expectation can fail on some answer: every answer-set
//! (`Demand::OneOf`) expectation does, and a lint does when some answer the answer sets allow
//! is of the kind the lint looks at (a result for `ResultIdEcho`, an error for the error-code
//! lints, ...). A case *isolates* rule R when some answer breaks R while every other answer
//! set of the Verdict holds: a server that breaks R alone is then caught on R and on nothing
//! else. Two defects that mandate the same refusal (a forbidden byte that also makes the
//! header differ from the body) isolate neither: a server that skips one check is saved by
//! the other.
//!
//! Pure: a function of the Verdict alone, so both judges (which the differential test holds
//! to identical Verdicts) give the same answer. The answers tried are one concrete instance
//! of every pattern the Verdict's sets name plus a few generic ones, matched with
//! `check::matches`, the matcher `check` itself uses.

pub mod benign;
pub mod readings;

use crate::case::Case;
use crate::check::matches;
use crate::judge::judge;
use crate::observation::{Body, HttpAnswer, SseMessage};
use crate::rules::{self, RuleId};
use crate::surface::Surface;
use crate::verdict::{Answer, Canonical, DataRule, Demand, Lint, Named, StatusSet, Verdict};
use readings::{is_name_header, is_param_header, reread, READINGS};
use serde_json::{json, Value};

/// What the oracle can say about one case's rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// The rules whose expectations can fail on this case (answer sets and relevant lints).
    pub deciding: Vec<RuleId>,
    /// The deciding rules some answer breaks while every other answer set holds.
    pub isolated: Vec<RuleId>,
}

/// The deciding and isolated rules of a Verdict.
pub fn decide(v: &Verdict) -> Decision {
    let candidates = candidates(v);
    let sets: Vec<(RuleId, &[Answer])> = v
        .answer_sets()
        .map(|(rule, s)| (rule, s.as_slice()))
        .collect();
    let holds = |set: &[Answer], a: &HttpAnswer| set.iter().any(|x| matches(v.named(x), a));
    // whether `a` satisfies every answer set except (optionally) the one of `skip`
    let others_hold = |a: &HttpAnswer, skip: Option<RuleId>| {
        sets.iter()
            .filter(|(r, _)| Some(*r) != skip)
            .all(|(_, s)| holds(s, a))
    };
    let mut d = Decision::default();
    let add = |list: &mut Vec<RuleId>, r: RuleId| {
        if !list.contains(&r) {
            list.push(r);
        }
    };
    for e in v.expectations() {
        match &e.demand {
            Demand::OneOf(set) => {
                add(&mut d.deciding, e.rule);
                let isolated = candidates
                    .iter()
                    .any(|a| !holds(set, a) && others_hold(a, Some(e.rule)));
                if isolated {
                    add(&mut d.isolated, e.rule);
                }
            }
            Demand::Lint(l) => {
                // an allowed answer of the kind the lint reads: a variant of it that breaks
                // the lint alone breaks no answer set (lints read parts the sets ignore)
                let bites = candidates
                    .iter()
                    .any(|a| lint_reads(l, a) && others_hold(a, None));
                if bites {
                    add(&mut d.deciding, e.rule);
                    add(&mut d.isolated, e.rule);
                }
            }
        }
    }
    d
}

/// Selects header fields by name.
type FieldFilter = fn(&[u8]) -> bool;

/// `decide` for one case, with the character rules held to the readings real HTTP stacks
/// apply (`readings.rs`, DEVIATIONS.md D-51): a case isolates `SHTTP-HDR-INVALID-CHARS` or
/// `SHTTP-PARAM-INVALID-CHARS` only when, read as UTF-8, as ISO-8859-1 or with the bytes
/// dropped, the offending
/// header equals its body value and the request is otherwise valid, so a server that skips
/// the character check but compares values serves it.
pub fn decide_case(case: &Case, surface: &Surface) -> Decision {
    let mut d = decide(&judge(case, surface));
    let char_rules: [(RuleId, FieldFilter); 2] = [
        (rules::HDR_INVALID_CHARS, is_name_header),
        (rules::PARAM_INVALID_CHARS, is_param_header),
    ];
    for (rule, which) in char_rules {
        if !d.isolated.contains(&rule) {
            continue;
        }
        let served = |c: Case| judge(&c, surface).canonical == Canonical::Dispatch;
        if !READINGS
            .iter()
            .any(|r| reread(case, *r, which).is_some_and(served))
        {
            d.isolated.retain(|x| *x != rule);
        }
    }
    d
}

/// Whether lint `l` looks at answer `a` (could fail on some variant of it).
fn lint_reads(l: &Lint, a: &HttpAnswer) -> bool {
    let resp = a.rpc_response();
    let result = resp.is_some_and(|r| r.get("result").is_some());
    let error = resp.is_some_and(|r| r.get("error").is_some());
    let ok2xx = (200..300).contains(&a.status);
    match l {
        Lint::NoSessionId => true,
        Lint::RequestContentType => ok2xx && a.status != 202,
        Lint::SseXAccel | Lint::SseNoRequests => a.is_sse(),
        Lint::NoUndefinedReservedCode
        | Lint::NoRetiredCode
        | Lint::NoLegacyRangeCode
        | Lint::ErrorShape
        | Lint::ErrorInt
        | Lint::NoNewReservedCode
        | Lint::ErrorIdEcho { .. } => error,
        Lint::ResultType
        | Lint::ResultIdEcho(_)
        | Lint::ServerInfo
        | Lint::Content(_)
        | Lint::OutputConforms(_)
        | Lint::ToolOrder(_)
        | Lint::ToolAnnotationsValid
        | Lint::KnownResultType
        | Lint::ExtensionFallback
        | Lint::InputRequiredUnsupported
        | Lint::InputRequiredCarries
        | Lint::InputRequestTypes
        | Lint::ExtensionIds
        | Lint::PageScope(_) => result,
        // a result's `_meta` can carry a bad key or value, and so can a notification added
        // to a served stream
        Lint::MetaKeys | Lint::TraceContext => result || (a.is_sse() && ok2xx),
        Lint::NotificationNoId | Lint::NoUndeclaredLog => a.is_sse() && ok2xx,
        Lint::JsonRpcVersion => result || error || (a.is_sse() && ok2xx),
        // a success answer can lose its `result` member (D-170)
        // a result can carry an `inputRequests` object (D-171)
        Lint::InputKeysUnique | Lint::NoUndeclaredInput { .. } => result,
        Lint::CapabilityCodeMeaning { .. } | Lint::MissingCapabilityShape => error,
        Lint::ResultField => result || (ok2xx && crate::shape::result_field::has_bare_response(a)),
        Lint::AllowOn405 => a.status == 405,
        // any refusal must name the versions (check.rs `names_all`)
        Lint::NamesVersions(_) => error || a.status >= 400,
        // an answer with a body could carry a response
        Lint::NoResponseToNotification => a.body != Body::Empty || a.status != 202,
        // an event the rule owns can be added to any served stream without touching the
        // response the answer sets read (`crate::stream`)
        Lint::Stream(_) => a.is_sse() && (200..300).contains(&a.status),
    }
}

/// One concrete answer per pattern the Verdict names, plus generic ones.
fn candidates(v: &Verdict) -> Vec<HttpAnswer> {
    let mut out = generic();
    for (_, set) in v.answer_sets() {
        for a in set {
            out.extend(instances(v.named(a)));
        }
    }
    out
}

fn json_answer(status: u16, value: Value) -> HttpAnswer {
    HttpAnswer::new(status, Some("application/json"), Body::Json { value })
}

fn error(status: u16, code: i64, data: Option<Value>) -> HttpAnswer {
    let mut e = json!({"code": code, "message": "m"});
    if let Some(d) = data {
        e["data"] = d;
    }
    json_answer(status, json!({"jsonrpc": "2.0", "id": 1, "error": e}))
}

fn result() -> HttpAnswer {
    json_answer(200, json!({"jsonrpc": "2.0", "id": 1, "result": {}}))
}

fn sse(messages: Vec<Value>) -> HttpAnswer {
    let messages = messages.into_iter().map(SseMessage::Json).collect();
    HttpAnswer::new(
        200,
        Some("text/event-stream"),
        Body::Sse {
            messages,
            closed: true,
        },
    )
}

fn empty(status: u16) -> HttpAnswer {
    HttpAnswer::new(status, None, Body::Empty)
}

/// Answers every case could get: served (JSON, SSE, 202), refused by the HTTP layer, and the
/// JSON-RPC refusals the spec names.
fn generic() -> Vec<HttpAnswer> {
    let mut out = vec![
        result(),
        sse(vec![json!({"jsonrpc": "2.0", "id": 1, "result": {}})]),
        empty(202),
    ];
    for s in [400, 403, 404, 405, 406, 415, 500] {
        out.push(empty(s));
    }
    for (s, c) in [
        (400, -32020),
        (400, -32602),
        (200, -32602),
        (404, -32601),
        (400, -32600),
        (400, -32700),
        (500, -32603),
    ] {
        out.push(error(s, c, None));
    }
    out
}

/// Concrete answers matching pattern `named` (both ends of a status range).
fn instances(named: Named<'_, Answer>) -> Vec<HttpAnswer> {
    let a = named.item;
    let statuses = |s: &StatusSet| match *s {
        StatusSet::Exact(x) => vec![x],
        StatusSet::Range(100, 599) => vec![200, 400],
        StatusSet::Range(lo, hi) => vec![lo, hi],
    };
    match a {
        Answer::RpcError { status, code, data } => {
            let data = match data {
                DataRule::None => None,
                DataRule::RequiredCapabilities => Some(json!({"requiredCapabilities": {}})),
                DataRule::UnsupportedVersion { requested } => Some(json!({
                    "requested": requested.texts(named.versions).next().unwrap_or_default(),
                    "supported": [],
                })),
            };
            statuses(status)
                .into_iter()
                .map(|s| error(s, i64::from(*code), data.clone()))
                .collect()
        }
        Answer::RpcResult | Answer::NotAnError => vec![result()],
        Answer::OpenStream => vec![sse(vec![json!({"jsonrpc": "2.0", "method": "n"})])],
        Answer::Accepted => vec![empty(202)],
        Answer::HttpStatus { status } => statuses(status).into_iter().map(empty).collect(),
        Answer::AnyError => vec![empty(400), error(400, -32020, None)],
        Answer::EmptyContents => vec![json_answer(
            200,
            json!({"jsonrpc": "2.0", "id": 1, "result": {"contents": []}}),
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules;
    use crate::{fixture, judge, Case};

    fn weather(name: &[u8]) -> Case {
        let mut c = crate::client::conformant_case(
            &fixture::surface(),
            json!(1),
            "tools/call",
            json!({"name": fixture::PLAIN_TOOL, "arguments": {"location": "x"}}),
        );
        c.set_header("Mcp-Name", Some(name));
        c
    }

    #[test]
    fn one_defect_isolates_its_reject_and_shape_rules() {
        let v = judge(&weather(b"get_forecast"), &fixture::surface());
        let d = decide(&v);
        assert!(d.isolated.contains(&rules::HDR_MISMATCH), "{d:?}");
        assert!(d.isolated.contains(&rules::HDR_ERR), "{d:?}");
    }

    #[test]
    fn two_defects_with_one_refusal_isolate_neither_reject_rule() {
        // a missing version header and a mismatched name: both demand "refuse"
        let mut c = weather(b"get_forecast");
        c.set_header("MCP-Protocol-Version", None);
        let d = decide(&judge(&c, &fixture::surface()));
        assert!(d.deciding.contains(&rules::HDR_MISMATCH), "{d:?}");
        assert!(!d.isolated.contains(&rules::HDR_MISMATCH), "{d:?}");
        assert!(!d.isolated.contains(&rules::PV_MISSING), "{d:?}");
    }

    #[test]
    fn forbidden_bytes_isolate_the_character_rule_only_when_a_reading_matches() {
        let s = fixture::surface();
        let menu = |name: &[u8]| {
            let mut c = crate::client::conformant_case(
                &s,
                json!(1),
                "resources/read",
                json!({ "uri": fixture::SENTINEL_URI }),
            );
            c.set_header("Mcp-Name", Some(name));
            c
        };
        let isolates = |c: &Case| {
            decide_case(c, &s)
                .isolated
                .contains(&rules::HDR_INVALID_CHARS)
        };
        assert!(
            isolates(&menu(b"file:///logs/caf\xe9.log")),
            "ISO-8859-1 reading"
        );
        assert!(
            isolates(&menu(fixture::SENTINEL_URI.as_bytes())),
            "UTF-8 reading"
        );
        // a sanitizing reading drops the extra bytes
        assert!(isolates(&weather("get_weather\u{e9}".as_bytes())));
        // the bytes differ from the body under every reading: a mismatch check refuses too
        assert!(!isolates(&weather("get_weathe\u{e9}".as_bytes())));
        assert!(!isolates(&menu(b"caf\xff_menu")));
    }

    #[test]
    fn a_conformant_call_isolates_its_success_rule_and_result_lints() {
        let d = decide(&judge(&weather(b"get_weather"), &fixture::surface()));
        assert!(d.isolated.contains(&rules::HDR_MN_SOURCE), "{d:?}");
        assert!(d.isolated.contains(&rules::RESULT_ID), "{d:?}");
        assert!(!d.isolated.contains(&rules::BC_GET_DELETE), "{d:?}");
    }
}
