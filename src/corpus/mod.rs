//! The regression corpus (`corpus/`, schema `mcpdiff-corpus/1`, see `corpus/README.md`): one
//! JSON file per minimized case, named `<RULE-ID>-<hash>.json`, replayed in CI.
//!
//! Files: `entry.rs` (the format: request bytes, verdict, per-target answers, hash and file
//! name), `store.rs` (reading and merging files), `replay.rs` (re-judging and classifying,
//! pure), `build.rs` (entries from the probe set, from a run, from fuzz inputs).

pub mod build;
pub mod entry;
pub mod replay;
pub mod store;

pub use build::{import_files, save_run, seed_entries};
pub use entry::{case_hash, file_name, verdict_json, Entry, Recorded, Request, SurfaceRef, SCHEMA};
pub use replay::{classify, rejudge, Rejudged, Status};
pub use store::{load_all, load_dir, load_file, save, LoadError, Loaded, Saved};
