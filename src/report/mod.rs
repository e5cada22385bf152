//! Reports of a run: the versioned JSON result (`--json`) and the terminal summary. Both
//! read a `RunReport`, built once from the runner's `RunResult`, so every renderer shows
//! the same facts. The richer renderers (Markdown, JUnit, HTML) read the JSON.

pub mod json;
pub mod terminal;

pub use json::{build, RunReport};
