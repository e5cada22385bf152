//! `RequestView`: everything the judge's rules read about one request, and nothing they
//! decide. Two readers produce it (`read::read_fast`, the borrowed scanner the judge runs,
//! and `read::read_simple`, a plain `serde_json::Value` reading kept as its differential
//! twin); the rules in the sibling modules are written once, against this view.
//!
//! A view holds facts as the server's HTTP and JSON layers see them: header fields by
//! canonical name (trimmed of OWS, or repeated), the `Mcp-Param-*` fields in order, the shape
//! quirks of the mirrored header names, and the JSON-RPC envelope of the body with the
//! `params` members the rules compare headers with.

pub use super::rare::{CompletionView, InputResponsesView, CONFORMANT_CLIENT};
use super::read::arguments::Arguments;
use crate::case::HeaderField;
use crate::encoding::field_words::same_bytes;
use crate::request_id::RequestId;
use crate::soft_params::LogLevel;
use smallvec::SmallVec;
use std::borrow::Cow;

/// One request as the rules read it.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestView<'a> {
    /// The request target without its query.
    pub path: &'a str,
    /// The HTTP method, as sent.
    pub verb: &'a str,
    /// The body's bytes, as sent (read again only by the rare checks no reader notes a
    /// member for: the client's declared extensions, D-183).
    pub raw_body: &'a [u8],
    pub headers: HeaderView<'a>,
    /// The body's JSON-RPC envelope (read whatever the verb).
    pub body: BodyView<'a>,
    /// The body nests arrays and objects deeper than `case::NESTING_LIMIT`.
    pub nesting_beyond: bool,
}

/// A way a mirrored or `Mcp-Param-*` header departs in shape, not meaning, from what a
/// conformant client sends (P-BENIGN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderQuirk {
    /// The name is spelled in another case than the spec's (`mcp-method`).
    NameCase,
    /// The value has leading or trailing SP/HTAB.
    Padding,
}

/// The header fields the rules read.
#[derive(Clone, Debug, PartialEq)]
pub struct HeaderView<'a> {
    pub origin: HeaderField<'a>,
    pub content_type: HeaderField<'a>,
    pub accept: HeaderField<'a>,
    pub protocol_version: HeaderField<'a>,
    pub method: HeaderField<'a>,
    pub name: HeaderField<'a>,
    pub session_id: HeaderField<'a>,
    pub last_event_id: HeaderField<'a>,
    /// Every field named `Mcp-Param-*` (any case, non-empty suffix), in order: its name as
    /// sent and its value with OWS trimmed.
    pub params: SmallVec<[(&'a [u8], &'a [u8]); 4]>,
    /// A field an HTTP parser may refuse on its own: a name that is not a token, or a value
    /// with control bytes other than HTAB (or DEL).
    pub parser_refusable: bool,
    /// Every value (OWS trimmed) of a mirrored (`MCP-Protocol-Version`, `Mcp-Method`,
    /// `Mcp-Name`, any case) or `Mcp-Param-*` field is visible ASCII or SP: none holds an
    /// invalid character, and the rules need not look (the reader saw every byte already).
    pub mirrored_visible: bool,
    /// The quirks of the mirrored and `Mcp-Param-*` fields, each once, in the order their
    /// first field appears.
    pub quirks: SmallVec<[HeaderQuirk; 2]>,
}

/// No field at all (a reader fills it in place).
impl Default for HeaderView<'_> {
    fn default() -> Self {
        HeaderView {
            origin: HeaderField::Absent,
            content_type: HeaderField::Absent,
            accept: HeaderField::Absent,
            protocol_version: HeaderField::Absent,
            method: HeaderField::Absent,
            name: HeaderField::Absent,
            session_id: HeaderField::Absent,
            last_event_id: HeaderField::Absent,
            params: SmallVec::new(),
            parser_refusable: false,
            mirrored_visible: true,
            quirks: SmallVec::new(),
        }
    }
}

const PARAM_PREFIX: &[u8] = b"mcp-param-";

