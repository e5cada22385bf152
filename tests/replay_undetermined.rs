//! `replay` against targets whose answers decide nothing: a server that never answers (every
//! case cut by `--timeout-ms`) and one whose authorization layer refuses every request (`401`
//! with `WWW-Authenticate`). Their cases are "not determined", counted and shown, never
//! passing or failing, and a target none of whose answers decided anything ends the replay
//! with status 2, as an unreachable one does.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// How a raw loopback server treats each request.
#[derive(Clone, Copy)]
enum Behaviour {
    /// Read the request, then say nothing for 3 s (longer than the replay's case limit).
    Silent,
    /// Answer `401` with a `WWW-Authenticate` challenge.
    Challenge,
}

/// Serve at most `max` connections in the background; the URL of its endpoint.
fn server(behaviour: Behaviour, max: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/mcp", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for _ in 0..max {
            let Ok((s, _)) = listener.accept() else {
                return;
            };
            std::thread::spawn(move || answer(s, behaviour));
        }
    });
    url
}

fn answer(mut s: TcpStream, behaviour: Behaviour) {
    let _ = s.set_read_timeout(Some(Duration::from_secs(3)));
    let mut chunk = [0u8; 8192];
    // the head is all either behaviour needs (a replayed case fits one read on loopback)
    let _ = s.read(&mut chunk);
    match behaviour {
        Behaviour::Silent => std::thread::sleep(Duration::from_secs(3)),
        Behaviour::Challenge => {
            let _ = s.write_all(
                b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer realm=\"mcp\"\r\n\
                  Content-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    }
}

/// A folder holding the first `n` entries of the committed corpus.
fn small_corpus(name: &str, n: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpdiff-undet-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&committed)
        .expect("corpus/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for f in files.iter().take(n) {
        let to = dir.join(f.file_name().expect("file name"));
        std::fs::copy(f, to).expect("copy entry");
    }
    dir
}

fn replay(dir: &Path, url: &str) -> (Option<i32>, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["replay", dir.to_str().expect("utf-8 path"), url])
        .args(["--timeout-ms", "400"])
        .output()
        .expect("run mcpdiff replay");
    let text = format!(
        "--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// Replay three stored cases against a server that behaves so: every case is "not
/// determined" for `reason`, none passes or fails, and the replay ends with status 2.
fn assert_nothing_decided(behaviour: Behaviour, name: &str, reason: &str) {
    let dir = small_corpus(name, 3);
    let (code, text) = replay(&dir, &server(behaviour, 16));
    let counts =
        format!("0 passing, 0 fixed, 0 still failing, 0 newly failing, 3 not determined: {reason}");
    assert!(text.contains(&counts), "{text}");
    // the line `run` prints for such a target too (`exit::nothing_decided`), with the count
    assert!(
        text.contains(&format!("all not determined: 3 {reason}")),
        "{text}"
    );
    assert_eq!(code, Some(2), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cut_answers_are_not_determined_and_decide_nothing() {
    assert_nothing_decided(Behaviour::Silent, "silent", "timed out");
}

#[test]
fn refused_credentials_are_not_determined() {
    assert_nothing_decided(Behaviour::Challenge, "challenge", "unauthorized");
}
