//! A scripted HTTP/1.1 server for the card-scan tests: fixed answers per `(method, path)`,
//! one request per connection, and a log of what was requested (to prove what the scan did
//! *not* send).

use crate::common::raw_http::read_request;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

/// One scripted answer: `(method, path)` → status, extra header, body (`{ORIGIN}` is
/// replaced by the server's own `http://127.0.0.1:PORT`).
#[derive(Clone)]
pub struct Route {
    pub method: &'static str,
    pub path: &'static str,
    pub status: u16,
    pub header: Option<(&'static str, &'static str)>,
    pub body: String,
}

pub fn get(path: &'static str, status: u16, body: impl Into<String>) -> Route {
    Route {
        method: "GET",
        path,
        status,
        header: None,
        body: body.into(),
    }
}

/// A scripted server; `log` holds every `METHOD path` it received.
pub struct Scripted {
    pub origin: String,
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Scripted {
    pub fn requested(&self, path: &str) -> bool {
        self.log
            .lock()
            .expect("log")
            .iter()
            .any(|l| l.ends_with(&format!(" {path}")))
    }
}

pub async fn scripted(routes: Vec<Route>) -> Scripted {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr: SocketAddr = listener.local_addr().expect("addr");
    let origin = format!("http://{addr}");
    let log = Arc::new(Mutex::new(Vec::new()));
    let (o, l) = (origin.clone(), log.clone());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(answer(stream, routes.clone(), o.clone(), l.clone()));
        }
    });
    Scripted { origin, log }
}

/// Read one request (head and Content-Length body), answer it and close.
async fn answer(
    mut s: TcpStream,
    routes: Vec<Route>,
    origin: String,
    log: Arc<Mutex<Vec<String>>>,
) {
    // (a test's client sends whole requests at once: 5 s is only the bound on a stuck one)
    let Some((head, _)) = read_request(&mut s, Duration::from_secs(5)).await else {
        return;
    };
    let mut words = head.split_whitespace();
    let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    log.lock().expect("log").push(format!("{method} {path}"));
    let route = routes.iter().find(|r| r.method == method && r.path == path);
    let (status, header, body) = match route {
        Some(r) => (r.status, r.header, r.body.replace("{ORIGIN}", &origin)),
        None => (404, None, "not found".to_string()),
    };
    let ctype = if body.starts_with(['{', '[']) {
        "application/json"
    } else {
        "text/plain"
    };
    let mut out = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some((n, v)) = header {
        out += &format!("{n}: {v}\r\n");
    }
    out += "\r\n";
    out += &body;
    let _ = s.write_all(out.as_bytes()).await;
    let _ = s.shutdown().await;
}