/// Whether `name`, known to be `Mcp-Param-*` (any case), is `Mcp-Param-{header}`.
pub(crate) fn param_suffix_is(name: &[u8], header: &str) -> bool {
    if name.len() != PARAM_PREFIX.len() + header.len() {
        return false;
    }
    // (clients send the annotation's own spelling: one compare, case folding only after)
    let suffix = &name[PARAM_PREFIX.len()..];
    same_bytes(suffix, header.as_bytes()) || suffix.eq_ignore_ascii_case(header.as_bytes())
}

impl<'a> HeaderView<'a> {
    /// The field `Mcp-Param-{header}`, as `Case::header` would give it.
    pub fn param(&self, header: &str) -> HeaderField<'a> {
        let mut field = HeaderField::Absent;
        for (n, v) in &self.params {
            // (every name here is `Mcp-Param-*` already: only the rest is compared)
            if param_suffix_is(n, header) {
                field = field.and_another(v);
            }
        }
        field
    }

    /// Some field is named `Mcp-Param-*`.
    pub fn any_param(&self) -> bool {
        !self.params.is_empty()
    }
}

/// The JSON-RPC envelope of a POST body.
// a request's view is the common case and lives on the stack: boxing it would cost the
// judge a heap allocation per request (props/tests/judge_allocations.rs)
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum BodyView<'a> {
    Request(RequestBody<'a>),
    Notification,
    /// Something the spec gives no server rule for (US-PARSE, US-BATCH, US-NOTRPC,
    /// US-RESPONSE-BODY).
    Unusable(Unusable),
}

/// Why a body is not a request or a notification, as the conventional JSON-RPC refusal.
#[derive(Clone, Debug, PartialEq)]
pub struct Unusable {
    /// -32700 (not JSON) or -32600 (not a request).
    pub code: i32,
    /// The id, when it was readable.
    pub id: Option<RequestId>,
    pub message: &'static str,
}

pub(crate) const PARSE_ERROR: &str = "Parse error";
pub(crate) const NOT_OBJECT: &str = "Invalid Request: not a single JSON-RPC object";
pub(crate) const BAD_ID: &str = "Invalid Request: bad id";
pub(crate) const BAD_JSONRPC: &str = "Invalid Request: jsonrpc must be \"2.0\"";
pub(crate) const NO_METHOD: &str = "Invalid Request: no method";
pub(crate) const NOT_REQUEST: &str = "Invalid Request: not a request";

/// The methods the revision defines for clients to send (schema.json ClientRequest), named
/// once by the reader so the rules branch on a byte, not on string compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modern {
    Discover,
    ToolsList,
    ToolsCall,
    ResourcesList,
    ResourcesRead,
    TemplatesList,
    PromptsList,
    PromptsGet,
    Complete,
    Listen,
}

impl Modern {
    /// The modern method `m` names, if any.
    pub fn of(m: &str) -> Option<Modern> {
        Some(match m {
            "server/discover" => Modern::Discover,
            "tools/list" => Modern::ToolsList,
            "tools/call" => Modern::ToolsCall,
            "resources/list" => Modern::ResourcesList,
            "resources/read" => Modern::ResourcesRead,
            "resources/templates/list" => Modern::TemplatesList,
            "prompts/list" => Modern::PromptsList,
            "prompts/get" => Modern::PromptsGet,
            "completion/complete" => Modern::Complete,
            "subscriptions/listen" => Modern::Listen,
            _ => return None,
        })
    }

    /// One of the paginated list methods (pagination.mdx; `crate::pages::LIST_METHODS`).
    pub fn is_list(self) -> bool {
        matches!(
            self,
            Modern::ToolsList | Modern::ResourcesList | Modern::TemplatesList | Modern::PromptsList
        )
    }

    /// One of the requests that «MAY» be answered with an `InputRequiredResult`
    /// (`crate::shape::input_required::SUPPORTED`).
    pub fn may_require_input(self) -> bool {
        matches!(
            self,
            Modern::PromptsGet | Modern::ResourcesRead | Modern::ToolsCall
        )
    }
}

