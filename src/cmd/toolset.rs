//! `mcpdiff toolset`: generate a tool set file (`mcpdiff-toolset/1`: labelled tool
//! definitions with annotated `inputSchema`s and the arguments to call them with), or check
//! one and print each tool's label.

use super::exit::fail;
use mcpdiff::serve::tools;
use mcpdiff_oracle::toolset::ToolSet;
use mcpdiff_oracle::{fixture, Surface};
use mcpdiff_props::toolgen::generate_toolset;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Most tools one file may hold (a server publishes them all in one `tools/list`).
const MAX_COUNT: usize = 10_000;

#[derive(clap::Args)]
pub struct ToolsetArgs {
    #[command(subcommand)]
    command: ToolsetCommand,
}

#[derive(clap::Subcommand)]
enum ToolsetCommand {
    /// Generate a tool set (deterministic: the same seed and count give the same file).
    Generate {
        /// Generator seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of tools (about half of them invalid).
        #[arg(long, default_value_t = 50)]
        count: usize,
        /// Write here instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check a tool set file (labels re-derived by the oracle) and print each tool's label.
    Check {
        /// The tool set file.
        file: PathBuf,
    },
}

pub fn run(args: ToolsetArgs) -> ExitCode {
    match args.command {
        ToolsetCommand::Generate {
            seed,
            count,
            output,
        } => {
            if count == 0 || count > MAX_COUNT {
                return fail(&format!("--count must be between 1 and {MAX_COUNT}"));
            }
            let text = generate_toolset(seed, count).to_json();
            match output {
                Some(path) => match std::fs::write(&path, text) {
                    Ok(()) => {
                        eprintln!("mcpdiff: wrote {count} tools to {}", path.display());
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(&format!("cannot write {}: {e}", path.display())),
                },
                None => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
            }
        }
        ToolsetCommand::Check { file } => {
            let set = match tools::load(&file) {
                Ok(s) => s,
                Err(e) => return fail(&e.to_string()),
            };
            let width = set.tools.iter().map(|t| t.name().len()).max().unwrap_or(0);
            for t in &set.tools {
                let label = match &t.reason {
                    None => "valid".to_string(),
                    Some(r) => format!("invalid  {}", serde_json::to_string(r).unwrap_or_default()),
                };
                println!("{:width$}  {label}", t.name());
            }
            let valid = set.valid_tools().count();
            println!(
                "{} tools: {valid} valid, {} invalid (labels agree with the oracle)",
                set.tools.len(),
                set.tools.len() - valid
            );
            ExitCode::SUCCESS
        }
    }
}

/// What `run --tools FILE` needs: the set (to compare each target's `tools/list` with), the
/// surface the in-process servers publish (the fixture plus the set), and the environment
/// for bundled servers (`MCPDIFF_TOOLS` = the file's absolute path: they start in their own
/// folder). Without `--tools`: no set, the fixture, no environment.
pub type RunTools = (Option<ToolSet>, Surface, Vec<(String, String)>);

/// Err is a String on purpose: it is the final one-line message for `exit::fail` (the
/// typed errors below it are already rendered), and nothing matches on it.
pub fn for_run(path: Option<&Path>) -> Result<RunTools, String> {
    let Some(path) = path else {
        return Ok((None, fixture::surface(), Vec::new()));
    };
    let set = tools::load(path).map_err(|e| e.to_string())?;
    let surface = tools::fixture_with(&set).map_err(|e| e.to_string())?;
    let abs = std::fs::canonicalize(path)
        .map_err(|e| format!("cannot resolve {}: {e}", path.display()))?;
    let env = vec![(
        mcpdiff::targets::TOOLS_ENV.to_string(),
        abs.display().to_string(),
    )];
    Ok((Some(set), surface, env))
}
