//! Loading a tool set file (`mcpdiff-toolset/1`, `--tools FILE`) for the reference server
//! and the runner: the file read and its errors worded for the command line. The format
//! and the labels are the oracle's (`mcpdiff_oracle::toolset`).

use mcpdiff_oracle::toolset::{ToolSet, ToolSetError};
use mcpdiff_oracle::{fixture, Surface};
use std::fmt;
use std::path::Path;

/// A tool set file that cannot be served: the file as shown and the cause.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolSetFileError {
    Unreadable {
        path: String,
        error: String,
    },
    /// Not a valid `mcpdiff-toolset/1` document.
    Invalid {
        path: String,
        error: ToolSetError,
    },
    /// A tool's name is already one of the fixture's.
    JoinsFixture(ToolSetError),
}

impl fmt::Display for ToolSetFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolSetFileError::Unreadable { path, error } => write!(
                f,
                "cannot read the tool set {path}: {error} (make one with `mcpdiff toolset \
                 generate -o FILE`)"
            ),
            ToolSetFileError::Invalid { path, error } => write!(f, "{path}: {error}"),
            ToolSetFileError::JoinsFixture(error) => write!(
                f,
                "the tool set cannot join the fixture: {error} (rename the tool)"
            ),
        }
    }
}

impl std::error::Error for ToolSetFileError {}

/// Read and check a tool set file; the error is one line saying what to do.
pub fn load(path: &Path) -> Result<ToolSet, ToolSetFileError> {
    let text = std::fs::read_to_string(path).map_err(|e| ToolSetFileError::Unreadable {
        path: path.display().to_string(),
        error: e.to_string(),
    })?;
    ToolSet::from_json(&text).map_err(|error| ToolSetFileError::Invalid {
        path: path.display().to_string(),
        error,
    })
}

/// The fixture surface with the tool set's tools declared after the fixture's own.
pub fn fixture_with(set: &ToolSet) -> Result<Surface, ToolSetFileError> {
    set.extend_surface(fixture::surface())
        .map_err(ToolSetFileError::JoinsFixture)
}
