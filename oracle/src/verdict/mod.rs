//! `Verdict`: for one (Case, Surface), every rule the case triggers with the outcomes that
//! rule allows, plus the one canonical answer the reference server gives.
//!
//! An `Expectation` is either a set of acceptable `Answer`s (the request-level outcome) or
//! a `Lint` (a property every answer must have, e.g. no `Mcp-Session-Id`). A rule that is
//! not in the Verdict was not exercised by this case. A Verdict holds its per-answer lints
//! compactly (`lint_set`) and renders them when its expectations are read. The versions a
//! -32022 answer may name are the Verdict's, once (`NamedVersions`); its answers are read
//! with them through `named`.

mod answer;
mod lint_set;
mod named;

pub use answer::{Answer, DataRule, NamedVersions, Requested, StatusSet};
pub(crate) use lint_set::{LintKind, LintSet};
pub use named::Named;

use crate::inline_text::InlineText;
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules::RuleId;
use crate::stream::StreamLint;
use crate::surface::Surface;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::Value;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::fmt;

/// A property every answer to this case must have.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Lint {
    /// No `Mcp-Session-Id` response header.
    NoSessionId,
    /// A 2xx answer to a request, or any answer carrying a JSON-RPC response, is
    /// `application/json` or `text/event-stream` (DEVIATIONS.md D-28).
    RequestContentType,
    /// An SSE answer carries `X-Accel-Buffering: no`.
    SseXAccel,
    /// No message on an SSE stream is a JSON-RPC request.
    SseNoRequests,
    /// No error code in -32099..=-32020 other than the three defined ones.
    NoUndefinedReservedCode,
    /// Neither -32002 nor -32042.
    NoRetiredCode,
    /// No code in -32019..=-32000.
    NoLegacyRangeCode,
    /// Every `result` carries a string `resultType`.
    ResultType,
    /// Every `error` has an integer `code` and a string `message`.
    ErrorShape,
    /// A success response's `id` equals the request id (value and JSON type).
    ResultIdEcho(RequestId),
    /// An error response's `id` equals the request id; a 403 body may carry none ("The HTTP
    /// response body MAY comprise a JSON-RPC error response that has no `id`"). `may_omit`
    /// allowed an id-less error whenever the media headers were off; DEVIATIONS.md D-32 was
    /// narrowed (a well-formed request's id "could" be read), so the judges
    /// always set it false; the field stays so stored verdicts keep their shape.
    ErrorIdEcho { id: RequestId, may_omit: bool },
    /// Every result's `_meta` has `io.modelcontextprotocol/serverInfo` with name and version.
    ServerInfo,
    /// An error answer (an HTTP error status or a JSON-RPC error) names every one of these
    /// versions, i.e. each appears in its body text (VER-INIT-NAMES-VERSIONS: a modern-only
    /// server's errors to `initialize`).
    NamesVersions(Vec<String>),
    /// A 405 answer carries an `Allow` header (RFC 9110 §15.5.6).
    AllowOn405,
    /// No JSON-RPC response (a result, or an error carrying an id) to a notification.
    NoResponseToNotification,
    /// A rule about the events of an SSE answer (`crate::stream`), with what the request
    /// asked of its stream.
    Stream(Box<StreamLint>),
    /// A result passes this content check (`crate::content`: what the server publishes).
    Content(crate::content::ContentCheck),
    /// A tool result that is not an execution error carries `structuredContent` conforming
    /// to this `outputSchema` (TOOLS-OUTPUT-CONFORM).
    OutputConforms(crate::content::SharedSchema),
    /// A whole `tools/list` result with the set of tools discovery saw lists them in the
    /// order discovery saw (TOOLS-ORDER).
    ToolOrder(crate::content::ListOrder),
    /// Every tool a `tools/list` result lists has `x-mcp-header` annotations that meet the
    /// constraints (`annotations::publishable`; TOOLS-XMCP-CONSTRAINTS, D-37).
    ToolAnnotationsValid,
    // base-protocol shape and multi-round requests (`crate::shape`; issue 23)
    /// Every error's `code`, when present, is an integer (BASE-ERROR-INT, D-160).
    ErrorInt,
    /// No error code in -32768..=-32100 other than the JSON-RPC ones (BASE-ERRCODE-APP-RANGE,
    /// D-161).
    NoNewReservedCode,
    /// Every key of a result's `_meta` and of each SSE notification's `params._meta` is a
    /// well-formed `_meta` key name (BASE-META-KEYS, D-162).
    MetaKeys,
    /// `traceparent`, `tracestate` and `baggage` in those `_meta` objects follow the W3C
    /// formats (BASE-TRACE-FORMAT, D-163).
    TraceContext,
    /// Every result's string `resultType` is `complete` or `input_required` (the target
    /// advertises no extension; BASE-RESULTTYPE-SET, D-164).
    KnownResultType,
    /// No `InputRequiredResult` (the request is not one of the three that may get one;
    /// MRTR-ONLY-SUPPORTED, D-165).
    InputRequiredUnsupported,
    /// An `InputRequiredResult` carries `inputRequests` or `requestState` (MRTR-ATLEASTONE).
    InputRequiredCarries,
    /// An `InputRequiredResult`'s `inputRequests` holds only elicitation, sampling and roots
    /// requests (MRTR-VALUE-TYPES, D-165).
    InputRequestTypes,
    /// No notification on an SSE answer carries an `id` (BASE-NOTIF-NO-ID, D-166).
    NotificationNoId,
    /// Every extension identifier a `server/discover` result advertises is a prefixed `_meta`
    /// key name (VER-EXT-IDS, D-162).
    ExtensionIds,
    /// Every JSON-RPC message of the answer carries `"jsonrpc": "2.0"` (BASE-JSONRPC, D-168).
    JsonRpcVersion,
    /// No response to the request carries neither `result` nor `error` (BASE-RESULT-FIELD,
    /// D-170).
    ResultField,
    /// No `inputRequests` object in the answer's text names a member twice
    /// (`WireFields::duplicate_input_keys`; MRTR-KEYS-UNIQUE, D-171).
    InputKeysUnique,
    /// No -32021 refusal whose `data.requiredCapabilities` names only capabilities the
    /// request declared (bits of `shape::capabilities`; BASE-ERRCODE-MEANING, D-172).
    CapabilityCodeMeaning { declared: u8 },
    /// A -32021 refusal has status 400 and a non-empty object `data.requiredCapabilities`
    /// (BASE-MISSING-CAP-32021, D-173).
    MissingCapabilityShape,
    /// An `InputRequiredResult`'s `inputRequests` asks only for capabilities the request
    /// declared (bits of `shape::capabilities`; MRTR-NO-UNDECLARED, D-174).
    NoUndeclaredInput { declared: u8 },
    /// Every result's string `resultType` is a core one, `complete` or `input_required`: the
    /// target advertises an extension the request's client capabilities do not declare, so
    /// it reverts to core behaviour or refuses (VER-EXT-FALLBACK, D-183).
    ExtensionFallback,
    /// A page's string `cacheScope` is the one the list's first page carried
    /// (CACHE-SCOPE-PAGES, D-142).
    PageScope(String),
    /// No `notifications/message` on the answer: the target did not declare `logging`
    /// (LOG-CAP-DECLARE, D-144).
    NoUndeclaredLog,
}

