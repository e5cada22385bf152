//! Replay sets aside a benign-input rule's failure that the request's plain twin explains,
//! as a run does (`runner::shrink::twin_note`). Two committed entries, saved early against
//! the `no-base64-decode` mutant, recorded it failing SHTTP-HDR-OWS (padding) and
//! SHTTP-HDR-NAME-CI (odd case) beside SHTTP-B64-DECODE. Their sentinels decode to text that
//! needs encoding, so the twin keeps them: the mutant fails the twin on SHTTP-B64-DECODE
//! alone, and that rule, not the padding's or the name case's, is what it breaks. A mutant
//! that trips over the padding itself (none is reachable over HTTP: hyper trims it) is
//! covered by the pure unit tests of `corpus::replay::explained_benign`.

mod common;

use common::replay::replay;
use mcpdiff::serve::{spawn, Variant};
use std::net::SocketAddr;

const ENTRIES: [&str; 2] = [
    "corpus/SHTTP-HDR-OWS-c9bd2edd80ff.json",
    "corpus/SHTTP-HDR-NAME-CI-13d98c8d6d38.json",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benign_rule_is_set_aside_and_the_sentinel_rule_stands() {
    let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
    let mutant = spawn(
        Variant::mutant("no-base64-decode").expect("a mutant"),
        loopback,
    )
    .await
    .expect("the mutant starts");
    let url = mutant.url.clone();
    let mut args: Vec<String> = ENTRIES.iter().map(|e| e.to_string()).collect();
    args.push(url.clone());
    let (code, stdout) = replay(args).await;
    mutant.shutdown().await;
    assert_eq!(code, Some(1), "a MUST rule fails: {stdout}");
    for (entry, benign) in ENTRIES.iter().zip(["SHTTP-HDR-OWS", "SHTTP-HDR-NAME-CI"]) {
        let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(entry)).collect();
        assert_eq!(
            lines.len(),
            2,
            "a status line and a note for {entry}: {stdout}"
        );
        assert!(
            lines[0].contains("[SHTTP-B64-DECODE]"),
            "only the sentinel rule fails: {}",
            lines[0]
        );
        assert!(
            lines[1].contains(&format!("{benign} set aside"))
                && lines[1].contains("answered 400")
                && lines[1].ends_with("fails SHTTP-B64-DECODE"),
            "the note names the twin's own answer: {}",
            lines[1]
        );
    }
}
