//! `mcpdiff serve`: run the reference server, a mutant or the null server on loopback until
//! Ctrl-C / SIGTERM.

use super::exit::{self, fail};
use mcpdiff::serve::legacy::LegacyVariant;
use mcpdiff::serve::{slow, spawn_full, tools, ServeOptions, Variant};
use mcpdiff_oracle::reference::legacy::{legacy_mutant, LEGACY_MUTANTS};
use mcpdiff_oracle::reference::{AUTH_MUTANTS, MUTANTS};
use mcpdiff_oracle::{fixture, Surface};
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff serve                                 # the reference server on http://127.0.0.1:8931/mcp
  mcpdiff serve --mutant origin-unchecked --port 0
  mcpdiff serve --dual-era                      # also 2025-11-25: initialize, sessions, GET, DELETE
  mcpdiff serve --legacy-only                   # 2025-11-25 only (modern requests refused)
  mcpdiff serve --tls-cert cert.pem --tls-key key.pem --port 8443
                                                # https://127.0.0.1:8443/mcp; then
  mcpdiff run https://127.0.0.1:8443/mcp --cacert cert.pem   # (a self-signed cert is its own CA)
  mcpdiff serve --tls-cert cert.pem --tls-key key.pem --auth TOKEN   # HTTPS and bearer auth together

A certificate for loopback, e.g.:
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \\
    -keyout key.pem -out cert.pem -subj /CN=localhost \\
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -addext basicConstraints=critical,CA:FALSE")]
pub struct ServeArgs {
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
    /// Also publish `slow_tool`, which answers after this many ms on an SSE stream (progress
    /// notifications meanwhile when asked for): a conformant slow tool, to try
    /// `run --timeout-ms` and `--max-time` on.
    #[arg(long, value_name = "MS")]
    slow_tool_ms: Option<u64>,
    /// Misbehave: `sse-forever` answers every request with a 200 SSE stream that never
    /// carries the response (keep-alive traffic until the client goes away).
    #[arg(long, value_name = "MODE")]
    hostile: Option<Hostile>,
    /// Serve over HTTPS with this PEM certificate chain (leaf first); needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// The PEM private key (PKCS#8, PKCS#1 or SEC1) of --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Serve as an OAuth protected resource: only `Authorization: Bearer TOKEN` is served,
    /// anything else gets 401 with `WWW-Authenticate: Bearer resource_metadata=...`, and the
    /// protected-resource metadata is served at /.well-known/oauth-protected-resource/mcp.
    #[arg(long, value_name = "TOKEN")]
    auth: Option<String>,
    /// With --auth: a token "issued for another audience" (refused; `auth-audience-unchecked`
    /// accepts it).
    #[arg(long, value_name = "TOKEN", requires = "auth")]
    foreign_token: Option<String>,
    /// Be a dual-era server: `initialize` and requests carrying its `Mcp-Session-Id` (without
    /// modern `_meta`) are answered by the 2025-11-25 reference (sessions, GET stream,
    /// DELETE); every other request exactly as without this flag.
    #[arg(long)]
    dual_era: bool,
    /// With --dual-era implied: answer legacy requests with this legacy mutant (see
    /// --list-mutants, the `L-*` rows).
    #[arg(long, value_name = "NAME", conflicts_with = "null")]
    legacy_mutant: Option<String>,
    /// Be a 2025-11-25-only server: every request is answered by the 2025-11-25 reference (or
    /// --legacy-mutant), so modern requests are refused as a legacy server refuses them (400
    /// without a session). `mcpdiff run` grades it on 2025-11-25 with 2026-07-28 "not offered".
    #[arg(long, conflicts_with_all = ["null", "dual_era", "mutant"])]
    legacy_only: bool,
    /// List tools, resources, resource templates and prompts N items a page, with
    /// `nextCursor` (server/utilities/pagination.mdx); without it every list is one page
    /// (two a page for the mutants `cursors-refused` and `page-scope-private`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000))]
    page_size: Option<u64>,
    /// Print the mutants (NAME  RULE-ID  description) and exit.
    #[arg(long)]
    list_mutants: bool,
}

/// `serve --hostile` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Hostile {
    /// Every answered request gets a 200 SSE stream that never ends.
    SseForever,
}

