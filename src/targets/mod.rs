//! Bundled real-SDK targets (`targets/<name>/`): manifests, install, start/stop. The run
//! command uses [`bring_up`] to get URLs for them; `mcpdiff targets` lists and installs them.

pub mod launch;
pub mod manifest;

/// The environment variable that names a tool set file (absolute path) for a bundled server
/// to load at start (`run --tools FILE`); each server registers every tool in it.
pub const TOOLS_ENV: &str = "MCPDIFF_TOOLS";

pub use launch::Running;
pub use manifest::Manifest;

/// Install what is missing and start every manifest. A target that cannot be installed or
/// started is left out with a note (one SDK's registry hiccup must not sink the whole run);
/// the caller keeps the `Running` handles alive for the run and drops them to stop.
pub async fn bring_up(
    manifests: &[Manifest],
    progress: &dyn Fn(&str),
) -> (Vec<Running>, Vec<String>) {
    bring_up_with(manifests, &[], progress).await
}

/// Like [`bring_up`], starting every server with the extra environment `env`.
pub async fn bring_up_with(
    manifests: &[Manifest],
    env: &[(String, String)],
    progress: &dyn Fn(&str),
) -> (Vec<Running>, Vec<String>) {
    let mut up = Vec::new();
    let mut notes = Vec::new();
    for m in manifests {
        if !m.installed() {
            progress(&format!(
                "installing {} ({} {})",
                m.name, m.sdk.package, m.sdk.version
            ));
        }
        // installing shells out and blocks; keep it off the async workers
        let mm = m.clone();
        let res = tokio::task::spawn_blocking(move || {
            launch::install(&mm, &|line: &str| eprintln!("mcpdiff:   {line}"))
        })
        .await
        .unwrap_or_else(|e| Err(format!("{}: install task failed: {e}", m.name)));
        if let Err(e) = res {
            notes.push(format!("bundled target skipped: {e}"));
            continue;
        }
        progress(&format!(
            "starting {} ({} {})",
            m.name, m.sdk.package, m.sdk.version
        ));
        let t = std::time::Instant::now();
        match launch::start_with(m, env).await {
            Ok(r) => {
                progress(&format!(
                    "{} ready at {} (pid {}, {:.1}s)",
                    m.name,
                    r.url,
                    r.pid(),
                    t.elapsed().as_secs_f64()
                ));
                up.push(r);
            }
            Err(e) => notes.push(format!("bundled target skipped: {e}")),
        }
    }
    (up, notes)
}
