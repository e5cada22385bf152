//! The review model shared by the Markdown, JUnit and HTML renderers: how a target's findings
//! split into the review's sections, the verdict of each (rule, target) cell, the "why it
//! matters" text per rule family, and small text helpers (a `Case` as readable HTTP, a
//! one-line diff of expected vs observed).
//!
//! Everything here reads only a `RunReport` (plus the static rule table for levels and
//! ordering), so a saved JSON renders exactly like a live run.

use super::json::{FindingReport, RunReport, TargetReport};
use mcpdiff_oracle::rules::all_rules;
use mcpdiff_oracle::{Case, Level};

/// Why a rule family matters to clients and intermediaries: (rule-id prefix, family, why).
/// Looked up by longest matching prefix, so a specific entry can override its family.
const WHY: &[(&str, &str, &str)] = &[
    ("SHTTP-ORIGIN", "Origin validation",
     "DNS rebinding: a web page the user visits can make the browser reach a local or intranet \
      MCP server; only an Origin check stops that page from calling tools with the user's \
      access."),
    ("SHTTP-HDR-MISMATCH", "Header/body agreement",
     "A load balancer, gateway or WAF routes, authorizes or rate-limits on the mirrored header \
      while the server executes the body: a client can pass policy for one method or tool and \
      run another."),
    ("SHTTP-HDR-MN-SOURCE", "Header/body agreement",
     "Intermediaries trust `Mcp-Name` to say which tool, resource or prompt runs; when it is \
      not taken from the body field, policy is enforced on a name that is not executed."),
    ("SHTTP-PV-MISMATCH", "Header/body agreement",
     "Proxies decide whether a request was header-validated from `MCP-Protocol-Version`; a \
      header that disagrees with `_meta` lets a request skip validation or be routed to the \
      wrong era."),
    ("SHTTP-PARAM", "Mcp-Param headers",
     "Intermediaries enforce per-tenant or per-region policy on `Mcp-Param-*` headers; if the \
      server does not check them against the arguments, a client states one value to the \
      gateway and uses another."),
    ("SHTTP-B64", "Header value encoding",
     "Client, intermediary and server must decode `=?base64?...?=` values identically; a \
      server that decodes differently either rejects valid clients or accepts values the \
      gateway never saw."),
    ("SHTTP-INT", "Header value encoding",
     "Integers must render the same in header and body, or header checks reject valid calls \
      and gateways compare against the wrong number."),
    ("SHTTP-BOOL", "Header value encoding",
     "Booleans must render the same in header and body, or header checks reject valid calls \
      and gateways compare against the wrong value."),
    ("SHTTP-HDR", "Mirrored headers",
     "Standard HTTP stacks normalize header names, case and whitespace; a server stricter or \
      looser than RFC 9110 breaks conformant clients behind proxies, or lets malformed \
      headers reach routing."),
    ("SHTTP-PV", "Protocol version",
     "Clients pick their era and version from the 400 and its `UnsupportedProtocolVersionError`; \
      a wrong answer makes them fall back to the legacy handshake or fail with no diagnostic."),
    ("VER-", "Version negotiation",
     "Without `server/discover` and the `supported` list, clients cannot choose a version and \
      fail instead of retrying."),
    ("SHTTP-METHOD", "Unknown methods",
     "Clients tell a modern server from a legacy one by the JSON-RPC error body; a bare 404 \
      makes them fall back to the deprecated HTTP+SSE transport."),
    ("SHTTP-EP", "Endpoint",
     "Every client sends JSON-RPC as a POST to the one endpoint; a server that answers \
      otherwise is unreachable by SDK clients."),
    ("SHTTP-NOTIF", "Notifications",
     "Clients expect 202 with no body for an accepted notification; anything else is parsed \
      as a response to nothing, or the client waits for one."),
    ("BASE-NOTIF", "Notifications",
     "A response to a notification has no id to match; clients log errors or hang."),
    ("SHTTP-REQ-CT", "Content types",
     "Clients choose the JSON or SSE parser from Content-Type; a wrong type breaks parsing."),
    ("SHTTP-SSE-XACCEL", "SSE through proxies",
     "Without `X-Accel-Buffering: no`, nginx-style proxies buffer the stream and progress \
      events arrive all at once, at the end."),
    ("SHTTP-SSE", "SSE streams",
     "A request-scoped stream that carries server requests or never ends leaves clients \
      waiting for a response that is not coming."),
    ("SHTTP-BC", "Legacy traffic",
     "Old clients still send GET, DELETE, `Mcp-Session-Id` and `Last-Event-ID`; a modern \
      server that answers them in the old way makes those clients believe the server is \
      legacy, and minted sessions leak state."),
    ("BASE-META", "Request metadata",
     "Without `_meta` the server cannot know the version or capabilities; serving such \
      requests hides client bugs until they meet a strict server."),
    ("BASE-MISSING-CAP", "Capabilities",
     "Clients learn which capability to declare from -32021; without it they cannot recover."),
    ("BASE-RESULT", "JSON-RPC responses",
     "Clients match responses by id and shape; a wrong id or shape leaves a request pending \
      forever or resolves the wrong one."),
    ("BASE-ERR", "JSON-RPC errors",
     "Clients branch on the error code and read `data`; a wrong code or shape triggers the \
      wrong recovery (or none)."),
    ("BASE-SERVERINFO", "Server identity",
     "Clients and logs identify the implementation from serverInfo; missing it hampers \
      diagnosis."),
    ("TOOLS", "Tools", "Clients rely on the documented error codes to tell a missing tool from \
      a failing one."),
    ("RES", "Resources", "Clients rely on -32602 to tell a missing resource from a server fault."),
    ("PROMPTS", "Prompts", "Clients rely on the documented errors to report bad prompt calls."),
    ("BASE", "JSON-RPC base", "Every SDK client parses JSON-RPC strictly; departures break them."),
    ("AUTH", "Authorization",
     "A protected server that serves a request without a valid token issued for it hands data \
      to unauthorized callers (or lets a token stolen from another service through); one that \
      refuses with another status than 401 leaves clients unable to start the OAuth flow."),
    ("AUTH-PRM", "Authorization discovery",
     "Clients find the authorization server only through the protected-resource metadata; a \
      missing or wrong document means no client can obtain a token."),
    ("AUTH-DISCOVERY", "Authorization discovery",
     "Clients find the authorization server only through the protected-resource metadata; a \
      missing or wrong document means no client can obtain a token."),
    ("AUTH-SCOPE", "Authorization scopes",
     "Clients request the scopes the challenge names; without them they over-ask or loop \
      through step-up authorization."),
    ("AUTH-OFFLINE", "Authorization scopes",
     "Clients request the scopes the challenge names; asking for offline_access makes every \
      client request refresh tokens the resource does not need."),
];

