//! The HTTP/1.1 transport: sends a `Case` byte for byte over raw TCP (inside TLS for
//! `https://`) and turns whatever comes back into an `Observation`, within hard per-case
//! bounds.
//!
//! Files, one concept each:
//! - `endpoint`: `Endpoint`, parsed from `http(s)://host:port/path`;
//! - `tls`: `Tls`, the run's rustls client config (`--cacert`, `--insecure`) and the one-line
//!   handshake errors;
//! - `stream`: `Stream`, a plain or TLS connection;
//! - `wire`: `encode_request`, the exact request bytes (and whether they frame cleanly);
//! - `credentials`: `Credentials`, the `--header` fields, kept as secrets;
//! - `errors`: `CredentialError` and `TlsError`, the one-line configuration errors;
//! - `limits`: `Limits`, the time, size and SSE bounds of one case;
//! - `client`: `Client`, connect / write / read / keep-alive pool / one retry;
//! - `conn`: the deadline-bounded buffered reader and the idle-connection pool;
//! - `head`: status line and header parsing, body framing rules;
//! - `body`: Content-Length / chunked / until-close decoding, body classification;
//! - `sse`: incremental `text/event-stream` parsing;
//! - `response`: one response to an `Observation` (the failure taxonomy lives here);
//! - `reproducer`: `curl`, bash `/dev/tcp` or `openssl s_client` shell commands that resend a
//!   case;
//! - `reproducer_seq`: the same for the requests of a connection probe's finding, in order,
//!   on the connections the run sent them on (`curl --next` for a kept-alive one);
//! - `tests`, `tests_conn`, `tests_answer` (test only): the client against tiny hostile loopback servers.
//!
//! Hyper and reqwest are deliberately not used on the client side: they normalize exactly the
//! header bytes the generators plant.

mod body;
mod client;
mod conn;
mod credentials;
mod endpoint;
mod errors;
mod head;
mod limits;
mod reproducer;
mod reproducer_seq;
mod response;
mod sse;
mod stream;
mod tls;
mod wire;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_answer;
#[cfg(test)]
mod tests_conn;
#[cfg(test)]
mod tests_quiet;

pub use client::{Client, Exchange};
pub use credentials::{env_name, Credentials, Secret};
pub use endpoint::{Endpoint, EndpointError, Scheme};
pub use errors::{CredentialError, TlsError};
pub use limits::Limits;
pub use reproducer::{
    curl_command, nc_command, printf_command, reproducer, reproducer_tls, reproducer_with,
    s_client_command,
};
pub use reproducer_seq::sequence_reproducer;
pub use response::OnAnswer;
pub use tls::{Tls, TlsOptions};
pub use wire::{encode_request, encode_request_with, frames_cleanly};
