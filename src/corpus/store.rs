//! Corpus files on disk: reading one file or a folder (every bad file becomes an error that
//! names the file and the problem, and the others still load), and saving an entry under its
//! stable name, merging with what is already there so repeated runs never duplicate a case.
//! A folder may mix server entries (`mcpdiff-corpus/2`, or `/1`) and client entries
//! (`mcpdiff-client-corpus/2`, or `/1`); the `schema` field says which a file is ([`Item`]).

use super::client::{ClientEntry, CLIENT_SCHEMA, CLIENT_SCHEMA_V1};
use super::entry::{Entry, SCHEMA, SCHEMA_V1};
use super::error::CorpusError;
use super::legacy::{LegacyEntry, LEGACY_SCHEMA};
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// A corpus file that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub path: PathBuf,
    pub problem: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

/// One corpus file, read and checked.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub path: PathBuf,
    pub entry: Entry,
}

/// One client corpus file, read and checked.
#[derive(Clone, Debug)]
pub struct ClientLoaded {
    pub path: PathBuf,
    pub entry: ClientEntry,
}

/// One legacy (2025-11-25 sequence) corpus file, read and checked.
#[derive(Clone, Debug)]
pub struct LegacyLoaded {
    pub path: PathBuf,
    pub entry: LegacyEntry,
}

/// A corpus file of any kind.
#[derive(Clone, Debug)]
pub enum Item {
    Server(Loaded),
    Client(ClientLoaded),
    /// A 2025-11-25 sequence (`corpus::legacy`).
    Legacy(LegacyLoaded),
}

impl Item {
    pub fn path(&self) -> &Path {
        match self {
            Item::Server(l) => &l.path,
            Item::Client(l) => &l.path,
            Item::Legacy(l) => &l.path,
        }
    }

    /// The name the entry should be stored under (the file's own name when it is current).
    pub fn expected_name(&self) -> Result<String, CorpusError> {
        match self {
            Item::Server(l) => l.entry.file_name(),
            Item::Client(l) => Ok(l.entry.file_name()),
            Item::Legacy(l) => Ok(l.entry.file_name()),
        }
    }
}

fn read_json(path: &Path) -> Result<Value, LoadError> {
    let err = |problem: String| LoadError {
        path: path.to_path_buf(),
        problem,
    };
    let text = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    serde_json::from_slice(&text).map_err(|e| err(format!("not JSON: {e}")))
}

/// Read and check one file of either kind, by its `schema` field.
pub fn load_item(path: &Path) -> Result<Item, LoadError> {
    let value = read_json(path)?;
    match value.get("schema").and_then(Value::as_str) {
        Some(CLIENT_SCHEMA | CLIENT_SCHEMA_V1) => client_from_value(path, value).map(Item::Client),
        Some(LEGACY_SCHEMA) => legacy_from_value(path, value).map(Item::Legacy),
        _ => server_from_value(path, value).map(Item::Server),
    }
}

fn client_from_value(path: &Path, mut value: Value) -> Result<ClientLoaded, LoadError> {
    let err = |problem: String| LoadError {
        path: path.to_path_buf(),
        problem,
    };
    super::entry_v1::upgrade_client(&mut value).map_err(|e| err(e.to_string()))?;
    let entry: ClientEntry = serde_json::from_value(value)
        .map_err(|e| err(format!("not a {CLIENT_SCHEMA} entry: {e}")))?;
    for (i, c) in entry.clients.iter().enumerate() {
        c.recording(&format!("clients[{i}]"))
            .map_err(|e| err(e.to_string()))?;
    }
    if entry.rules.is_empty() {
        return Err(err("\"rules\" is empty".into()));
    }
    Ok(ClientLoaded {
        path: path.to_path_buf(),
        entry,
    })
}

fn legacy_from_value(path: &Path, value: Value) -> Result<LegacyLoaded, LoadError> {
    let err = |problem: String| LoadError {
        path: path.to_path_buf(),
        problem,
    };
    let entry: LegacyEntry = serde_json::from_value(value)
        .map_err(|e| err(format!("not a {LEGACY_SCHEMA} entry: {e}")))?;
    if entry.rules.is_empty() || entry.steps.is_empty() {
        return Err(err("\"rules\" or \"steps\" is empty".into()));
    }
    Ok(LegacyLoaded {
        path: path.to_path_buf(),
        entry,
    })
}

/// Read and check one server file: JSON, the known schema id, decodable bytes, a known
/// surface.
pub fn load_file(path: &Path) -> Result<Loaded, LoadError> {
    server_from_value(path, read_json(path)?)
}

fn server_from_value(path: &Path, mut value: Value) -> Result<Loaded, LoadError> {
    let err = |problem: String| LoadError {
        path: path.to_path_buf(),
        problem,
    };
    // the schema id first, so a future version gets a clear message instead of a field error
    match value.get("schema").and_then(Value::as_str) {
        Some(SCHEMA | SCHEMA_V1) => {}
        Some(other) => {
            return Err(err(format!(
                "unknown schema '{other}' (this mcpdiff reads {SCHEMA}, {SCHEMA_V1}, \
                 {CLIENT_SCHEMA} and {LEGACY_SCHEMA})"
            )))
        }
        None => return Err(err(format!("no \"schema\" field (expected \"{SCHEMA}\")"))),
    }
    super::entry_v1::upgrade(&mut value).map_err(|e| err(e.to_string()))?;
    let entry: Entry =
        serde_json::from_value(value).map_err(|e| err(format!("not a {SCHEMA} entry: {e}")))?;
    entry.request.to_case().map_err(|e| err(e.to_string()))?;
    entry.surface.resolve().map_err(|e| err(e.to_string()))?;
    if entry.rules.is_empty() {
        return Err(err("\"rules\" is empty".into()));
    }
    Ok(Loaded {
        path: path.to_path_buf(),
        entry,
    })
}

