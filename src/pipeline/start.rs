//! Bringing up what a [`RunPlan`] names: the bundled SDK server targets (installed first when
//! missing, started by `targets`) and the in-process reference server and mutants. The
//! result, [`Started`], owns them: in-process servers stop on [`Started::stop`], bundled
//! targets when it drops (by PID). Each started target is a [`TargetSpec`] for preparation.
//! Set-up counts inside `--max-time` ([`time_left_after_setup`]). What stops set-up is a
//! [`StartError`].

use super::plan::RunPlan;
use crate::runner::disagree::MUTANT_PREFIX;
use crate::serve::{self, RunningServer, Variant};
use crate::targets::manifest::{self, ManifestError, TargetKind};
use crate::targets::Running;
use mcpdiff_oracle::Surface;
use std::fmt;
use std::time::Duration;

/// Why the run's targets could not be brought up. The `Display` text is the one line
/// `mcpdiff run` prints, saying what to fix.
#[derive(Debug)]
pub enum StartError {
    /// The bundled targets' manifests do not load, or a named target is not among them.
    Manifest(ManifestError),
    /// `--mutant` names no mutant.
    UnknownMutant(String),
    /// An in-process server (`name` as reported) could not bind or start.
    InProcess { name: String, error: std::io::Error },
    /// Set-up took all of `--max-time`.
    NoTimeLeft { setup: Duration, max_time: Duration },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Manifest(e) => e.fmt(f),
            StartError::UnknownMutant(n) => write!(
                f,
                "unknown mutant '{n}'; `mcpdiff serve --list-mutants` lists them"
            ),
            StartError::InProcess { name, error } => {
                write!(f, "cannot start the in-process {name}: {error}")
            }
            StartError::NoTimeLeft { setup, max_time } => write!(
                f,
                "installing and starting the targets took {:.1} s of --max-time {} s: nothing \
                 left to test; raise --max-time, or install first (`mcpdiff targets install`)",
                setup.as_secs_f64(),
                max_time.as_secs()
            ),
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Manifest(e) => Some(e),
            StartError::InProcess { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Mutants that join the reference server when the plan runs in-process servers and no
/// mutant is named.
pub const DEFAULT_MUTANTS: [&str; 4] = [
    "origin-unchecked",
    "mcp-method-prefix",
    "no-base64-decode",
    "session-id-header",
];

/// One target to prepare: its report name, its URL, and what the run knows of it already.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    pub name: String,
    pub url: String,
    /// The pinned SDK version of a bundled target (`targets/<name>/target.toml`).
    pub version: Option<String>,
    /// A bundled SDK target: one that dies after start-up is a note, not a failed run.
    pub bundled: bool,
    /// An endpoint the user named: only those are judged as protected resources.
    pub user: bool,
}

impl TargetSpec {
    /// An endpoint the user named on the command line (its URL is its name).
    pub fn user_url(url: &str) -> TargetSpec {
        TargetSpec {
            name: url.to_string(),
            url: url.to_string(),
            version: None,
            bundled: false,
            user: true,
        }
    }
}

/// What [`start`] brought up.
pub struct Started {
    /// In-process servers (stopped by [`Started::stop`]).
    pub servers: Vec<RunningServer>,
    /// Bundled targets (stopped by PID when dropped).
    pub launched: Vec<Running>,
    /// Every started target, bundled ones first.
    pub specs: Vec<TargetSpec>,
    /// Bundled targets that did not come up, one line each.
    pub notes: Vec<String>,
}

impl Started {
    /// Stop the in-process servers and the bundled targets (their logs stay in
    /// `targets/<name>/.log/`).
    pub async fn stop(self) {
        for s in self.servers {
            s.shutdown().await;
        }
        drop(self.launched);
    }
}

/// What to start besides the plan.
pub struct StartOptions<'a> {
    /// The mutants beside the reference server (`None`: [`DEFAULT_MUTANTS`]).
    pub mutants: Option<&'a [String]>,
    /// The surface the in-process servers publish (the fixture, plus `--tools`).
    pub served_surface: &'a Surface,
    /// Environment of bundled servers (`MCPDIFF_TOOLS`).
    pub target_env: &'a [(String, String)],
    /// Whether the user named URLs too (changes one word of the summary line).
    pub has_user_urls: bool,
}