/// A set of acceptable answers, inline up to four (nearly every set): building a Verdict
/// allocates no set of its own.
pub type AnswerSet = SmallVec<[Answer; 4]>;

/// What one rule demands of the answer (serialized with its Verdict's versions: `Named`).
#[derive(Clone, Debug, PartialEq)]
pub enum Demand {
    /// The answer must match one of these.
    OneOf(AnswerSet),
    /// The answer must satisfy this property.
    Lint(Lint),
}

/// One triggered rule and what it allows (serialized with its Verdict's versions: `Named`).
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    pub rule: RuleId,
    pub demand: Demand,
}

/// The single answer the reference server gives (always inside the Verdict).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Canonical {
    /// Answer with this status and, when `code` is set, a JSON-RPC error.
    Reject {
        status: u16,
        code: Option<i64>,
        /// `None`: the error carries no `id` member.
        id: Option<RequestId>,
        data: Option<RejectData>,
        message: Message,
    },
    /// `202 Accepted`, empty body.
    Accepted,
    /// `405 Method Not Allowed` with `Allow: POST`.
    MethodNotAllowed,
    /// The request is valid: run the method against the fixture and answer its result.
    Dispatch,
}

/// The `data` of a canonical JSON-RPC error.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum RejectData {
    /// -32022: the surface's supported versions and the one requested.
    UnsupportedVersion { requested: InlineText },
}

