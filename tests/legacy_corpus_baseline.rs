//! 2025-11-25 findings after a run (as `mcpdiff run URL --save-corpus DIR --baseline FILE`
//! drives it), over loopback HTTP against `serve --dual-era` with one legacy mutant: a
//! baseline entry naming the L-* finding keeps it from failing the run (and is not stale);
//! `--save-corpus` saves it as a sequence entry that reads back, re-judges without drift,
//! still fails the same rule on the mutant when replayed, and passes on the dual-era
//! reference, through the library and through `mcpdiff replay --reference`.

use mcpdiff::baseline::Baseline;
use mcpdiff::corpus::legacy::{classify, rejudge, stored_for};
use mcpdiff::corpus::{load_all, save_legacy_run, Item, Status};
use mcpdiff::pipeline::{self, Matrix, Settings, TargetSpec};
use mcpdiff::runner::legacy_seq::run_steps;
use mcpdiff::runner::Progress;
use mcpdiff::serve::legacy::LegacyVariant;
use mcpdiff::serve::{spawn_full, RunningServer, ServeOptions, Variant};
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::legacy::LegacyProfile;
use mcpdiff_oracle::reference::legacy::legacy_mutant;
use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

struct Quiet;
impl Progress for Quiet {}
impl pipeline::Events for Quiet {}

const MUTANT: &str = "legacy-deleted-session-served";

async fn serve(legacy: LegacyVariant) -> RunningServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal address");
    let opts = ServeOptions {
        dual_era: Some(legacy),
        ..ServeOptions::default()
    };
    spawn_full(Variant::Reference, addr, fixture::surface(), opts)
        .await
        .expect("bind loopback")
}

fn client() -> Client {
    Client::new(Limits {
        sse_max_time: Duration::from_millis(300),
        ..Limits::default()
    })
}

async fn run_on(url: &str) -> Matrix {
    let settings = Settings {
        concurrency: 4,
        shrink_budget: 40,
        probes: false,
        ..Settings::new(client(), 80, 2)
    };
    let never = std::future::pending::<()>();
    pipeline::run_matrix(&[TargetSpec::user_url(url)], &settings, &Quiet, never)
        .await
        .expect("not interrupted")
}

fn baseline(text: &str) -> Baseline {
    toml::from_str(text).expect("a baseline")
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("mcpdiff-legacy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_finding_is_baselined_saved_and_replayed() {
    let m = legacy_mutant(MUTANT).expect("a legacy mutant");
    let broken = serve(LegacyVariant::Mutant(m)).await;
    let reference = serve(LegacyVariant::Reference).await;
    let matrix = run_on(&broken.url).await;
    let rule = m.rule.0;

    // without a baseline the MUST finding fails the run
    let rep = matrix.report(&Baseline::default(), &client());
    let rev = rep.targets[0]
        .revision
        .as_ref()
        .expect("the revision probe ran");
    assert!(rev.other_revision_blocking());
    let legacy = &rev.revisions[0];
    assert_eq!(legacy.findings.len(), 1, "{:#?}", legacy.findings);
    assert_eq!(legacy.findings[0].rule, rule);
    assert!(legacy.generated > 0);

    // a baseline naming the target and the L-* rule: known, not failing, not stale
    let known = baseline(&format!(
        "[[known]]\ntarget = \"{}\"\nrule = \"{rule}\"\n\n[[known]]\ntarget = \"*\"\nrule = \
         \"L-SHTTP-ORIGIN-403\"\n",
        broken.url
    ));
    let rep = matrix.report(&known, &client());
    let rev = rep.targets[0]
        .revision
        .as_ref()
        .expect("the revision probe ran");
    assert!(rev.revisions[0].findings[0].baselined);
    assert!(
        !rev.other_revision_blocking(),
        "a baselined finding does not fail the run"
    );
    let stale: Vec<&str> = rep.baseline_stale.iter().map(|k| k.rule.0).collect();
    assert_eq!(
        stale,
        vec!["L-SHTTP-ORIGIN-403"],
        "only the entry naming no finding"
    );

    // `mcpdiff baseline r.json` lists the L-* finding, and that baseline keeps it known
    let json = tmp("report.json");
    let text = serde_json::to_string(&matrix.report(&Baseline::default(), &client()))
        .expect("a report serializes");
    std::fs::write(&json, text).expect("write the report");
    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["baseline", json.to_str().expect("utf-8 path")])
        .output()
        .expect("run mcpdiff baseline");
    let made = baseline(&String::from_utf8_lossy(&out.stdout));
    assert!(made.known.iter().any(|k| k.rule.0 == rule), "{made:?}");
    let rep = matrix.report(&made, &client());
    let rev = rep.targets[0]
        .revision
        .as_ref()
        .expect("the revision probe ran");
    assert!(!rev.other_revision_blocking());
    let _ = std::fs::remove_file(&json);

    // --save-corpus: one sequence entry, read back, no drift
    let dir = tmp("corpus");
    let line = save_legacy_run(&dir, &matrix.legacy_outcomes(), 2).expect("saved");
    assert!(line.contains("1 new"), "{line}");
    let items = load_all(std::slice::from_ref(&dir));
    assert_eq!(items.len(), 1);
    let Ok(Item::Legacy(l)) = &items[0] else {
        panic!("not a legacy entry: {:?}", items[0]);
    };
    assert_eq!(l.entry.rules, vec![rule.to_string()]);
    assert!(rejudge(&l.entry).is_empty(), "{:?}", rejudge(&l.entry));
    // saved again: the same file, unchanged
    let again = save_legacy_run(&dir, &matrix.legacy_outcomes(), 2).expect("saved");
    assert!(
        again.contains("0 new") && again.contains("0 updated"),
        "{again}"
    );

    // replayed: still failing on the mutant, passing on the dual-era reference
    let profile = LegacyProfile {
        supported: l.entry.supported.clone(),
    };
    let c = client();
    for (server, name, want) in [
        (&broken, broken.url.as_str(), Status::StillFailing),
        (&reference, "reference", Status::Passing),
    ] {
        let e = Endpoint::parse(&server.url).expect("own URL");
        let send = |case| {
            let (c, e) = (&c, &e);
            async move { c.send(&case, e).await }
        };
        let run = run_steps(&l.entry.steps, &e.path, &profile, true, send).await;
        let (status, failing, must) = classify(stored_for(&l.entry, name, &server.url), &run);
        assert_eq!(status, want, "{name}: {failing:?}");
        assert_eq!(must, want == Status::StillFailing);
    }

    // the CLI: `replay DIR --reference` passes on the dual-era reference, and replaying it
    // against the mutant fails on the MUST rule
    let bin = env!("CARGO_BIN_EXE_mcpdiff");
    let out = Command::new(bin)
        .args(["replay", dir.to_str().expect("utf-8 path"), "--reference"])
        .output()
        .expect("run mcpdiff replay");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("reference (") && text.contains("1 passing"),
        "{text}"
    );
    let out = Command::new(bin)
        .args(["replay", dir.to_str().expect("utf-8 path"), &broken.url])
        .output()
        .expect("run mcpdiff replay");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("still failing") && text.contains(rule),
        "{text}"
    );

    broken.shutdown().await;
    reference.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}
