//! Helpers for the tests of protected targets: the protected reference server (`--auth`
//! token and a foreign token), `mcpdiff` runs in a blocking thread, credentials flags.

use mcpdiff::serve::{spawn_protected, RunningServer, Variant};
use mcpdiff_oracle::fixture;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const TOKEN: &str = "tok-7Hq2-secret-value";
pub const FOREIGN: &str = "foreign-9Zx-audience";

pub async fn protected(variant: Variant) -> RunningServer {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    spawn_protected(
        variant,
        addr,
        fixture::surface(),
        Some((TOKEN.to_string(), Some(FOREIGN.to_string()))),
    )
    .await
    .expect("bind a loopback port")
}

pub fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mcpdiff-auth-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `mcpdiff run` in a blocking thread (the servers run on this test's runtime).
pub async fn mcpdiff(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
            .args(&args)
            .output()
            .expect("run mcpdiff")
    })
    .await
    .expect("join")
}

pub fn strings(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

pub fn with_credentials(mut args: Vec<String>) -> Vec<String> {
    args.extend(strings(&[
        "-H",
        &format!("Authorization: Bearer {TOKEN}"),
        "--foreign-token",
        FOREIGN,
    ]));
    args
}

pub fn report(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("json written")).expect("json")
}