impl RejectData {
    /// The `data` member, for a target declaring `surface` (the one the case was judged for).
    pub fn to_value(&self, surface: &Surface) -> Value {
        match self {
            RejectData::UnsupportedVersion { requested } => serde_json::json!({
                "supported": surface.supported_versions,
                "requested": requested,
            }),
        }
    }
}

/// A Verdict's expectations after its lints, inline up to three: most Verdicts have no more,
/// and then allocate nothing for them (0.81 allocations per Verdict on the runner's mix, 2.06
/// with a `Vec`; an inline fourth cost more in copying the Verdict than it saved, by
/// callgrind; props/tests/judge_allocations.rs).
pub(crate) type Listed = SmallVec<[Expectation; 3]>;

/// The oracle's answer for one case: its expectations (the per-answer lints first, then the
/// rest in the order the judge found them) and the canonical answer.
///
/// The lints are held compactly (`LintSet`) and rendered when read: read the expectations
/// through [`Verdict::expectations`] (all of them) or [`Verdict::answer_sets`] (the answer
/// sets alone). It serializes as `{"expectations": [...], "canonical": ...}`, and compares
/// (`==`) with the versions its -32022 answers name read as texts (`named`).
#[derive(Clone)]
pub struct Verdict {
    lints: LintSet,
    /// The expectations after the lints: the lints that carry data, and every answer set.
    listed: Listed,
    pub canonical: Canonical,
    /// The versions the -32022 answers name (`Requested`); only a Verdict holding one has
    /// them (boxed: rare, and the Verdict is moved whole).
    versions: Option<Box<NamedVersions>>,
}

impl Verdict {
    /// A Verdict holding exactly `expectations`, in this order (naming no versions: see
    /// `with_versions`).
    pub fn new(expectations: Vec<Expectation>, canonical: Canonical) -> Verdict {
        Verdict {
            lints: LintSet::default(),
            listed: Listed::from_vec(expectations),
            canonical,
            versions: None,
        }
    }

    /// This Verdict with `versions` for the `Requested` of its -32022 answers.
    pub fn with_versions(mut self, versions: Option<NamedVersions>) -> Verdict {
        self.versions = versions.map(Box::new);
        self
    }

    /// The judge's Verdict: `lints` first, then `listed`.
    pub(crate) fn from_parts(
        lints: LintSet,
        listed: Listed,
        canonical: Canonical,
        versions: Option<Box<NamedVersions>>,
    ) -> Verdict {
        Verdict {
            lints,
            listed,
            canonical,
            versions,
        }
    }

    /// The versions the `Requested` of this Verdict's -32022 answers pick from.
    pub fn versions(&self) -> Option<&NamedVersions> {
        self.versions.as_deref()
    }

    /// `item`, a part of this Verdict, read with its versions.
    pub fn named<'v, T: ?Sized>(&'v self, item: &'v T) -> Named<'v, T> {
        Named::new(item, self.versions())
    }

