//! `mcpdiff serve`: the reference server, one of its mutants, or the null server over real
//! HTTP. Everything an answer contains comes from `mcpdiff_oracle::reference` (pure); this
//! module only owns sockets: accepting (over TLS too, `tls.rs`), converting bytes to a `Case`
//! and a `Response` to bytes (`http.rs`), streaming SSE, and shutting down.

mod http;
pub mod legacy;
pub mod slow;
pub mod tls;
pub mod tools;

use mcpdiff_oracle::list_stable::ListKind;
use mcpdiff_oracle::reference::auth::{AuthChange, AuthConfig};
use mcpdiff_oracle::reference::{self, Mutant, Response};
use mcpdiff_oracle::{fixture, Case, Surface};
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::{JoinHandle, JoinSet};

/// Which server to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The conformant reference server.
    Reference,
    /// The reference server with one rule broken.
    Mutant(&'static Mutant),
    /// `200 {}` to everything.
    Null,
    /// The reference server that fills the context a request lacks from an earlier request
    /// on the same connection (`trusts-known-connection`, breaks BASE-STATELESS-NO-PRIOR;
    /// `reference::connection`).
    TrustsKnownConnection,
    /// The reference server whose list leaves out an item on a connection that carried the
    /// family's other request (`tools-list-side-effect`, …, breaks TOOLS-LIST-STABLE, …;
    /// `reference::list_side_effect`).
    ListSideEffect(ListKind),
}

impl Variant {
    /// A mutant by name (`None` if there is no such mutant; `reference::mutant` is the
    /// lookup).
    pub fn mutant(name: &str) -> Option<Variant> {
        if name == reference::connection::TRUSTS_KNOWN_CONNECTION {
            return Some(Variant::TrustsKnownConnection);
        }
        if let Some(kind) = reference::list_side_effect::by_name(name) {
            return Some(Variant::ListSideEffect(kind));
        }
        reference::mutant(name).ok().map(Variant::Mutant)
    }

    /// What an auth mutant changes in the guard and the metadata (`None` for the others).
    pub fn auth_change(&self) -> Option<AuthChange> {
        match self {
            Variant::Mutant(m) => m.auth_change(),
            Variant::Reference
            | Variant::Null
            | Variant::TrustsKnownConnection
            | Variant::ListSideEffect(_) => None,
        }
    }

    /// How the startup line names it.
    pub fn label(&self) -> String {
        match self {
            Variant::Reference => "the reference server".to_string(),
            Variant::Mutant(m) => format!("mutant {} (breaks {})", m.name, m.rule),
            Variant::Null => "the null server".to_string(),
            Variant::TrustsKnownConnection => format!(
                "mutant {} (breaks BASE-STATELESS-NO-PRIOR)",
                reference::connection::TRUSTS_KNOWN_CONNECTION
            ),
            Variant::ListSideEffect(k) => format!(
                "mutant {} (breaks {})",
                reference::list_side_effect::mutant_name(*k),
                k.rule()
            ),
        }
    }

    /// The surface it serves by default: the fixture, listed in pages for the mutants whose
    /// rule shows only on a second page (`mutants::needs_pages`: `serve --page-size 2`).
    pub fn default_surface(&self) -> Surface {
        match self {
            Variant::Mutant(m) if reference::mutants::needs_pages(m) => fixture::paged_surface(),
            _ => fixture::surface(),
        }
    }

    /// The answer to one request (pure; the connection mutant's context filling happens
    /// before, per connection, in `http.rs`).
    pub fn respond(&self, case: &Case, surface: &Surface) -> Response {
        match self {
            Variant::Reference | Variant::TrustsKnownConnection | Variant::ListSideEffect(_) => {
                reference::respond(case, surface)
            }
            // an auth mutant answers like the reference: it differs in the guard in front
            Variant::Mutant(m) => reference::respond_mutant(m, case, surface),
            Variant::Null => reference::null_response(case),
        }
    }
}

