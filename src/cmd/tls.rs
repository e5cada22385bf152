//! `--cacert FILE` / `--insecure`, shared by every command that sends to a target (`run`,
//! `replay`, `card`, `reference-client`): parsed once into the run's `Tls` (the CA file is
//! read here, not per case), and the warning printed with `--insecure`.

use mcpdiff::transport::{Tls, TlsOptions};
use std::path::PathBuf;

/// How `https://` targets are verified.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TlsArgs {
    /// Trust the PEM certificate(s) in FILE (a private CA, or the server's self-signed
    /// certificate) for https:// targets, instead of the built-in webpki roots (as `curl
    /// --cacert` does; reproducers use the same file).
    #[arg(long, value_name = "FILE", global = false)]
    pub cacert: Option<PathBuf>,
    /// Do not verify https:// certificates at all (the report says so; reproducers use
    /// `curl -k`).
    #[arg(long, conflicts_with = "cacert")]
    pub insecure: bool,
}

impl TlsArgs {
    /// The run's TLS client; the error is one line naming the file.
    /// Err is a String on purpose: it is the final one-line message for `exit::fail` (the
    /// typed errors below it are already rendered), and nothing matches on it.
    pub fn build(&self) -> Result<Tls, String> {
        Tls::new(TlsOptions {
            cacert: self.cacert.clone(),
            insecure: self.insecure,
        })
        .map_err(|e| e.to_string())
    }
}

/// The line printed before a run whose https targets are not verified.
pub fn warning(tls: &Tls) -> Option<&'static str> {
    tls.options()
        .insecure
        .then_some("TLS: --insecure: certificates of https:// targets are NOT verified")
}