    /// Every expectation, in order (the compact lints rendered, the rest borrowed).
    pub fn expectations(&self) -> impl Iterator<Item = Cow<'_, Expectation>> + '_ {
        let lints = self.lints.iter().map(|(rule, l)| {
            Cow::Owned(Expectation {
                rule,
                demand: Demand::Lint(l),
            })
        });
        lints.chain(self.listed.iter().map(Cow::Borrowed))
    }

    /// Every expectation as one list to serialize (read with this Verdict's versions), as the
    /// Verdict's `expectations` member.
    pub fn serialized_expectations(&self) -> impl Serialize + '_ {
        AllExpectations(self)
    }

    /// The answer-set expectations (`Demand::OneOf`) with their rules, in order.
    pub fn answer_sets(&self) -> impl Iterator<Item = (RuleId, &AnswerSet)> + '_ {
        self.listed.iter().filter_map(|e| match &e.demand {
            Demand::OneOf(set) => Some((e.rule, set)),
            Demand::Lint(_) => None,
        })
    }

    /// Add an expectation after the others.
    pub fn push(&mut self, e: Expectation) {
        self.listed.push(e);
    }

    /// Drop every expectation (the canonical answer stays).
    pub fn clear_expectations(&mut self) {
        self.lints = LintSet::default();
        self.listed.clear();
    }

    /// The rules this case exercises (a rule with several expectations comes once for each).
    pub fn rules(&self) -> impl Iterator<Item = RuleId> + '_ {
        let lints = self.lints.iter().map(|(rule, _)| rule);
        lints.chain(self.listed.iter().map(|e| e.rule))
    }

    /// The rules this case exercises that `obs` observed: every rule of `rules()` except a
    /// stream rule whose answer carried nothing it speaks of (a JSON answer, a stream with no
    /// progress: `crate::stream::observed`) and a content check whose result carried nothing
    /// it speaks of (no blob, image or embedded resource), which are neither a pass nor a
    /// failure.
    pub fn observed_rules<'v>(
        &'v self,
        obs: &'v crate::observation::Observation,
    ) -> impl Iterator<Item = RuleId> + 'v {
        self.expectations().filter_map(move |e| match &e.demand {
            Demand::Lint(Lint::Stream(l)) => obs
                .http()
                .is_some_and(|a| crate::stream::observed(l, a))
                .then_some(e.rule),
            // a content check about a blob, an image or an embedded resource: observed only
            // on a result that carries one (`ContentCheck::observed`, D-121)
            Demand::Lint(Lint::Content(c)) if c.answer_dependent() => obs
                .http()
                .and_then(|a| a.rpc_response())
                .and_then(|r| r.get("result"))
                .is_some_and(|r| c.observed(r))
                .then_some(e.rule),
            _ => Some(e.rule),
        })
    }

    pub fn triggers(&self, rule: RuleId) -> bool {
        self.rules().any(|r| r == rule)
    }
}

/// As the expectations it lists, rendered, its canonical answer and its versions.
impl fmt::Debug for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verdict")
            .field("expectations", &AllExpectations(self))
            .field("canonical", &self.canonical)
            .field("versions", &self.versions)
            .finish()
    }
}

/// As `{"expectations": [...], "canonical": ...}`, the lints rendered.
impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Verdict", 2)?;
        st.serialize_field("expectations", &AllExpectations(self))?;
        st.serialize_field("canonical", &self.canonical)?;
        st.end()
    }
}

/// The expectations of a Verdict as one list (for `Debug` and `Serialize`).
struct AllExpectations<'v>(&'v Verdict);

impl Serialize for AllExpectations<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // (the length hint as `collect_seq` gives it)
        let all = self.0.expectations();
        let len = match all.size_hint() {
            (lo, Some(hi)) if lo == hi => Some(lo),
            _ => None,
        };
        let mut seq = s.serialize_seq(len)?;
        for e in all {
            seq.serialize_element(&self.0.named(&*e))?;
        }
        seq.end()
    }
}

impl fmt::Debug for AllExpectations<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.expectations()).finish()
    }
}
