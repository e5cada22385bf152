//! Per-answer shape checks of the base protocol (`basic/index.mdx`) and of multi-round
//! requests (`basic/patterns/mrtr.mdx`) that no answer set reads: the error code's type and
//! range, `_meta` key names and trace-context values, the `resultType` vocabulary, and the
//! members of an `InputRequiredResult`, and the `result` member of a result response. Each is a predicate on a parsed JSON value, used by
//! the per-answer lints of `check.rs`; pure and allocation-free.

pub mod capabilities;
pub mod codes;
pub mod input_keys;
pub mod input_required;
pub mod meta_keys;
pub mod result_field;
pub mod trace_context;
