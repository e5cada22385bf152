//! `mcpdiff targets list|install`: the bundled real-SDK targets under `targets/`.

use super::exit::{self, fail};
use mcpdiff::targets::launch::{self, LaunchError};
use mcpdiff::targets::manifest;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct TargetsArgs {
    #[command(subcommand)]
    pub command: TargetsCommand,
}

#[derive(clap::Subcommand)]
pub enum TargetsCommand {
    /// Name, pinned SDK version and whether each bundled target is installed.
    List,
    /// Install the named bundled targets (all when none is named); installed ones are skipped.
    Install { names: Vec<String> },
}

pub fn run(args: TargetsArgs) -> ExitCode {
    let dir = manifest::targets_dir();
    let all = match manifest::load_all(&dir) {
        Ok(a) => a,
        Err(e) => return fail(&e.to_string()),
    };
    match args.command {
        TargetsCommand::List => {
            println!(
                "{:<14} {:<7} {:<32} {:<10} {:<10} endpoint",
                "name", "kind", "sdk", "version", "installed"
            );
            for m in &all {
                let state = if m.installed() {
                    "yes".to_string()
                } else if let Some(t) = launch::missing_tool(m) {
                    format!("no (needs {t})")
                } else {
                    "no".to_string()
                };
                let kind = match m.kind {
                    manifest::TargetKind::Server => "server",
                    manifest::TargetKind::Client => "client",
                };
                println!(
                    "{:<14} {:<7} {:<32} {:<10} {:<10} {}",
                    m.name, kind, m.sdk.package, m.sdk.version, state, m.start.endpoint
                );
            }
            ExitCode::SUCCESS
        }
        TargetsCommand::Install { names } => {
            let chosen = match manifest::select(all, &names) {
                Ok(c) => c,
                Err(e) => return fail(&e.to_string()),
            };
            // all at once, as `mcpdiff run` does: pip and npm fetch while cargo compiles
            let results: Vec<(Result<bool, LaunchError>, f64)> = std::thread::scope(|scope| {
                let handles: Vec<_> = chosen
                    .iter()
                    .map(|m| {
                        scope.spawn(move || {
                            let t = std::time::Instant::now();
                            let r = launch::install(m, &|line| eprintln!("mcpdiff:   {line}"));
                            (r, t.elapsed().as_secs_f64())
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or((Err(LaunchError::InstallPanicked), 0.0)))
                    .collect()
            });
            let mut failed = false;
            for (m, (r, secs)) in chosen.iter().zip(results) {
                match r {
                    Ok(false) => println!(
                        "{}: already installed ({} {})",
                        m.name, m.sdk.package, m.sdk.version
                    ),
                    Ok(true) => println!(
                        "{}: installed {} {} in {secs:.1}s",
                        m.name, m.sdk.package, m.sdk.version
                    ),
                    Err(e) => {
                        exit::say(&e.to_string());
                        failed = true;
                    }
                }
            }
            if failed {
                ExitCode::from(exit::COULD_NOT_RUN)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}
