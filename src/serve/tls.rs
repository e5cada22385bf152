//! `mcpdiff serve --tls-cert FILE --tls-key FILE`: the reference server (or a mutant) over
//! HTTPS, hyper over tokio-rustls with the `ring` provider. A test fixture for `https://`
//! targets on loopback, not a hardened service: HTTP/1.1 only, no client certificates.

use super::http::{serve_connection, ServeState};
use rustls::crypto::ring;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;

/// A client that opens a connection and never finishes the handshake is dropped after this.
const HANDSHAKE_LIMIT: Duration = Duration::from_secs(10);

/// The server configuration from a PEM certificate chain (leaf first) and a PEM private key
/// (PKCS#8, PKCS#1 or SEC1). The error names the file and what is wrong with it.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, String> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .map_err(|e| format!("cannot read --tls-cert {}: {e}", cert.display()))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--tls-cert {}: not PEM certificates: {e}", cert.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "--tls-cert {} holds no certificate (expected -----BEGIN CERTIFICATE-----)",
            cert.display()
        ));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| {
        format!(
            "--tls-key {}: no usable PEM private key: {e}",
            key.display()
        )
    })?;
    let mut config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS versions: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("--tls-cert/--tls-key do not form a usable pair: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Accept TLS on `stream` (bounded in time), then serve HTTP/1.1 inside it.
pub(crate) async fn serve(
    acceptor: TlsAcceptor,
    stream: TcpStream,
    local: Option<SocketAddr>,
    state: Arc<ServeState>,
) {
    // (TCP_NODELAY is already set: the accept loop sets it for both schemes)
    if let Ok(Ok(tls)) = tokio::time::timeout(HANDSHAKE_LIMIT, acceptor.accept(stream)).await {
        serve_connection(tls, local, state).await;
    }
}
