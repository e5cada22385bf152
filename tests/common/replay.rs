//! `mcpdiff replay` as the corpus tests run it: the built binary, from the repository root
//! (where `corpus/` is), off the async runtime's threads.

/// `mcpdiff replay ARGS...`: its exit code and standard output.
pub async fn replay(args: Vec<String>) -> (Option<i32>, String) {
    let (code, stdout, _) = replay_with_stderr(args).await;
    (code, stdout)
}

/// [`replay`], with its standard error too.
pub async fn replay_with_stderr(args: Vec<String>) -> (Option<i32>, String, String) {
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(super::BIN)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("replay")
            .args(&args)
            .output()
            .expect("run mcpdiff")
    })
    .await
    .expect("replay ran");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The reference server on loopback, declaring `surface`: a target to replay against.
pub async fn reference_serving(surface: mcpdiff_oracle::Surface) -> mcpdiff::serve::RunningServer {
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    mcpdiff::serve::spawn_with(mcpdiff::serve::Variant::Reference, loopback, surface)
        .await
        .expect("the reference starts")
}

/// `url` with its loopback host written `0.0.0.0`: the same server on this host, but no
/// loopback name, so replay's safety gate holds (no traffic leaves the machine).
pub fn off_loopback(url: &str) -> String {
    url.replace("127.0.0.1", "0.0.0.0")
}
