//! The regression corpus (`corpus/`, see `corpus/README.md`): one JSON file per minimized
//! case, named `<RULE-ID>-<hash>.json`, replayed in CI. Server cases are `mcpdiff-corpus/2`,
//! client cases (`CLIENT-*` rules) `mcpdiff-client-corpus/2` (both `/1` still read).
//!
//! Files: `entry.rs` (the server format: request bytes, verdict, per-target answers, hash and
//! file name), `entry_v1.rs` (entries of either `/1` read into today's form), `client.rs`
//! (the client format: served tools, per-client recordings and findings), `store.rs` (reading
//! either kind and merging files), `replay.rs` and `client_replay.rs` (re-judging, pure),
//! `build.rs` (server entries from the probe set, from a run, from fuzz inputs; client
//! entries from a run's client matrix), `error.rs` (`CorpusError`, the one-line errors of reading, re-judging, importing and
//! saving entries), `auth.rs` (a run's `AUTH-*` findings: judged by the
//! authorization judge, replayed as written), `legacy.rs` (2025-11-25 findings: sequences of
//! steps, `mcpdiff-legacy-corpus/1`, replayed step by step), `connection.rs` (a run's
//! connection-probe findings: the probe's whole sequence by connection, replayed the same way).

pub mod auth;
pub mod build;
pub mod client;
pub mod client_replay;
pub mod connection;
pub mod entry;
pub mod entry_v1;
pub mod error;
pub mod legacy;
pub mod replay;
pub mod store;

pub use build::{import_files, save_clients, save_legacy_run, save_run, seed_entries};
pub use client::{ClientEntry, CLIENT_SCHEMA};
pub use client_replay::rejudge_client;
pub use entry::{
    case_hash, file_name, verdict_json, Entry, Recorded, StoredRequest, SurfaceRef, SCHEMA,
};
pub use error::CorpusError;
pub use replay::{
    classify, classify_auth, classify_explained, explained_benign, rejudge, Rejudged, Status,
};
pub use store::{
    load_all, load_dir, load_file, load_item, save, save_client, save_legacy, ClientLoaded, Item,
    LegacyLoaded, LoadError, Loaded, Saved,
};