pub fn run(args: ServeArgs) -> ExitCode {
    if args.list_mutants {
        let all = || MUTANTS.iter().chain(AUTH_MUTANTS);
        let names = all()
            .map(|m| (m.name, m.rule))
            .chain(LEGACY_MUTANTS.iter().map(|m| (m.name, m.rule)));
        let width = names.clone().map(|(n, _)| n.len()).max().unwrap_or(0);
        let rw = names.map(|(_, r)| r.0.len()).max().unwrap_or(0);
        for m in MUTANTS {
            println!("{:width$}  {:rw$}  {}", m.name, m.rule.0, m.description);
        }
        println!(
            "{:width$}  {:rw$}  fills the _meta context a request lacks from an earlier \
             request on the same connection (caught by the connection probe)",
            mcpdiff_oracle::reference::connection::TRUSTS_KNOWN_CONNECTION,
            mcpdiff_oracle::rules::connection::STATELESS_NO_PRIOR.0,
        );
        for k in mcpdiff_oracle::list_stable::ListKind::ALL {
            println!(
                "{:width$}  {:rw$}  leaves the first item out of {} on a connection that \
                 carried a {} (caught by the connection probe)",
                mcpdiff_oracle::reference::list_side_effect::mutant_name(k),
                k.rule().0,
                k.list_method(),
                k.other_method(),
            );
        }
        for m in AUTH_MUTANTS {
            println!(
                "{:width$}  {:rw$}  {} (with --auth)",
                m.name, m.rule.0, m.description
            );
        }
        for m in LEGACY_MUTANTS {
            println!(
                "{:width$}  {:rw$}  {} (with --legacy-mutant)",
                m.name, m.rule.0, m.description
            );
        }
        return ExitCode::SUCCESS;
    }
    let dual_era = match (&args.legacy_mutant, args.dual_era) {
        (Some(name), _) => match legacy_mutant(name) {
            Some(m) => Some(LegacyVariant::Mutant(m)),
            None => {
                return fail(&format!(
                    "unknown legacy mutant '{name}' (see `mcpdiff serve --list-mutants`, the L-* rows)"
                ));
            }
        },
        (None, true) => Some(LegacyVariant::Reference),
        (None, false) if args.legacy_only => Some(LegacyVariant::Reference),
        (None, false) => None,
    };
    let variant = match (&args.mutant, args.null) {
        (Some(name), _) => match Variant::mutant(name) {
            Some(v) => v,
            None => {
                return fail(&format!(
                    "unknown mutant '{name}' (see `mcpdiff serve --list-mutants`)"
                ));
            }
        },
        (None, true) => Variant::Null,
        (None, false) => Variant::Reference,
    };
    let surface = match &args.tools {
        None => fixture::surface(),
        Some(path) => match tools::load(path).and_then(|set| tools::fixture_with(&set)) {
            Ok(s) => s,
            Err(e) => return fail(&e.to_string()),
        },
    };
    let surface = match args.slow_tool_ms {
        Some(_) => slow::with_slow_tool(surface),
        None => surface,
    };
    let surface = match args.page_size {
        // (at most 10 000: the range of the flag)
        Some(n) => mcpdiff_oracle::pages::with_page_size(surface, n as usize),
        // a page mutant's rule shows only on a second page
        None => match variant {
            Variant::Mutant(m) if mcpdiff_oracle::reference::mutants::needs_pages(m) => {
                mcpdiff_oracle::pages::with_page_size(surface, fixture::PAGE_SIZE)
            }
            _ => surface,
        },
    };
    let extras = slow::Extras {
        slow_tool_ms: args.slow_tool_ms,
        sse_forever: args.hostile == Some(Hostile::SseForever),
    };
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => match mcpdiff::serve::tls::server_config(cert, key) {
            Ok(c) => Some(c),
            Err(e) => return fail(&e.to_string()),
        },
        _ => None,
    };
    let runtime = match exit::runtime() {
        Ok(rt) => rt,
        Err(e) => return fail(&e),
    };
    if let Some(t) = args.auth.iter().chain(&args.foreign_token).find(|t| {
        t.is_empty()
            || !t
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
    }) {
        return fail(&format!(
            "--auth/--foreign-token must be a bearer token (letters, digits, -._~+/; {} bytes given)",
            t.len()
        ));
    }
    let auth = args.auth.clone().map(|t| (t, args.foreign_token.clone()));
    let code = runtime.block_on(serve(
        variant,
        SocketAddr::new(args.host, args.port),
        surface,
        ServeOptions {
            auth,
            tls,
            extras,
            dual_era,
            legacy_only: args.legacy_only,
        },
    ));
    // detached keep-alive tasks may sit in a 15 s sleep: do not wait for them on exit
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    code
}

async fn serve(
    variant: Variant,
    addr: SocketAddr,
    surface: Surface,
    opts: ServeOptions,
) -> ExitCode {
    let tools = surface.tools.len();
    let paged = match surface.pagination.page_size {
        Some(n) => format!(", lists {n} a page"),
        None => String::new(),
    };
    let protected = if opts.auth.is_some() {
        ", protected: Authorization: Bearer <the --auth token>"
    } else {
        ""
    };
    let extras = opts.extras;
    let dual = match opts.dual_era {
        Some(LegacyVariant::Reference) if opts.legacy_only => {
            ", 2025-11-25 only: initialize, sessions, GET, DELETE (no 2026-07-28)".to_string()
        }
        Some(LegacyVariant::Mutant(m)) if opts.legacy_only => {
            format!(
                ", 2025-11-25 only: legacy mutant {} (breaks {})",
                m.name, m.rule
            )
        }
        Some(LegacyVariant::Reference) => ", dual-era: 2025-11-25 sessions too".to_string(),
        Some(LegacyVariant::Mutant(m)) => {
            format!(", dual-era: legacy mutant {} (breaks {})", m.name, m.rule)
        }
        None => String::new(),
    };
    let server = match spawn_full(variant, addr, surface, opts).await {
        Ok(s) => s,
        // status 1, as `serve` has always ended on a busy port
        Err(e) => return exit::fail_with("", 1, &format!("cannot listen on {addr}: {e}")),
    };
    let mut how = String::new();
    if let Some(ms) = extras.slow_tool_ms {
        how.push_str(&format!("; {} answers after {ms} ms", slow::SLOW_TOOL));
    }
    if extras.sse_forever {
        how.push_str("; hostile: every answer is an SSE stream that never ends");
    }
    println!(
        "mcpdiff: serving {} at {} ({tools} tools{paged}{protected}{how}{dual})",
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
