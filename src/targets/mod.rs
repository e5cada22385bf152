//! Bundled real-SDK targets (`targets/<name>/`): manifests, install, start/stop. The run
//! command uses [`bring_up`] to get URLs for them; `mcpdiff targets` lists and installs them.

pub mod launch;
mod launch_error;
pub mod manifest;
mod manifest_error;

/// The environment variable that names a tool set file (absolute path) for a bundled server
/// to load at start (`run --tools FILE`); each server registers every tool in it.
pub const TOOLS_ENV: &str = "MCPDIFF_TOOLS";

pub use launch::Running;
pub use manifest::Manifest;

use launch::LaunchError;
use tokio::sync::mpsc::UnboundedSender;

/// What bringing one target up ended in.
type BringUpResult = Result<Running, LaunchError>;

/// Install `m` if missing, then start it with the extra environment `env`; every step is
/// reported on `tx`.
async fn up_one(
    m: Manifest,
    env: Vec<(String, String)>,
    tx: UnboundedSender<String>,
) -> BringUpResult {
    if !m.installed() {
        let _ = tx.send(format!(
            "installing {} ({} {})",
            m.name, m.sdk.package, m.sdk.version
        ));
    }
    // installing shells out and blocks; keep it off the async workers
    let mm = m.clone();
    let itx = tx.clone();
    tokio::task::spawn_blocking(move || {
        launch::install(&mm, &|line: &str| {
            let _ = itx.send(format!("  {line}"));
        })
    })
    .await
    .unwrap_or_else(|e| {
        Err(LaunchError::InstallTask {
            name: m.name.clone(),
            error: e.to_string(),
        })
    })?;
    let _ = tx.send(format!(
        "starting {} ({} {})",
        m.name, m.sdk.package, m.sdk.version
    ));
    let t = std::time::Instant::now();
    let r = launch::start_with(&m, &env).await?;
    let _ = tx.send(format!(
        "{} ready at {} (pid {}, {:.1}s)",
        m.name,
        r.url,
        r.pid(),
        t.elapsed().as_secs_f64()
    ));
    Ok(r)
}

/// Install what is missing and start every manifest, all targets at once (npm and pip fetch
/// while cargo compiles; the Rust targets share one cargo workspace, whose lock serializes
/// their builds). A target that cannot be installed or started is left out with a note (one
/// SDK's registry hiccup must not sink the whole run); the caller keeps the `Running` handles
/// alive for the run and drops them to stop. Handles come back in manifest order.
pub async fn bring_up(
    manifests: &[Manifest],
    progress: &dyn Fn(&str),
) -> (Vec<Running>, Vec<String>) {
    bring_up_with(manifests, &[], progress).await
}

/// Like [`bring_up`], starting every server with the extra environment `env` (the tool set
/// of `run --tools`).
pub async fn bring_up_with(
    manifests: &[Manifest],
    env: &[(String, String)],
    progress: &dyn Fn(&str),
) -> (Vec<Running>, Vec<String>) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let mut tasks = tokio::task::JoinSet::new();
    for (i, m) in manifests.iter().cloned().enumerate() {
        let tx = tx.clone();
        let env = env.to_vec();
        tasks.spawn(async move { (i, up_one(m, env, tx).await) });
    }
    drop(tx);
    // the channel closes once every task has dropped its sender, i.e. has finished
    while let Some(line) = rx.recv().await {
        progress(&line);
    }
    let mut done: Vec<(usize, BringUpResult)> = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        // a panicked task (a bug) loses its handle, which the JoinSet already dropped
        done.push(joined.unwrap_or_else(|e| (usize::MAX, Err(LaunchError::Task(e.to_string())))));
    }
    done.sort_by_key(|(i, _)| *i);
    let mut up = Vec::new();
    let mut notes = Vec::new();
    for (_, outcome) in done {
        match outcome {
            Ok(r) => up.push(r),
            Err(e) => notes.push(format!("bundled target skipped: {e}")),
        }
    }
    (up, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A manifest in `dir/name` whose install waits (bounded) for its partner's install to
    /// have started: it only succeeds when the two installs run at the same time.
    fn rendezvous(dir: &std::path::Path, name: &str, partner: &str) -> Manifest {
        let d = dir.join(name);
        std::fs::create_dir_all(&d).expect("temp dir");
        let install = format!(
            "touch ../{name}.started; i=0; while [ ! -e ../{partner}.started ] && [ $i -lt 300 ]; \
             do sleep 0.1; i=$((i+1)); done; [ -e ../{partner}.started ] && touch installed"
        );
        let toml = format!(
            "name = \"{name}\"\n[sdk]\npackage = \"p\"\nversion = \"1\"\nregistry = \"none\"\n\
             [install]\nrequires = [\"sh\"]\ncommands = [{install:?}]\ncheck = \"installed\"\n\
             [start]\ncommand = \"exit 3 # {{port}}\"\nendpoint = \"/mcp\"\nready_timeout_secs = 5\n"
        );
        std::fs::write(d.join("target.toml"), toml).expect("manifest");
        Manifest::load(&d).expect("parses")
    }

    #[tokio::test]
    async fn installs_run_concurrently_and_failures_become_notes_in_order() {
        let dir = std::env::temp_dir().join(format!("mcpdiff-bringup-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let ms = vec![rendezvous(&dir, "a", "b"), rendezvous(&dir, "b", "a")];
        let lines = std::sync::Mutex::new(Vec::new());
        let (up, notes) = bring_up(&ms, &|l| lines.lock().expect("lock").push(l.to_string())).await;
        let _ = std::fs::remove_dir_all(&dir);
        assert!(up.is_empty());
        // both installs met (each waited for the other), then each start failed
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("a: exited during start-up"), "{notes:?}");
        assert!(notes[1].contains("b: exited during start-up"), "{notes:?}");
        let lines = lines.into_inner().expect("lock");
        assert!(
            lines.iter().any(|l| l.starts_with("installing a")),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l.contains("b: done in")), "{lines:?}");
    }
}
