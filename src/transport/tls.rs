//! TLS for `https://` targets: the client configuration of a run (`Tls`, built once from
//! `TlsOptions`), the handshake, and the one-line messages that name why a handshake failed.
//!
//! rustls with the `ring` provider (no C toolchain beyond `cc`, fast to build). Trust: the
//! webpki roots by default; `--cacert FILE` replaces them with the PEM certificates of FILE
//! (a private CA, or a self-signed server certificate), as `curl --cacert` does, so the
//! reproducers verify against the same roots; `--insecure` accepts any certificate (handshake
//! signatures are still checked, as `curl -k` does). SNI is the URL's host name; an IP literal
//! sends no SNI and is verified against the certificate's IP SANs (rustls' `ServerName`).
//! ALPN offers only `http/1.1`: the transport speaks HTTP/1.1 and nothing else.

use super::endpoint::Endpoint;
use super::errors::TlsError;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{ring, CryptoProvider};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, Error, RootCertStore};
use rustls_pki_types::pem::PemObject;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// How a run verifies `https://` targets (the `--cacert` / `--insecure` flags).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsOptions {
    /// Trust only the PEM certificates of this file (absolute path once built into `Tls`).
    pub cacert: Option<PathBuf>,
    /// Accept any server certificate.
    pub insecure: bool,
}

/// The TLS client of a run: options plus the rustls configuration built from them once (the
/// CA file is read here, never per case). Cheap to clone.
#[derive(Clone)]
pub struct Tls {
    options: TlsOptions,
    connector: TlsConnector,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("options", &self.options)
            .finish()
    }
}

impl Default for Tls {
    /// The webpki roots, verifying.
    fn default() -> Self {
        static DEFAULT: OnceLock<Arc<ClientConfig>> = OnceLock::new();
        let config = DEFAULT.get_or_init(|| Arc::new(config_with(webpki_roots_verifier())));
        Tls {
            options: TlsOptions::default(),
            connector: TlsConnector::from(config.clone()),
        }
    }
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(ring::default_provider())
}

fn config_with(verifier: Arc<dyn ServerCertVerifier>) -> ClientConfig {
    let mut config = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        // Cannot fail: the ring provider has cipher suites for both default versions.
        .expect("ring supports TLS 1.2 and 1.3")
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    config
}

fn verifier_for(roots: RootCertStore) -> Result<Arc<dyn ServerCertVerifier>, TlsError> {
    rustls::client::WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider())
        .build()
        .map(|v| v as Arc<dyn ServerCertVerifier>)
        .map_err(|e| TlsError::Verifier(e.to_string()))
}

fn webpki_roots_verifier() -> Arc<dyn ServerCertVerifier> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    // Cannot fail: the builder only refuses an empty root store.
    verifier_for(roots).expect("the webpki root store is not empty")
}

impl Tls {
    /// Build the run's TLS client: read and parse `--cacert` now (an unreadable file or one
    /// with no certificate is an error naming the file).
    pub fn new(options: TlsOptions) -> Result<Tls, TlsError> {
        let mut options = options;
        let verifier: Arc<dyn ServerCertVerifier> = if options.insecure {
            Arc::new(AcceptAny)
        } else if let Some(path) = &options.cacert {
            let (roots, pinned) = load_roots(path)?;
            Arc::new(Pinned {
                inner: verifier_for(roots)?,
                pinned,
            })
        } else {
            return Ok(Tls::default());
        };
        if let Some(path) = &options.cacert {
            // Reproducers name the file: absolute, so they run from any folder.
            options.cacert = Some(std::fs::canonicalize(path).unwrap_or_else(|_| path.clone()));
        }
        Ok(Tls {
            options,
            connector: TlsConnector::from(Arc::new(config_with(verifier))),
        })
    }

    /// The options it was built from (reproducers and reports say them).
    pub fn options(&self) -> &TlsOptions {
        &self.options
    }

    /// Handshake over `tcp` with `endpoint`'s host. The error is the one-line message.
    pub(crate) async fn handshake(
        &self,
        tcp: TcpStream,
        endpoint: &Endpoint,
    ) -> Result<TlsStream<TcpStream>, TlsError> {
        let name = ServerName::try_from(endpoint.host.clone())
            .map_err(|_| TlsError::ServerName(endpoint.host.clone()))?;
        self.connector
            .connect(name, tcp)
            .await
            .map_err(|e| TlsError::Handshake(describe(&e, endpoint, &self.options)))
    }
}

/// The roots of a `--cacert` file, and its certificates as given (see [`Pinned`]).
fn load_roots(path: &Path) -> Result<(RootCertStore, Vec<CertificateDer<'static>>), TlsError> {
    let shown = || path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| TlsError::CacertUnreadable {
        path: shown(),
        error: e.to_string(),
    })?;
    let mut roots = RootCertStore::empty();
    let mut pinned = Vec::new();
    for cert in CertificateDer::pem_slice_iter(&bytes) {
        let cert = cert.map_err(|e| TlsError::CacertNotPem {
            path: shown(),
            error: e.to_string(),
        })?;
        roots
            .add(cert.clone())
            .map_err(|e| TlsError::CacertUnusable {
                path: shown(),
                error: e.to_string(),
            })?;
        pinned.push(cert);
    }
    if roots.is_empty() {
        return Err(TlsError::CacertEmpty { path: shown() });
    }
    Ok((roots, pinned))
}

