//! Reports of a run: the versioned JSON result (`--json`, types in `json`) and the terminal
//! summary. Both read a `RunReport`, built once from the runner's `RunResult` (`build`), so
//! every renderer shows the same facts. The richer renderers (Markdown, JUnit, HTML) read
//! only the `RunReport`, so `mcpdiff report r.json` renders a saved run exactly like a live
//! one; `review` holds what they share (sections, cell verdicts, "why it matters").

pub mod build;
pub mod client_matrix;
pub mod clients;
pub mod html;
mod html_escape;
mod html_revisions;
pub mod json;
pub mod junit;
pub mod legacy_view;
pub mod markdown;
mod markdown_revisions;
pub mod merge;
mod merge_error;
pub mod review;
pub mod revisions;
pub mod sarif;
mod sarif_legacy;
pub mod sarif_rules;
pub mod tally_report;
pub mod terminal;
pub mod tls_report;
pub mod undetermined;

pub use build::build;
pub use json::RunReport;
