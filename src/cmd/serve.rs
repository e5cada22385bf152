//! `mcpdiff serve`: run the reference server, a mutant or the null server on loopback until
//! Ctrl-C / SIGTERM.

use mcpdiff::serve::{spawn_protected, tools, Variant};
use mcpdiff_oracle::reference::{AUTH_MUTANTS, MUTANTS};
use mcpdiff_oracle::{fixture, Surface};
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on (0: an ephemeral port, printed at startup).
    #[arg(long, default_value_t = 8931)]
    port: u16,
    /// Address to bind (loopback by default; the servers are test fixtures, not services).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Serve the named mutant instead of the reference server (see --list-mutants).
    #[arg(long, value_name = "NAME", conflicts_with = "null")]
    mutant: Option<String>,
    /// Serve the null server (200 `{}` to everything).
    #[arg(long)]
    null: bool,
    /// Also publish the tools of this tool set file (`mcpdiff toolset generate`), invalid
    /// ones included; each answers with its arguments.
    #[arg(long, value_name = "FILE")]
    tools: Option<std::path::PathBuf>,
    /// Serve as an OAuth protected resource: only `Authorization: Bearer TOKEN` is served,
    /// anything else gets 401 with `WWW-Authenticate: Bearer resource_metadata=...`, and the
    /// protected-resource metadata is served at /.well-known/oauth-protected-resource/mcp.
    #[arg(long, value_name = "TOKEN")]
    auth: Option<String>,
    /// With --auth: a token "issued for another audience" (refused; `auth-audience-unchecked`
    /// accepts it).
    #[arg(long, value_name = "TOKEN", requires = "auth")]
    foreign_token: Option<String>,
    /// Print the mutants (NAME  RULE-ID  description) and exit.
    #[arg(long)]
    list_mutants: bool,
}

pub fn run(args: Args) -> ExitCode {
    if args.list_mutants {
        let all = || MUTANTS.iter().chain(AUTH_MUTANTS);
        let width = all().map(|m| m.name.len()).max().unwrap_or(0);
        let rw = all().map(|m| m.rule.0.len()).max().unwrap_or(0);
        for m in MUTANTS {
            println!("{:width$}  {:rw$}  {}", m.name, m.rule.0, m.description);
        }
        for m in AUTH_MUTANTS {
            println!(
                "{:width$}  {:rw$}  {} (with --auth)",
                m.name, m.rule.0, m.description
            );
        }
        return ExitCode::SUCCESS;
    }
    let variant = match (&args.mutant, args.null) {
        (Some(name), _) => match Variant::mutant(name) {
            Some(v) => v,
            None => {
                eprintln!("mcpdiff: unknown mutant '{name}' (see `mcpdiff serve --list-mutants`)");
                return ExitCode::from(2);
            }
        },
        (None, true) => Variant::Null,
        (None, false) => Variant::Reference,
    };
    let surface = match &args.tools {
        None => fixture::surface(),
        Some(path) => match tools::load(path).and_then(|set| tools::fixture_with(&set)) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("mcpdiff: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcpdiff: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(t) = args.auth.iter().chain(&args.foreign_token).find(|t| {
        t.is_empty()
            || !t
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
    }) {
        eprintln!(
            "mcpdiff: --auth/--foreign-token must be a bearer token (letters, digits, -._~+/; {} bytes given)",
            t.len()
        );
        return ExitCode::from(2);
    }
    let auth = args.auth.clone().map(|t| (t, args.foreign_token.clone()));
    let code = runtime.block_on(serve(
        variant,
        SocketAddr::new(args.host, args.port),
        surface,
        auth,
    ));
    // detached keep-alive tasks may sit in a 15 s sleep: do not wait for them on exit
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    code
}

async fn serve(
    variant: Variant,
    addr: SocketAddr,
    surface: Surface,
    auth: Option<(String, Option<String>)>,
) -> ExitCode {
    let tools = surface.tools.len();
    let protected = if auth.is_some() {
        ", protected: Authorization: Bearer <the --auth token>"
    } else {
        ""
    };
    let server = match spawn_protected(variant, addr, surface, auth).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("mcpdiff: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "mcpdiff: serving {} at {} ({tools} tools{protected})",
        variant.label(),
        server.url
    );
    stop_signal().await;
    server.shutdown().await;
    ExitCode::SUCCESS
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