/// Start the bundled server targets and in-process servers `plan` names (installing missing
/// bundled targets first); `log` gets one line per step. Err: one line saying what to fix.
pub async fn start(
    plan: &RunPlan,
    opts: &StartOptions<'_>,
    log: &dyn Fn(&str),
) -> Result<Started, StartError> {
    let mut started = Started {
        servers: Vec::new(),
        launched: Vec::new(),
        specs: Vec::new(),
        notes: Vec::new(),
    };
    if let Some(names) = &plan.bundled {
        let all = manifest::of_kind(
            manifest::load_all(&manifest::targets_dir()).map_err(StartError::Manifest)?,
            TargetKind::Server,
        );
        let chosen = manifest::select(all, names).map_err(StartError::Manifest)?;
        let (up, notes) = crate::targets::bring_up_with(&chosen, opts.target_env, log).await;
        for n in &notes {
            log(n);
        }
        started.notes = notes;
        for r in &up {
            started.specs.push(TargetSpec {
                name: r.name.clone(),
                url: r.url.clone(),
                version: Some(r.version.clone()),
                bundled: true,
                user: false,
            });
        }
        started.launched = up;
    }
    if plan.in_process {
        start_in_process(&mut started, opts, log).await?;
    }
    Ok(started)
}

/// What is left of `max_time` for the run once set-up (installing and starting the targets,
/// `start`) took `setup`. Installs are not cut (a half-installed SDK is a broken target), so
/// set-up may use it all: then the error line says so and what to do.
pub fn time_left_after_setup(setup: Duration, max_time: Duration) -> Result<Duration, StartError> {
    // less than a second cannot discover a target and run a case
    match max_time.checked_sub(setup) {
        Some(left) if left >= Duration::from_secs(1) => Ok(left),
        _ => Err(StartError::NoTimeLeft { setup, max_time }),
    }
}

/// The reference server and the mutants, on loopback ports of their own.
async fn start_in_process(
    started: &mut Started,
    opts: &StartOptions<'_>,
    log: &dyn Fn(&str),
) -> Result<(), StartError> {
    // the mutants show what a finding looks like even when no SDK could be installed
    let default_mutants: Vec<String> = DEFAULT_MUTANTS.iter().map(|s| s.to_string()).collect();
    let names: Vec<String> = opts.mutants.map_or(default_mutants, <[String]>::to_vec);
    let mut variants = vec![("reference".to_string(), Variant::Reference)];
    for n in names {
        match Variant::mutant(&n) {
            Some(v) => variants.push((format!("{MUTANT_PREFIX}{n}"), v)),
            None => return Err(StartError::UnknownMutant(n)),
        }
    }
    let mutants = variants.len() - 1;
    for (name, v) in variants {
        let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        // the reference is the dual-era one: graded (and 1.0) on 2026-07-28 and on
        // 2025-11-25; the mutants break a 2026-07-28 rule and stay modern-only, so their
        // 2025-11-25 is "not offered"
        let serve_opts = serve::ServeOptions {
            dual_era: (v == Variant::Reference).then_some(serve::legacy::LegacyVariant::Reference),
            ..serve::ServeOptions::default()
        };
        match serve::spawn_full(v, loopback, opts.served_surface.clone(), serve_opts).await {
            Ok(s) => {
                started.specs.push(TargetSpec {
                    name,
                    url: s.url.clone(),
                    version: None,
                    bundled: false,
                    user: false,
                });
                started.servers.push(s);
            }
            Err(error) => return Err(StartError::InProcess { name, error }),
        }
    }
    log(&format!(
        "testing {} bundled SDK target(s), the in-process dual-era reference server \
         (2026-07-28 and 2025-11-25) and {mutants} mutant(s){}",
        started.launched.len(),
        if opts.has_user_urls {
            ""
        } else {
            " (pass URLs to test your own endpoints)"
        }
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    /// A misspelt default mutant would make every plain `mcpdiff run` refuse to start.
    #[test]
    fn the_default_mutants_are_rows_of_the_table() {
        for name in super::DEFAULT_MUTANTS {
            assert!(mcpdiff_oracle::reference::mutant(name).is_ok(), "{name}");
        }
    }
}