/// A server running in the background; dropping it without `shutdown` leaves it running
/// until the runtime ends.
pub struct RunningServer {
    /// The bound address (the real port when 0 was asked for).
    pub addr: SocketAddr,
    /// `http://ADDR/mcp` (`https://` when served over TLS).
    pub url: String,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl RunningServer {
    /// Stop accepting, drop every open connection (including open SSE streams) and wait.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

/// Bind `addr` and serve `variant` on `/mcp` until shut down, with its default surface
/// (`Variant::default_surface`).
pub async fn spawn(variant: Variant, addr: SocketAddr) -> io::Result<RunningServer> {
    spawn_with(variant, addr, variant.default_surface()).await
}

/// Like [`spawn`], declaring `surface` instead of the fixture's (`serve --tools`: the fixture
/// plus a loaded tool set, see `ToolSet::extend_surface`).
pub async fn spawn_with(
    variant: Variant,
    addr: SocketAddr,
    surface: Surface,
) -> io::Result<RunningServer> {
    spawn_full(variant, addr, surface, ServeOptions::default()).await
}

/// Like [`spawn_with`], over TLS when `tls` is given (`serve --tls-cert --tls-key`, see
/// [`tls::server_config`]): the URL is then `https://ADDR/mcp`.
pub async fn spawn_tls(
    variant: Variant,
    addr: SocketAddr,
    surface: Surface,
    tls: Option<Arc<rustls::ServerConfig>>,
) -> io::Result<RunningServer> {
    let opts = ServeOptions {
        tls,
        ..ServeOptions::default()
    };
    spawn_full(variant, addr, surface, opts).await
}

/// Like [`spawn_with`], with slow or hostile timing (`slow.rs`). With `slow_tool_ms`, pass a
/// surface that publishes the slow tool (`slow::with_slow_tool`).
pub async fn spawn_custom(
    variant: Variant,
    addr: SocketAddr,
    surface: Surface,
    extras: slow::Extras,
) -> io::Result<RunningServer> {
    let opts = ServeOptions {
        extras,
        ..ServeOptions::default()
    };
    spawn_full(variant, addr, surface, opts).await
}

/// `serve --auth TOKEN [--foreign-token F]`: the reference (or an auth mutant) as a
/// protected resource: only `Authorization: Bearer TOKEN` is served, everything else gets
/// the 401 challenge, and the protected-resource metadata is served at its well-known URI
/// (`mcpdiff_oracle::reference::auth`).
pub async fn spawn_protected(
    variant: Variant,
    addr: SocketAddr,
    surface: Surface,
    auth: Option<(String, Option<String>)>,
) -> io::Result<RunningServer> {
    let opts = ServeOptions {
        auth,
        ..ServeOptions::default()
    };
    spawn_full(variant, addr, surface, opts).await
}

/// How `serve` runs besides the variant and surface: `--auth`/`--foreign-token` and
/// `--tls-cert`/`--tls-key` and `--slow-tool-ms`/`--hostile` (they combine: a protected
/// resource over HTTPS with a slow tool).
#[derive(Clone, Default)]
pub struct ServeOptions {
    /// The accepted token and the foreign-audience one (`spawn_protected`).
    pub auth: Option<(String, Option<String>)>,
    /// Serve over TLS with this configuration (`spawn_tls`).
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Slow or hostile timing (`serve --slow-tool-ms`, `--hostile`; `spawn_custom`).
    pub extras: slow::Extras,
    /// `serve --dual-era`: answer legacy requests (`initialize` and its session) with this
    /// 2025-11-25 server; `None` keeps the modern-only reference.
    pub dual_era: Option<legacy::LegacyVariant>,
    /// `serve --legacy-only`: a 2025-11-25-only server. Every request goes to the legacy
    /// server (`dual_era`, the legacy reference when `None`), so a modern request is refused
    /// as a 2025-11-25 server refuses it (no session: 400, oracle/DEVIATIONS.md D-L31), never
    /// served by the modern one.
    pub legacy_only: bool,
}

/// Bind `addr` and serve `variant` on `/mcp` with `opts` until shut down.
pub async fn spawn_full(
    variant: Variant,
    addr: SocketAddr,
    surface: Surface,
    opts: ServeOptions,
) -> io::Result<RunningServer> {
    let mut surface = surface;
    let mut opts = opts;
    if opts.legacy_only {
        opts.dual_era
            .get_or_insert(legacy::LegacyVariant::Reference);
        // it speaks no 2026-07-28: only the legacy versions (the legacy reference reads
        // them from `LEGACY_VERSIONS`, not from this list)
        surface.supported_versions.clear();
    }
    if opts.dual_era.is_some() {
        // a dual-era server publishes the legacy versions it speaks (D-33)
        for v in mcpdiff_oracle::reference::legacy::LEGACY_VERSIONS {
            if !surface.supported_versions.iter().any(|s| s == v) {
                surface.supported_versions.push(v.to_string());
            }
        }
        surface.legacy_era = true;
    }
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let (stop, mut stopped) = oneshot::channel();
    let ServeOptions {
        auth,
        tls,
        extras,
        dual_era,
        legacy_only,
    } = opts;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let acceptor = tls.map(tokio_rustls::TlsAcceptor::from);
    let auth = auth.map(|(token, foreign_token)| AuthConfig {
        token,
        foreign_token,
        origin: format!("{scheme}://{addr}"),
        endpoint: surface.endpoint.clone(),
    });
    let state = Arc::new(http::ServeState {
        variant,
        surface,
        scheme,
        auth,
        extras,
        legacy: dual_era.map(legacy::LegacyShell::new),
        legacy_only,
    });
    let task = tokio::spawn(async move {
        let mut connections = JoinSet::new();
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _peer)) => {
                        // an SSE head and its first event are two small writes: without
                        // this, Nagle's algorithm holds the event until the client's delayed
                        // ACK (~40 ms per listen stream, seen in strace). Set here, once, for
                        // both schemes (TLS records are small writes too). A failure only
                        // costs that latency.
                        let _ = stream.set_nodelay(true);
                        let local = stream.local_addr().ok();
                        let state = state.clone();
                        match &acceptor {
                            None => {
                                connections.spawn(http::serve_connection(stream, local, state));
                            }
                            Some(a) => {
                                connections.spawn(tls::serve(a.clone(), stream, local, state));
                            }
                        }
                    }
                    // transient accept errors (EMFILE, aborted handshakes): keep serving,
                    // after a pause so a persistent error cannot spin the loop
                    Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
                },
                // reap finished connections so the set does not grow without bound
                Some(_) = connections.join_next(), if !connections.is_empty() => {}
            }
        }
        connections.abort_all();
        while connections.join_next().await.is_some() {}
    });
    Ok(RunningServer {
        addr,
        url: format!("{scheme}://{addr}/mcp"),
        stop: Some(stop),
        task,
    })
}
