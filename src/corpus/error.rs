//! `CorpusError`: why an entry could not be read into today's form, re-judged, imported or
//! saved. Each displays as the one line the CLI prints today (`mcpdiff corpus`, `replay`,
//! `run --save-corpus`), so the text is part of the interface. I/O and serde errors are kept
//! as their text so the error stays `Clone` and `PartialEq` for the tests that compare it.

use super::store::LoadError;
use std::fmt;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusError {
    /// A server entry without its `request` object.
    NoRequest,
    /// A field that must be a string is not; `why` finishes the sentence "`field` is ...".
    NotAString {
        field: String,
        why: &'static str,
    },
    /// A `/1` field whose Base64 does not decode.
    BadBase64 {
        field: String,
        error: String,
    },
    /// A byte field that does not read (or write) as today's bytes form.
    BadBytes {
        field: String,
        error: String,
    },
    /// `request.headers[index]` is not a `[name, value]` pair.
    NotAPair {
        index: usize,
    },
    /// A surface named by something other than `fixture`.
    UnknownSurface(String),
    /// An `AUTH-*` entry whose case carries no `auth: ...` label.
    NotAnAuthCase,
    /// A connection entry whose `connections` are not the sequence its rule's probe sends.
    NotAConnectionSequence(String),
    /// The entry would not serialize.
    Serialize(String),
    CreateDir {
        path: PathBuf,
        error: String,
    },
    Write {
        path: PathBuf,
        error: String,
    },
    Read {
        path: PathBuf,
        error: String,
    },
    /// The file a save would merge into does not load; it is left as it is.
    Existing(LoadError),
    /// A client entry's stable name is taken by a server entry.
    ServerEntryAt(PathBuf),
    /// The oracle panicked on an imported fuzz input.
    OraclePanics(PathBuf),
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorpusError::NoRequest => f.write_str("no \"request\" object"),
            CorpusError::NotAString { field, why } => write!(f, "{field} is {why}"),
            CorpusError::BadBase64 { field, error } => {
                write!(f, "{field} is not valid Base64: {error}")
            }
            CorpusError::BadBytes { field, error } => write!(f, "{field}: {error}"),
            CorpusError::NotAPair { index } => {
                write!(f, "request.headers[{index}] is not a [name, value] pair")
            }
            CorpusError::UnknownSurface(n) => {
                write!(f, "unknown surface name '{n}' (known: fixture)")
            }
            CorpusError::NotAnAuthCase => f.write_str(
                "an authorization entry whose case is no authorization probe nor metadata \
                 fetch (label `auth: ...`)",
            ),
            CorpusError::NotAConnectionSequence(rule) => write!(
                f,
                "a connection entry whose `connections` are not the sequence the {rule} probe \
                 sends (a fresh connection, the kept-alive one, and for a list fresh ones after it)"
            ),
            CorpusError::Serialize(e) => write!(f, "cannot serialize the entry: {e}"),
            CorpusError::CreateDir { path, error } => {
                write!(f, "cannot create {}: {error}", path.display())
            }
            CorpusError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            CorpusError::Read { path, error } => {
                write!(f, "{}: cannot read: {error}", path.display())
            }
            CorpusError::Existing(e) => write!(f, "{e} (not overwritten; fix or remove it)"),
            CorpusError::ServerEntryAt(path) => write!(f, "{}: a server entry", path.display()),
            CorpusError::OraclePanics(path) => write!(
                f,
                "{}: the oracle panics on this input; fix the oracle, then import it",
                path.display()
            ),
        }
    }
}

impl std::error::Error for CorpusError {}