/// The family and "why it matters" text of a rule.
pub fn why_it_matters(rule: &str) -> (&'static str, &'static str) {
    WHY.iter()
        .filter(|(p, _, _)| rule.starts_with(p))
        .max_by_key(|(p, _, _)| p.len())
        .map_or(
            ("Other", "A conformant client may fail against this answer."),
            |(_, f, w)| (f, w),
        )
}

/// The level of a rule id as the table says (None: an id this build does not know).
pub fn level_of(rule: &str) -> Option<Level> {
    all_rules().find(|r| r.id.0 == rule).map(|r| r.level)
}

/// The verdict of one (rule, target) cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Pass,
    MustFail,
    ShouldFail,
    /// A MAY rule departed from (tallied only).
    MayFail,
    /// Only answers that decided nothing (timed out, unauthorized, unreachable).
    Undetermined,
    /// A rule whose sentence has no RFC 2119 keyword departed from (shown, never scored).
    Observed,
    NotObserved,
    /// The target's report does not mention the rule at all.
    Absent,
}

impl Cell {
    /// Short label and CSS class.
    pub fn label(self) -> (&'static str, &'static str) {
        match self {
            Cell::Pass => ("pass", "pass"),
            Cell::MustFail => ("MUST fail", "must"),
            Cell::ShouldFail => ("SHOULD fail", "should"),
            Cell::MayFail => ("MAY (tallied)", "may"),
            Cell::Undetermined => ("not determined", "nobs"),
            Cell::Observed => ("observation", "may"),
            Cell::NotObserved => ("not observed", "nobs"),
            Cell::Absent => ("-", "absent"),
        }
    }
}

/// The cell of `rule` for `t`.
pub fn cell(t: &TargetReport, rule: &str) -> Cell {
    if let Some(f) = t.findings.iter().find(|f| f.rule.0 == rule) {
        return match f.severity.as_str() {
            "blocking" => Cell::MustFail,
            "advisory" => Cell::ShouldFail,
            "observation" => Cell::Observed,
            _ => Cell::MayFail,
        };
    }
    if t.passed.iter().any(|p| p == rule) {
        Cell::Pass
    } else if super::undetermined::rule_reason(t, rule).is_some() {
        Cell::Undetermined
    } else if t.not_observed.iter().any(|n| n.rule.0 == rule) {
        Cell::NotObserved
    } else {
        Cell::Absent
    }
}

/// Every rule any target was judged on, in rule-table order (unknown ids last, sorted).
pub fn rules_of(r: &RunReport) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for t in &r.targets {
        let all = t
            .findings
            .iter()
            .map(|f| f.rule.0)
            .chain(t.passed.iter().map(String::as_str))
            .chain(t.not_observed.iter().map(|n| n.rule.0))
            .chain(
                t.undetermined
                    .iter()
                    .flat_map(|u| u.rules.iter().map(|r| r.rule.as_str())),
            );
        for id in all {
            if !ids.iter().any(|known| known == id) {
                ids.push(id.to_string());
            }
        }
    }
    let pos = |id: &str| all_rules().position(|r| r.id.0 == id).unwrap_or(usize::MAX);
    ids.sort_by(|a, b| (pos(a), a).cmp(&(pos(b), b)));
    ids
}

