//! `mcpdiff serve --tls-cert FILE --tls-key FILE`: the reference server (or a mutant) over
//! HTTPS, hyper over tokio-rustls with the `ring` provider. A test fixture for `https://`
//! targets on loopback, not a hardened service: HTTP/1.1 only, no client certificates.

use super::http::{serve_connection, ServeState};
use rustls::crypto::ring;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject;
use std::fmt;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;

/// A client that opens a connection and never finishes the handshake is dropped after this.
const HANDSHAKE_LIMIT: Duration = Duration::from_secs(10);

/// Why `--tls-cert`/`--tls-key` gave no server configuration. The `Display` text is the one
/// line `mcpdiff serve` prints: it names the file and what is wrong with it. The underlying
/// errors are kept as text (they come from two PEM readers and rustls).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerTlsError {
    UnreadableCert { path: String, error: String },
    NotPem { path: String, error: String },
    NoCertificate { path: String },
    NoKey { path: String, error: String },
    Versions(String),
    BadPair(String),
}

impl fmt::Display for ServerTlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerTlsError::UnreadableCert { path, error } => {
                write!(f, "cannot read --tls-cert {path}: {error}")
            }
            ServerTlsError::NotPem { path, error } => {
                write!(f, "--tls-cert {path}: not PEM certificates: {error}")
            }
            ServerTlsError::NoCertificate { path } => write!(
                f,
                "--tls-cert {path} holds no certificate (expected -----BEGIN CERTIFICATE-----)"
            ),
            ServerTlsError::NoKey { path, error } => {
                write!(f, "--tls-key {path}: no usable PEM private key: {error}")
            }
            ServerTlsError::Versions(e) => write!(f, "TLS versions: {e}"),
            ServerTlsError::BadPair(e) => {
                write!(f, "--tls-cert/--tls-key do not form a usable pair: {e}")
            }
        }
    }
}

impl std::error::Error for ServerTlsError {}

/// The server configuration from a PEM certificate chain (leaf first) and a PEM private key
/// (PKCS#8, PKCS#1 or SEC1). The error names the file and what is wrong with it.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, ServerTlsError> {
    let cert_path = cert.display().to_string();
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .map_err(|e| ServerTlsError::UnreadableCert {
            path: cert_path.clone(),
            error: e.to_string(),
        })?
        .collect::<Result<_, _>>()
        .map_err(|e| ServerTlsError::NotPem {
            path: cert_path.clone(),
            error: e.to_string(),
        })?;
    if certs.is_empty() {
        return Err(ServerTlsError::NoCertificate { path: cert_path });
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| ServerTlsError::NoKey {
        path: key.display().to_string(),
        error: e.to_string(),
    })?;
    let mut config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| ServerTlsError::Versions(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| ServerTlsError::BadPair(e.to_string()))?;
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
