//! `targets/<name>/target.toml`: what a bundled SDK target is (package and exact version),
//! how to install it, how to start it on a given port, where its endpoint is and what of the
//! fixture surface the SDK cannot express. The launcher only reads this; the SDK-specific
//! knowledge lives in the manifest and the tiny server next to it.

pub use super::manifest_error::ManifestError;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One parsed `target.toml`, plus the folder it came from.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Must equal the folder name: it is the target's name in every report.
    pub name: String,
    /// `server` (default: mcpdiff sends it cases) or `client` (a driver mcpdiff starts
    /// against its recording server, see src/clients/).
    #[serde(default)]
    pub kind: TargetKind,
    #[serde(default)]
    pub description: String,
    pub sdk: Sdk,
    pub install: Install,
    pub start: Start,
    /// Parts of the fixture surface the SDK cannot serve (reported as notes).
    #[serde(default)]
    pub cannot_express: Vec<String>,
    /// Deviations from the requested pins and why (kept for the report and reviewers).
    #[serde(default)]
    pub notes: Vec<String>,
    /// The folder holding the manifest (not in the file).
    #[serde(skip)]
    pub dir: PathBuf,
}

/// What a bundled target is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetKind {
    /// An SDK server: `start.command` takes `{port}`.
    #[default]
    Server,
    /// An SDK client driver: `start.command` takes `{url}` and `{calls}` and exits by itself.
    Client,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sdk {
    /// Registry package name (`@modelcontextprotocol/server`, `mcp`, `rmcp`, ...).
    pub package: String,
    /// The exact pinned version.
    pub version: String,
    /// `npm`, `pypi` or `crates.io`.
    pub registry: String,
    /// Other pinned packages that matter (adapter packages, features), free text.
    #[serde(default)]
    pub also: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Install {
    /// Programs that must be on PATH before installing (the error names the missing one).
    pub requires: Vec<String>,
    /// Shell commands run in order in the target folder (`sh -c`).
    pub commands: Vec<String>,
    /// A path (relative to the folder) that exists only once the install succeeded.
    pub check: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// Shell command run in the target folder; `{port}` is replaced by the chosen port.
    pub command: String,
    /// Endpoint path of the MCP server (`/mcp`).
    pub endpoint: String,
    /// Readiness check: `http` = the endpoint answers any HTTP response to a GET.
    #[serde(default = "default_ready")]
    pub ready: String,
    /// How long to wait for readiness before giving up.
    #[serde(default = "default_ready_timeout")]
    pub ready_timeout_secs: u64,
}

fn default_ready() -> String {
    "http".to_string()
}

fn default_ready_timeout() -> u64 {
    60
}

impl Manifest {
    /// Parse `dir/target.toml`, checking that the name matches the folder.
    pub fn load(dir: &Path) -> Result<Manifest, ManifestError> {
        let path = dir.join("target.toml");
        let shown = || path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| ManifestError::Unreadable {
            path: shown(),
            error: e.to_string(),
        })?;
        let mut m: Manifest = toml::from_str(&text).map_err(|e| ManifestError::Invalid {
            path: shown(),
            error: e.to_string(),
        })?;
        let folder = dir.file_name().and_then(|f| f.to_str()).unwrap_or_default();
        if m.name != folder {
            return Err(ManifestError::NameNotFolder {
                path: shown(),
                name: m.name,
                folder: folder.to_string(),
            });
        }
        let placeholders: &[&str] = match m.kind {
            TargetKind::Server => &["{port}"],
            TargetKind::Client => &["{url}", "{calls}"],
        };
        if let Some(p) = placeholders.iter().find(|p| !m.start.command.contains(**p)) {
            return Err(ManifestError::NoPlaceholder {
                path: shown(),
                placeholder: p.to_string(),
            });
        }
        m.dir = dir.to_path_buf();
        Ok(m)
    }

    /// Whether the install check path exists.
    pub fn installed(&self) -> bool {
        self.dir.join(&self.install.check).exists()
    }

    /// Where this target's install and server logs go (gitignored).
    pub fn log_dir(&self) -> PathBuf {
        self.dir.join(".log")
    }
}

/// The bundled targets folder: `$MCPDIFF_TARGETS` if set, else `targets/` of this checkout
/// (the source tree the binary was built from, so `cargo run` works from any directory).
pub fn targets_dir() -> PathBuf {
    match std::env::var_os("MCPDIFF_TARGETS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("targets"),
    }
}

/// The manifests of one kind.
pub fn of_kind(all: Vec<Manifest>, kind: TargetKind) -> Vec<Manifest> {
    all.into_iter().filter(|m| m.kind == kind).collect()
}

/// Every manifest under `dir`, sorted by name. Folders without `target.toml` are skipped.
pub fn load_all(dir: &Path) -> Result<Vec<Manifest>, ManifestError> {
    let rd = std::fs::read_dir(dir).map_err(|e| ManifestError::Unlistable {
        dir: dir.display().to_string(),
        error: e.to_string(),
    })?;
    let mut out = Vec::new();
    for entry in rd.flatten() {
        let p = entry.path();
        if p.is_dir() && p.join("target.toml").is_file() {
            out.push(Manifest::load(&p)?);
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The manifests named in `names` (all when empty), or an error naming the unknown one.
pub fn select(all: Vec<Manifest>, names: &[String]) -> Result<Vec<Manifest>, ManifestError> {
    if names.is_empty() {
        return Ok(all);
    }
    let mut out = Vec::new();
    for n in names {
        match all.iter().find(|m| &m.name == n) {
            Some(m) => out.push(m.clone()),
            None => {
                return Err(ManifestError::Unknown {
                    name: n.clone(),
                    known: all.iter().map(|m| m.name.clone()).collect(),
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_manifest_parses() {
        let all = load_all(&targets_dir()).expect("targets/ lists");
        for m in &all {
            assert!(!m.sdk.version.is_empty(), "{}", m.name);
            assert!(m.start.endpoint.starts_with('/'), "{}", m.name);
        }
    }

    #[test]
    fn select_names_the_unknown_target() {
        let err = select(Vec::new(), &["nope".to_string()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("nope"), "{err}");
    }
}
