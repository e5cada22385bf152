//! `Stream`: one connection to a target, plain TCP or TLS over TCP, and the check that an
//! idle pooled one is still usable.
//!
//! An enum rather than a trait object: the plain path stays exactly what it was (borrowed
//! `TcpStream` halves, no lock), and only TLS pays for `tokio::io::split`'s shared state.

use futures::task::noop_waker_ref;
use std::task::{Context, Poll};
use tokio::io::ReadBuf;
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

/// A connection to a target.
#[derive(Debug)]
pub(crate) enum Stream {
    Plain(TcpStream),
    /// Boxed: a TLS session is about a kilobyte of state, the plain variant a handle.
    Tls(Box<TlsStream<TcpStream>>),
}

impl Stream {
    fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(s) => s,
            Stream::Tls(s) => s.get_ref().0,
        }
    }

    /// Whether an idle connection still looks open: nothing to read and not closed. A server
    /// that closed the idle connection (or wrote to it unasked, a TLS close_notify included)
    /// shows it as readable; such a connection would fail or desynchronize the next case.
    /// Peeks the TCP socket without consuming, so a TLS record stream stays intact.
    pub fn looks_open(&self) -> bool {
        let mut probe = [0u8; 1];
        let mut buf = ReadBuf::new(&mut probe);
        let mut cx = Context::from_waker(noop_waker_ref());
        matches!(self.tcp().poll_peek(&mut cx, &mut buf), Poll::Pending)
    }
}