/// The one-line message for a failed handshake with `endpoint`.
fn describe(e: &std::io::Error, endpoint: &Endpoint, options: &TlsOptions) -> String {
    let at = endpoint.authority_with_port();
    let fix = if options.cacert.is_some() {
        "check --cacert, or pass --insecure"
    } else {
        "pass --cacert FILE or --insecure"
    };
    let Some(tls) = e.get_ref().and_then(|i| i.downcast_ref::<Error>()) else {
        // No TLS error: the transport failed under the handshake. A server that speaks plain
        // HTTP answers the ClientHello with a 400 and closes, or just closes.
        return format!("TLS: handshake refused by {at} (server speaks plain HTTP?): {e}");
    };
    match tls {
        Error::InvalidCertificate(c) => match c {
            CertificateError::UnknownIssuer => {
                format!("TLS: certificate of {at} is signed by an unknown issuer; {fix}")
            }
            CertificateError::NotValidForNameContext {
                expected,
                presented,
            } => {
                let names: Vec<String> = presented
                    .iter()
                    .map(|p| format!("`{}`", presented_name(p)))
                    .collect();
                format!(
                    "TLS: certificate is for {}, not `{}`",
                    if names.is_empty() {
                        "no name".to_string()
                    } else {
                        names.join(", ")
                    },
                    expected.to_str()
                )
            }
            CertificateError::NotValidForName => {
                format!("TLS: certificate of {at} is not for `{}`", endpoint.host)
            }
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                format!("TLS: certificate of {at} has expired; {fix}")
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                format!("TLS: certificate of {at} is not valid yet; {fix}")
            }
            CertificateError::Other(o) if format!("{o:?}").contains("CaUsedAsEndEntity") => {
                format!(
                    "TLS: certificate of {at} is a CA certificate (CA:TRUE) presented as the \
                     server's own, and not one of the trusted ones; {fix}"
                )
            }
            other => format!("TLS: certificate of {at} rejected ({other:?}); {fix}"),
        },
        // Bytes that are not TLS records: a plain-HTTP server's 400 answer.
        Error::InvalidMessage(_) | Error::InappropriateMessage { .. } => {
            format!("TLS: handshake refused by {at} (server speaks plain HTTP?)")
        }
        Error::AlertReceived(alert) => {
            format!("TLS: handshake refused by {at} (alert {alert:?})")
        }
        Error::PeerIncompatible(p) => {
            format!("TLS: {at} offers nothing this client speaks ({p:?})")
        }
        other => format!("TLS: handshake with {at} failed: {other}"),
    }
}

/// A name as webpki reports it (`DnsName("localhost")`, `IpAddress(127.0.0.1)`), bare.
fn presented_name(p: &str) -> &str {
    for kind in ["DnsName(", "IpAddress("] {
        if let Some(inner) = p.strip_prefix(kind).and_then(|r| r.strip_suffix(')')) {
            return inner.trim_matches('"');
        }
    }
    p
}

/// `--cacert`: webpki verification against the file's certificates, plus one case webpki
/// refuses and curl/OpenSSL accept: the server presents exactly a certificate of the file and
/// that certificate is marked CA:TRUE (what `openssl req -x509` makes by default), so webpki
/// says "CA used as end entity". The user named this very certificate, so it is trusted,
/// still checking that it is for the host dialled (its validity period is not re-checked).
#[derive(Debug)]
struct Pinned {
    inner: Arc<dyn ServerCertVerifier>,
    pinned: Vec<CertificateDer<'static>>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        let verdict = self.inner.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        );
        match verdict {
            Err(Error::InvalidCertificate(CertificateError::Other(ref o)))
                if format!("{o:?}").contains("CaUsedAsEndEntity")
                    && self
                        .pinned
                        .iter()
                        .any(|p| p.as_ref() == end_entity.as_ref()) =>
            {
                let parsed = rustls::server::ParsedCertificate::try_from(end_entity)?;
                rustls::client::verify_server_name(&parsed, server_name)?;
                Ok(ServerCertVerified::assertion())
            }
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// `--insecure`: every certificate is accepted; handshake signatures are still verified with
/// the provider's algorithms (so the session is at least bound to the presented key).
#[derive(Debug)]
struct AcceptAny;

impl ServerCertVerifier for AcceptAny {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        let algs = ring::default_provider().signature_verification_algorithms;
        rustls::crypto::verify_tls12_signature(message, cert, dss, &algs)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        let algs = ring::default_provider().signature_verification_algorithms;
        rustls::crypto::verify_tls13_signature(message, cert, dss, &algs)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        ring::default_provider()
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::presented_name;

    #[test]
    fn presented_names_are_shown_bare() {
        assert_eq!(presented_name("DnsName(\"localhost\")"), "localhost");
        assert_eq!(presented_name("IpAddress(127.0.0.1)"), "127.0.0.1");
        assert_eq!(presented_name("DirectoryName"), "DirectoryName");
    }
}
