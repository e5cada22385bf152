//! Helpers shared by the end-to-end tests that start `mcpdiff serve` children: a served child
//! killed by its handle when dropped, and certificates generated with rcgen.
#![allow(dead_code)] // each test binary uses its own subset

pub mod listens;
pub mod probe_run;
pub mod protected;
pub mod raw_http;
pub mod replay;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_mcpdiff");

/// A `mcpdiff serve` child, killed (by its handle) when dropped.
pub struct Served {
    pub child: Child,
    pub url: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn serve(args: &[&str]) -> Served {
    let mut child = Command::new(BIN)
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mcpdiff serve");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("piped stdout");
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("startup line");
    // "mcpdiff: serving ... at URL (N tools)"
    let url = line
        .split(" at ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    Served { child, url }
}

/// A fresh folder with `cert.pem`/`key.pem` for `names` (a self-signed leaf, its own CA).
pub fn cert_dir(tag: &str, names: &[&str]) -> PathBuf {
    cert_dir_ca(tag, names, false)
}

/// `cert_dir`; `ca`: the certificate is marked CA:TRUE, as `openssl req -x509` makes it.
pub fn cert_dir_ca(tag: &str, names: &[&str], ca: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpdiff-https-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let mut params = rcgen::CertificateParams::new(names).unwrap();
    if ca {
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    }
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    std::fs::write(dir.join("cert.pem"), cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), key.serialize_pem()).unwrap();
    dir
}

/// `mcpdiff serve --tls-cert DIR/cert.pem --tls-key DIR/key.pem EXTRA...` (see [`cert_dir`]).
pub fn tls_serve(dir: &Path, extra: &[&str]) -> Served {
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    let mut args = vec![
        "--tls-cert",
        cert.to_str().unwrap(),
        "--tls-key",
        key.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    serve(&args)
}

/// Every file below `dir`, recursively.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("read dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            out.push(p);
        }
    }
    out
}
