//! mcpdiff's oracle: the MCP 2026-07-28 Streamable HTTP server rules as a pure model.
//!
//! No I/O lives here: no sockets, clocks or files. Given a raw request ([`Case`]) and what the
//! target declares ([`Surface`]), [`judge`] returns a [`Verdict`]: every triggered rule with
//! the set of answers it allows, and one canonical answer. [`check`] compares what a target
//! did ([`Observation`]) with a Verdict and returns [`Finding`]s. [`assess`] is the three
//! steps callers take on an answer: judge, check, then settle what a cut answer left open.

pub mod annotations;
pub mod assess;
pub mod auth;
pub mod case;
pub mod case_json;
pub mod check;
pub mod client;
pub mod client_judge;
pub mod connection_seq;
pub mod content;
mod describe;
pub mod encoding;
pub mod fixture;
pub mod inline_text;
pub mod input_check;
pub mod isolation;
pub mod judge;
pub mod legacy;
pub mod list_stable;
pub mod listen_filter;
pub mod message;
pub mod observation;
pub mod pages;
pub mod reference;
pub mod request_id;
pub mod reuse;
pub mod rules;
pub mod shape;
pub mod shared_schema;
pub mod signature;
pub mod soft_params;
pub mod stream;
pub mod surface;
mod swar;
pub mod toolset;
pub mod traversal;
pub mod undetermined;
pub mod verdict;

pub use assess::{assess, assess_against, Assessment, Settled};
pub use case::{Case, HeaderField};
pub use check::{check, Finding};
pub use inline_text::InlineText;
pub use judge::judge;
pub use message::Message;
pub use observation::{Body, HttpAnswer, Observation, SseMessage, TransportFailure, WireFields};
pub use request_id::RequestId;
pub use rules::{Level, Revision, Rule, RuleId, Severity, LEGACY_RULES, RULES};
pub use surface::{Capabilities, Surface, ToolDecl};
pub use undetermined::{settle, Undetermined};
pub use verdict::{
    Answer, AnswerSet, Canonical, DataRule, Demand, Expectation, Lint, Named, NamedVersions,
    RejectData, Requested, StatusSet, Verdict,
};
