//! `mcpdiff replay` judges each target with the surface that target declares, discovered and
//! era-probed as a run does it, not with the surface the entry was saved with. The committed
//! corpus was saved against modern-only servers. Replayed against the conformant dual-era
//! reference, it passes every case. Judged with the stored surface instead, three cases
//! failed: that surface holds rules for servers that speak only 2026-07-28. The same replay
//! against a mutant still finds the mutant's rule broken.

use mcpdiff::serve::{legacy::LegacyVariant, spawn, spawn_full, ServeOptions, Variant};
use mcpdiff_oracle::fixture;
use std::net::SocketAddr;
use std::process::Command;

/// The summary line of the target at `url`.
fn summary<'a>(stdout: &'a str, url: &str) -> &'a str {
    let head = format!("  {url} ({url}): ");
    stdout
        .lines()
        .find(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("no summary for {url} in {stdout}"))
}

/// The count before `label` in a summary line (`12 passing`).
fn count(line: &str, label: &str) -> usize {
    let at = line
        .find(&format!(" {label}"))
        .unwrap_or_else(|| panic!("no {label} in {line}"));
    let digits = line[..at].rsplit(|c: char| !c.is_ascii_digit()).next();
    digits
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no count before {label} in {line}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_target_is_judged_with_its_own_surface() {
    let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
    let dual = spawn_full(
        Variant::Reference,
        loopback,
        fixture::surface(),
        ServeOptions {
            dual_era: Some(LegacyVariant::Reference),
            ..ServeOptions::default()
        },
    )
    .await
    .expect("the dual-era reference starts");
    let mutant = spawn(
        Variant::mutant("origin-unchecked").expect("a mutant"),
        loopback,
    )
    .await
    .expect("the mutant starts");
    let (dual_url, mutant_url) = (dual.url.clone(), mutant.url.clone());
    let args = vec![
        "replay".to_string(),
        "corpus".to_string(),
        dual_url.clone(),
        mutant_url.clone(),
    ];
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&args)
            .output()
            .expect("run mcpdiff")
    })
    .await
    .expect("replay ran");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();

    let conformant = summary(&stdout, &dual_url);
    assert!(count(conformant, "passing") > 50, "{conformant}");
    for label in ["still failing", "newly failing"] {
        assert_eq!(count(conformant, label), 0, "{stdout}");
    }
    // the mutant refuses nothing from a foreign Origin: the corpus's Origin cases catch it
    let broken = summary(&stdout, &mutant_url);
    assert!(count(broken, "newly failing") > 0, "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("newly failing")
            && l.contains(&mutant_url)
            && l.contains("SHTTP-ORIGIN-403")),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    dual.shutdown().await;
    mutant.shutdown().await;
}