/// A readable request.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestBody<'a> {
    /// An integer or string id.
    pub id: RequestId,
    pub method: Cow<'a, str>,
    /// The modern method `method` names (`Modern::of`), if any.
    pub kind: Option<Modern>,
    /// `params` when it is an object.
    pub params: Option<ParamsView<'a>>,
    /// `params` is present but not an object.
    pub params_malformed: bool,
}

/// The members of `params` the rules read.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamsView<'a> {
    /// `name`, when it is a string.
    pub name: Option<Cow<'a, str>>,
    /// `uri`, when it is a string.
    pub uri: Option<Cow<'a, str>>,
    /// `_meta`'s `io.modelcontextprotocol/protocolVersion`, when `_meta` is an object and
    /// the version a string.
    pub version: Option<Cow<'a, str>>,
    /// `_meta`'s `io.modelcontextprotocol/clientCapabilities` is an object.
    pub capabilities: bool,
    /// Which of `elicitation`, `sampling` and `roots` that object declares
    /// (`shape::capabilities`; 0 when it is no object).
    pub input_caps: u8,
    /// `_meta` is an object holding an `io.modelcontextprotocol/clientInfo` that is not the
    /// schema's `Implementation` (an object with string `name` and `version`).
    pub client_info_malformed: bool,
    /// `_meta` is an object holding a well-formed `io.modelcontextprotocol/clientInfo` whose
    /// `name` is not the conformant client's (`rare::CONFORMANT_CLIENT`; D-194).
    pub client_info_foreign: bool,
    /// `inputResponses` (D-192, D-193).
    pub input_responses: InputResponsesView,
    /// A `completion/complete`'s `ref` and `argument` (`None` for every other method).
    pub completion: Option<CompletionView<'a>>,
    /// `arguments`, any JSON type.
    pub arguments: Option<Arguments<'a>>,
    /// The `cursor` member (pagination.mdx: a string the server issued).
    pub cursor: CursorView<'a>,
    /// `_meta`'s `io.modelcontextprotocol/logLevel`, when `_meta` is an object.
    pub log_level: LogLevel<'a>,
    /// `_meta`'s `progressToken`, when `_meta` is an object and the token a string or an
    /// integer (progress.mdx: "Progress tokens MUST be a string or integer value").
    pub progress_token: Option<RequestId>,
    /// A `subscriptions/listen` request's `notifications` filter (`crate::listen_filter::filter_of`);
    /// 0 for every other method (read only for listen requests, which are rare).
    pub listen_filter: u8,
}

/// A request's `params.cursor` member.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum CursorView<'a> {
    #[default]
    Absent,
    /// `null`: read by the oracle as no cursor sent, neither judged valid nor invalid.
    Null,
    Text(Cow<'a, str>),
    /// A number, a boolean, an object or an array: no cursor a server issues.
    Other,
}

impl CursorView<'_> {
    /// A `cursor` member is present.
    pub fn present(&self) -> bool {
        !matches!(self, CursorView::Absent)
    }
}

impl<'a> ParamsView<'a> {
    /// Member `key` (`name` or `uri`) when it is a string.
    pub fn get_str(&self, key: &str) -> Option<&str> {
        match key {
            "name" => self.name.as_deref(),
            "uri" => self.uri.as_deref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Modern;

    /// The method classes agree with the lists the spec's pages give by name.
    #[test]
    fn method_classes_are_the_named_lists() {
        let lists: Vec<&str> = crate::pages::LIST_METHODS.iter().map(|(m, _)| *m).collect();
        let inputs = crate::shape::input_required::SUPPORTED;
        let mut named = lists.clone();
        named.extend(inputs);
        named.extend([
            "server/discover",
            "completion/complete",
            "subscriptions/listen",
        ]);
        for m in &named {
            let kind = Modern::of(m).unwrap_or_else(|| panic!("{m} is a modern method"));
            assert_eq!(kind.is_list(), lists.contains(m), "{m}");
            assert_eq!(kind.may_require_input(), inputs.contains(m), "{m}");
        }
        assert_eq!(Modern::of("initialize"), None);
        assert_eq!(Modern::of("Tools/list"), None);
    }
}
