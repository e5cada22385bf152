//! `mcpdiff replay` judges each target with the surface that target declares, discovered and
//! era-probed as a run does it, not with the surface the entry was saved with. The committed
//! corpus was saved against modern-only servers. Replayed against the conformant dual-era
//! reference, it passes every case. Judged with the stored surface instead, three cases
//! failed: that surface holds rules for servers that speak only 2026-07-28. The same replay
//! against a mutant still finds the mutant's rule broken. With the target's surface known,
//! replay keeps `run`'s safety gate too: off loopback, only read-only tools are called.

mod common;

use common::replay::{off_loopback, reference_serving, replay, replay_with_stderr};
use mcpdiff::serve::{legacy::LegacyVariant, spawn, spawn_full, ServeOptions, Variant};
use mcpdiff_oracle::fixture;
use std::net::SocketAddr;

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
    let args = vec!["corpus".into(), dual_url.clone(), mutant_url.clone()];
    let (code, stdout, stderr) = replay_with_stderr(args).await;
    // what each target was judged with is said, the era too
    let said = format!("mcpdiff: {dual_url}: judged with what it declares: ");
    let line = stderr.lines().find(|l| l.starts_with(&said));
    assert!(
        line.is_some_and(|l| l.ends_with(", also 2025-11-25 (dual-era)")),
        "{stderr}"
    );

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
    assert_eq!(code, Some(1), "{stdout}");
    dual.shutdown().await;
    mutant.shutdown().await;
}

/// Off loopback, a stored call of a tool the target declares without readOnlyHint is not
/// sent unless `--allow-tool` names it, the gate `run` keeps. `0.0.0.0` reaches this host
/// while `is_loopback` does not take it for a loopback name: the gate holds, traffic stays
/// on the machine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn off_loopback_a_writing_tool_is_not_called_unless_allowed() {
    let mut surface = fixture::surface();
    let tool = surface
        .tools
        .iter_mut()
        .find(|t| t.name == "execute_sql")
        .expect("the fixture's execute_sql");
    tool.read_only = false;
    let server = reference_serving(surface).await;
    let off = off_loopback(&server.url);
    let gated_line = |l: &&str| l.starts_with("not sent") && l.contains("'execute_sql'");

    let (code, stdout) = replay(vec!["corpus".into(), off.clone()]).await;
    let gated = stdout.lines().filter(gated_line).count();
    assert!(gated > 0, "{stdout}");
    assert!(
        summary(&stdout, &off).ends_with(&format!(", {gated} not sent (tool calls off loopback)")),
        "{stdout}"
    );
    assert_eq!(
        count(summary(&stdout, &off), "newly failing"),
        0,
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");

    let (_, allowed) = replay(vec![
        "corpus".into(),
        off.clone(),
        "--allow-tool".into(),
        "execute_sql".into(),
    ])
    .await;
    assert_eq!(allowed.lines().filter(gated_line).count(), 0, "{allowed}");
    let passing = |out: &str| count(summary(out, &off), "passing");
    assert_eq!(passing(&allowed), passing(&stdout) + gated, "{allowed}");

    // on loopback every stored call goes
    let (_, local) = replay(vec!["corpus".into(), server.url.clone()]).await;
    assert_eq!(local.lines().filter(gated_line).count(), 0, "{local}");
    server.shutdown().await;
}

/// A target whose `server/discover` never completes (every answer a `200` SSE stream that
/// never ends) declares nothing readable: its answers are judged with each case's stored
/// surface, not with the empty stand-in, which would read every tool a case calls as
/// undeclared and fail the target for refusing its headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_target_that_declares_nothing_readable_keeps_the_stored_surface() {
    let server = spawn_full(
        Variant::Reference,
        SocketAddr::from(([127, 0, 0, 1], 0)),
        fixture::surface(),
        ServeOptions {
            extras: mcpdiff::serve::slow::Extras {
                sse_forever: true,
                ..Default::default()
            },
            ..ServeOptions::default()
        },
    )
    .await
    .expect("the hostile reference starts");
    let args = vec![
        "corpus".into(),
        server.url.clone(),
        "--timeout-ms".into(),
        "300".into(),
    ];
    let (_, stdout) = replay(args).await;
    let line = summary(&stdout, &server.url);
    assert_eq!(count(line, "newly failing"), 0, "{stdout}");
    assert!(count(line, "passing") > 0, "{stdout}");
    assert!(line.contains("not determined: timed out"), "{stdout}");
    server.shutdown().await;
}

/// An entry saved failing against a tool the target has since stopped declaring is not
/// "fixed" when the target refuses the call as an unknown tool: the rule it failed was
/// never judged on that answer. It is "not determined: no longer exercised", with the rule
/// named; against a target that still declares the tool and gets it right, it is "fixed".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_on_a_tool_no_longer_declared_is_not_called_fixed() {
    let mut without = fixture::surface();
    without.tools.retain(|t| t.name != "execute_sql");
    let (gone, kept) = (
        reference_serving(without).await,
        reference_serving(fixture::surface()).await,
    );
    // the entry recorded a base64 mismatch on an `execute_sql` call, once per target
    let stored = "SHTTP-B64-DECODE-fdae31770003.json";
    let text = std::fs::read_to_string(format!("corpus/{stored}")).expect("the committed entry");
    let mut entry: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let record = entry["targets"][0].clone();
    assert_eq!(record["failing"], serde_json::json!(["SHTTP-B64-DECODE"]));
    entry["targets"] = serde_json::Value::Array(
        [&gone.url, &kept.url]
            .iter()
            .map(|url| {
                let mut r = record.clone();
                r["url"] = serde_json::Value::String(url.to_string());
                r
            })
            .collect(),
    );
    let dir = std::env::temp_dir().join(format!("mcpdiff-unexercised-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join(stored), entry.to_string()).expect("write entry");

    let dir_arg = dir.to_str().expect("utf-8 path").to_string();
    let (code, stdout) = replay(vec![dir_arg, gone.url.clone(), kept.url.clone()]).await;
    let line_of = |url: &str, status: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(status) && l.contains(url))
            .map(str::to_string)
    };
    let unexercised = line_of(&gone.url, "not determined: no longer exercised");
    assert!(
        unexercised.is_some_and(|l| l.contains("[SHTTP-B64-DECODE]")),
        "{stdout}"
    );
    assert_eq!(count(summary(&stdout, &gone.url), "fixed"), 0, "{stdout}");
    assert!(line_of(&kept.url, "fixed").is_some(), "{stdout}");
    assert_eq!(count(summary(&stdout, &kept.url), "fixed"), 1, "{stdout}");
    // nothing failed, but the first target's one case decided nothing: as for a target whose
    // every answer was cut, the replay says so and ends with status 2
    assert_eq!(code, Some(2), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
    gone.shutdown().await;
    kept.shutdown().await;
}
