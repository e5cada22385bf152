//! Corpus files on disk: reading one file or a folder (every bad file becomes an error that
//! names the file and the problem, and the others still load), and saving an entry under its
//! stable name, merging with what is already there so repeated runs never duplicate a case.

use super::entry::{Entry, SCHEMA};
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

/// Read and check one file: JSON, the known schema id, decodable bytes, a known surface.
pub fn load_file(path: &Path) -> Result<Loaded, LoadError> {
    let err = |problem: String| LoadError {
        path: path.to_path_buf(),
        problem,
    };
    let text = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let value: Value = serde_json::from_slice(&text).map_err(|e| err(format!("not JSON: {e}")))?;
    // the schema id first, so a future version gets a clear message instead of a field error
    match value.get("schema").and_then(Value::as_str) {
        Some(SCHEMA) => {}
        Some(other) => {
            return Err(err(format!(
                "unknown schema '{other}' (this mcpdiff reads {SCHEMA})"
            )))
        }
        None => return Err(err(format!("no \"schema\" field (expected \"{SCHEMA}\")"))),
    }
    let entry: Entry =
        serde_json::from_value(value).map_err(|e| err(format!("not a {SCHEMA} entry: {e}")))?;
    entry.request.to_case().map_err(&err)?;
    entry.surface.resolve().map_err(&err)?;
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
pub fn load_dir(dir: &Path) -> Result<Vec<Result<Loaded, LoadError>>, LoadError> {
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
    Ok(paths.iter().map(|p| load_file(p)).collect())
}

/// Load every corpus file under `paths` (files or folders).
pub fn load_all(paths: &[PathBuf]) -> Vec<Result<Loaded, LoadError>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            match load_dir(p) {
                Ok(v) => out.extend(v),
                Err(e) => out.push(Err(e)),
            }
        } else {
            out.push(load_file(p));
        }
    }
    out
}

/// The text an entry is written as: pretty JSON with a final newline (stable, diffable).
pub fn to_text(entry: &Entry) -> Result<String, String> {
    serde_json::to_string_pretty(entry)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| format!("cannot serialize the entry: {e}"))
}

/// Write `entry` to `path` as is.
pub fn write(path: &Path, entry: &Entry) -> Result<(), String> {
    let text = to_text(entry)?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
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
pub fn save(dir: &Path, entry: &Entry) -> Result<(PathBuf, Saved), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(entry.file_name()?);
    if !path.exists() {
        write(&path, entry)?;
        return Ok((path, Saved::Created));
    }
    let mut existing = load_file(&path)
        .map_err(|e| format!("{e} (not overwritten; fix or remove it)"))?
        .entry;
    let before = existing.clone();
    for r in &entry.targets {
        existing.record(r.clone());
    }
    for rule in &entry.rules {
        if !existing.rules.contains(rule) {
            existing.rules.push(rule.clone());
        }
    }
    if existing == before {
        return Ok((path, Saved::Unchanged));
    }
    write(&path, &existing)?;
    Ok((path, Saved::Updated))
}
