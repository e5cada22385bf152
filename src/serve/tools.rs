//! Loading a tool set file (`mcpdiff-toolset/1`, `--tools FILE`) for the reference server
//! and the runner: the file read and its errors worded for the command line. The format
//! and the labels are the oracle's (`mcpdiff_oracle::toolset`).

use mcpdiff_oracle::annotations::publishable;
use mcpdiff_oracle::toolset::ToolSet;
use mcpdiff_oracle::{fixture, Surface};
use std::path::Path;

/// Read and check a tool set file; the error is one line saying what to do.
pub fn load(path: &Path) -> Result<ToolSet, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read the tool set {}: {e} (make one with `mcpdiff toolset generate -o FILE`)",
            path.display()
        )
    })?;
    ToolSet::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The fixture surface with the tool set's tools declared after the fixture's own: those a
/// server may publish only. The reference server is judged, and the constraints on
/// `x-mcp-header` values bind the server that writes them (TOOLS-XMCP-CONSTRAINTS,
/// DEVIATIONS.md D-37), so it declares no tool that breaks them; the client matrix's recording
/// server, which tests clients on invalid tools, publishes the whole set.
pub fn fixture_with(set: &ToolSet) -> Result<Surface, String> {
    let mut surface = set
        .extend_surface(fixture::surface())
        .map_err(|e| format!("the tool set cannot join the fixture: {e} (rename the tool)"))?;
    surface.tools.retain(|t| publishable(&t.header_params));
    Ok(surface)
}