/// The `.json` files of `dir` (sorted, so output order is stable), each loaded or an error.
/// Err only when the folder itself cannot be listed.
pub fn load_dir(dir: &Path) -> Result<Vec<Result<Item, LoadError>>, LoadError> {
    let listing = std::fs::read_dir(dir).map_err(|e| LoadError {
        path: dir.to_path_buf(),
        problem: format!("cannot list the folder: {e}"),
    })?;
    let mut paths: Vec<PathBuf> = listing
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    Ok(paths.iter().map(|p| load_item(p)).collect())
}

/// Load every corpus file under `paths` (files or folders).
pub fn load_all(paths: &[PathBuf]) -> Vec<Result<Item, LoadError>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            match load_dir(p) {
                Ok(v) => out.extend(v),
                Err(e) => out.push(Err(e)),
            }
        } else {
            out.push(load_item(p));
        }
    }
    out
}

/// The text an entry is written as: pretty JSON with a final newline (stable, diffable).
pub fn to_text<T: serde::Serialize>(entry: &T) -> Result<String, CorpusError> {
    serde_json::to_string_pretty(entry)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| CorpusError::Serialize(e.to_string()))
}

/// Write `entry` (of either kind) to `path` as is.
pub fn write<T: serde::Serialize>(path: &Path, entry: &T) -> Result<(), CorpusError> {
    let text = to_text(entry)?;
    // redacted: a target may echo a --header secret into an observation (crate::secrets)
    crate::secrets::write(path, &text).map_err(|e| CorpusError::Write {
        path: path.to_path_buf(),
        error: e.to_string(),
    })
}

/// What `save` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    Created,
    /// The file existed; new target answers were merged in.
    Updated,
    /// The file existed with the same content.
    Unchanged,
}

/// Save `entry` in `dir` under its stable name. An existing file for the same case and rule
/// keeps its verdict, rules and source (drift is `replay`'s business); the target answers of
/// `entry` are merged in. A corrupt existing file is an error, never overwritten.
pub fn save(dir: &Path, entry: &Entry) -> Result<(PathBuf, Saved), CorpusError> {
    create_dir(dir)?;
    let path = dir.join(entry.file_name()?);
    if !path.exists() {
        write(&path, entry)?;
        return Ok((path, Saved::Created));
    }
    let existing = load_file(&path).map_err(CorpusError::Existing)?.entry;
    merge_into(path, existing, |e| {
        for r in &entry.targets {
            e.record(r.clone());
        }
        add_rules(&mut e.rules, &entry.rules);
    })
}

/// Save a client entry in `dir` under its stable name, like [`save`]: an existing file keeps
/// its findings (drift is `replay`'s business) and gains the clients' records of `entry`
/// (a client recorded again replaces its old record when it did something else).
pub fn save_client(dir: &Path, entry: &ClientEntry) -> Result<(PathBuf, Saved), CorpusError> {
    create_dir(dir)?;
    let path = dir.join(entry.file_name());
    if !path.exists() {
        write(&path, entry)?;
        return Ok((path, Saved::Created));
    }
    let existing = match load_item(&path) {
        Ok(Item::Client(l)) => l.entry,
        Ok(Item::Server(_) | Item::Legacy(_)) => return Err(CorpusError::ServerEntryAt(path)),
        Err(e) => return Err(CorpusError::Existing(e)),
    };
    merge_into(path, existing, |e| {
        for c in &entry.clients {
            e.record(c.clone());
        }
        add_rules(&mut e.rules, &entry.rules);
    })
}

/// Save a legacy entry in `dir` under its stable name, like [`save`]: an existing file keeps
/// its steps and expectation and gains the target records of `entry`.
pub fn save_legacy(dir: &Path, entry: &LegacyEntry) -> Result<(PathBuf, Saved), CorpusError> {
    create_dir(dir)?;
    let path = dir.join(entry.file_name());
    if !path.exists() {
        write(&path, entry)?;
        return Ok((path, Saved::Created));
    }
    let existing = match load_item(&path) {
        Ok(Item::Legacy(l)) => l.entry,
        Ok(_) => return Err(CorpusError::ServerEntryAt(path)),
        Err(e) => return Err(CorpusError::Existing(e)),
    };
    merge_into(path, existing, |e| {
        for r in &entry.targets {
            e.record(r.clone());
        }
        add_rules(&mut e.rules, &entry.rules);
    })
}

/// The common tail of [`save`] and [`save_client`]: fold the new records into the stored
/// entry with `merge`, and rewrite the file only when that changed it.
fn merge_into<E: Clone + PartialEq + serde::Serialize>(
    path: PathBuf,
    mut existing: E,
    merge: impl FnOnce(&mut E),
) -> Result<(PathBuf, Saved), CorpusError> {
    let before = existing.clone();
    merge(&mut existing);
    if existing == before {
        return Ok((path, Saved::Unchanged));
    }
    write(&path, &existing)?;
    Ok((path, Saved::Updated))
}

fn create_dir(dir: &Path) -> Result<(), CorpusError> {
    std::fs::create_dir_all(dir).map_err(|e| CorpusError::CreateDir {
        path: dir.to_path_buf(),
        error: e.to_string(),
    })
}

/// `rules` gains every rule of `new` it does not hold yet, in order.
fn add_rules(rules: &mut Vec<String>, new: &[String]) {
    for rule in new {
        if !rules.contains(rule) {
            rules.push(rule.clone());
        }
    }
}
