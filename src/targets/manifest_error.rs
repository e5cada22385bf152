//! Why the bundled targets' manifests cannot be read or chosen (`ManifestError`). Each
//! displays as the one line the command prints.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManifestError {
    /// The targets folder (as shown) cannot be listed.
    Unlistable { dir: String, error: String },
    /// A `target.toml` (as shown) cannot be read.
    Unreadable { path: String, error: String },
    /// A `target.toml` is not a manifest.
    Invalid { path: String, error: String },
    /// The manifest's `name` is not its folder's.
    NameNotFolder {
        path: String,
        name: String,
        folder: String,
    },
    /// `start.command` lacks a placeholder the launcher fills (`{port}`, `{url}`, `{calls}`).
    NoPlaceholder { path: String, placeholder: String },
    /// No bundled target of that name; the known ones, in order.
    Unknown { name: String, known: Vec<String> },
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestError::Unlistable { dir, error } => write!(f, "cannot list {dir}: {error}"),
            ManifestError::Unreadable { path, error } => write!(f, "cannot read {path}: {error}"),
            ManifestError::Invalid { path, error } => write!(f, "bad manifest {path}: {error}"),
            ManifestError::NameNotFolder { path, name, folder } => {
                write!(
                    f,
                    "{path}: name '{name}' differs from its folder '{folder}'"
                )
            }
            ManifestError::NoPlaceholder { path, placeholder } => {
                write!(f, "{path}: start.command has no {placeholder} placeholder")
            }
            ManifestError::Unknown { name, known } => write!(
                f,
                "no bundled target '{name}' (known: {})",
                known.join(", ")
            ),
        }
    }
}

impl std::error::Error for ManifestError {}