/// A target's findings split into the review's sections.
pub struct Sections<'a> {
    /// MUST findings that are not security findings.
    pub blocking: Vec<&'a FindingReport>,
    /// Security findings, any level.
    pub security: Vec<&'a FindingReport>,
    /// SHOULD findings that are not security findings.
    pub should: Vec<&'a FindingReport>,
    /// MAY departures (tallied only).
    pub may: Vec<&'a FindingReport>,
    /// Departures from sentences without an RFC 2119 keyword (shown, never scored).
    pub observations: Vec<&'a FindingReport>,
    /// SHOULD rules exercised (passed or failed).
    pub should_exercised: usize,
    pub should_passed: usize,
    /// MAY rules exercised.
    pub may_exercised: usize,
}

pub fn sections(t: &TargetReport) -> Sections<'_> {
    let mut s = Sections {
        blocking: Vec::new(),
        security: Vec::new(),
        should: Vec::new(),
        may: Vec::new(),
        observations: Vec::new(),
        should_exercised: 0,
        should_passed: 0,
        may_exercised: 0,
    };
    for f in &t.findings {
        match (f.security, f.severity.as_str()) {
            (true, _) => s.security.push(f),
            (false, "blocking") => s.blocking.push(f),
            (false, "advisory") => s.should.push(f),
            (false, "observation") => s.observations.push(f),
            _ => s.may.push(f),
        }
        match f.severity.as_str() {
            "advisory" => s.should_exercised += 1,
            "optional" => s.may_exercised += 1,
            _ => {}
        }
    }
    // blocking security findings first: they are the ones that fail the run
    s.security.sort_by_key(|f| f.severity != "blocking");
    for p in &t.passed {
        match level_of(p) {
            Some(Level::Should | Level::ShouldNot) => {
                s.should_exercised += 1;
                s.should_passed += 1;
            }
            Some(Level::May) => s.may_exercised += 1,
            _ => {}
        }
    }
    s
}

/// Count of MUST findings outside the baseline.
pub fn blocking_count(t: &TargetReport) -> usize {
    t.findings
        .iter()
        .filter(|f| f.severity == "blocking" && !f.baselined)
        .count()
}

/// The score line: DESIGN.md scoring, with the counts behind the number.
pub fn score_line(t: &TargetReport) -> String {
    let s = sections(t);
    let must = t
        .findings
        .iter()
        .filter(|f| f.severity == "blocking")
        .count();
    let why = if must > 0 {
        format!("{must} MUST rule(s) failed")
    } else if s.should_exercised == 0 {
        "no MUST failed; no SHOULD rule exercised".to_string()
    } else {
        format!(
            "no MUST failed; {} of {} SHOULD rule(s) passed",
            s.should_passed, s.should_exercised
        )
    };
    format!(
        "score {:.2} ({why}); MAY: {} exercised, {} departed (tallied only)",
        t.score,
        s.may_exercised,
        s.may.len()
    )
}

/// A case as readable HTTP/1.1 text: bytes outside printable ASCII shown as `\xNN`, so the
/// text is safe for any renderer and the exact bytes stay visible.
pub fn case_text(c: &Case) -> String {
    let mut out = format!("{} {} HTTP/1.1\n", c.method, c.path);
    for (n, v) in &c.headers {
        out.push_str(&escape_bytes(n));
        out.push_str(": ");
        out.push_str(&escape_bytes(v));
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&escape_bytes(&c.body));
    out
}

/// Printable ASCII (and newline) as is; anything else as `\xNN`.
pub fn escape_bytes(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len());
    for &x in b {
        if x == b'\n' || (0x20..0x7f).contains(&x) {
            s.push(x as char);
        } else {
            s.push_str(&format!("\\x{x:02x}"));
        }
    }
    s
}

/// The revision line of a target (section 1 headline).
pub fn revision_headline(t: &TargetReport) -> String {
    match &t.revision {
        Some(r) => r.verdict.describe().to_string(),
        None => "not determined (the report has no revision probe: written by an older \
                 mcpdiff)"
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_wins() {
        assert_eq!(
            why_it_matters("SHTTP-HDR-MISMATCH-400").0,
            "Header/body agreement"
        );
        assert_eq!(why_it_matters("SHTTP-HDR-OWS").0, "Mirrored headers");
        assert_eq!(why_it_matters("SHTTP-ORIGIN-403").0, "Origin validation");
        assert_eq!(why_it_matters("NOPE").0, "Other");
    }

    #[test]
    fn case_text_escapes_control_bytes() {
        let c = Case::post("/mcp", &[("X", "a\u{1}b")], "{}\r");
        assert_eq!(case_text(&c), "POST /mcp HTTP/1.1\nX: a\\x01b\n\n{}\\x0d");
    }
}
