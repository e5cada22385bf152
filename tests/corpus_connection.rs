//! Connection-probe findings in the regression corpus (`corpus::connection`): a run's
//! BASE-STATELESS-NO-PRIOR and TOOLS-LIST-STABLE findings are saved with their whole sequence
//! by connection, and `mcpdiff replay` sends each sequence again as the probe did: the mutant
//! that broke the rule still fails it, a server that keeps its context and lists to itself
//! passes, and a list is read again through the cursors the replayed server gives, so a
//! server that never issued the stored ones (or pages otherwise) is judged, not left
//! undecided.

mod common;

use common::probe_run::{run_then, ConnectionProbe};
use common::replay::{off_loopback, reference_serving, replay};
use mcpdiff::corpus::{self, build, connection, load_dir, Item};
use mcpdiff::serve::{spawn_with, Variant};
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::list_stable::ListKind;
use mcpdiff_oracle::reference::{respond, to_observation};
use std::net::SocketAddr;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_findings_are_kept_and_replayed_as_their_sequences() {
    // the list mutant lists its tools two a page: its sequence carries the pages' cursors
    let serves = [
        ("known", Variant::TrustsKnownConnection, fixture::surface()),
        (
            "lists",
            Variant::ListSideEffect(ListKind::Tools),
            fixture::paged_surface(),
        ),
        ("reference", Variant::Reference, fixture::surface()),
    ];
    let mut servers = Vec::new();
    for (_, v, surface) in &serves {
        let s = spawn_with(*v, SocketAddr::from(([127, 0, 0, 1], 0)), surface.clone())
            .await
            .expect("server starts");
        servers.push(s);
    }
    let named: Vec<(&str, &str)> = serves
        .iter()
        .map(|(name, _, _)| *name)
        .zip(servers.iter().map(|s| s.url.as_str()))
        .collect();
    let probes = [ConnectionProbe::Reuse, ConnectionProbe::ListStable];
    let (result, _) = run_then(&named, 10, &probes).await;

    let dir = std::env::temp_dir().join(format!("mcpdiff-corpus-conn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    build::save_run(&dir, &result, 1).expect("saved");
    let kept: Vec<corpus::Entry> = load_dir(&dir)
        .expect("the folder lists")
        .into_iter()
        .filter_map(|item| match item {
            Ok(Item::Server(l)) => Some(l.entry),
            _ => None,
        })
        .filter(connection::is_connection_entry)
        .collect();
    let rules: Vec<&str> = kept.iter().map(|e| e.rules[0].as_str()).collect();
    assert!(rules.contains(&"BASE-STATELESS-NO-PRIOR"), "{rules:?}");
    assert!(rules.contains(&"TOOLS-LIST-STABLE"), "{rules:?}");
    assert!(
        rules
            .iter()
            .all(|r| *r == "BASE-STATELESS-NO-PRIOR" || *r == "TOOLS-LIST-STABLE"),
        "{rules:?}"
    );
    for e in &kept {
        let seq = connection::sequence(e).expect("the probe's shape");
        // the request the entry records is the last one of the kept-alive connection
        let last = seq.connections()[seq.kept_alive()].last();
        assert_eq!(
            last,
            Some(&e.request.to_case().expect("case")),
            "{}",
            e.rules[0]
        );
        if e.rules[0] == "TOOLS-LIST-STABLE" {
            // each reading of the paged list: more than one page
            assert!(seq.connections().len() > 3, "{:?}", seq.connections().len());
        }
    }

    let urls: Vec<String> = servers.iter().map(|s| s.url.clone()).collect();
    let mut args = vec![dir.display().to_string()];
    args.extend(urls);
    let (code, stdout) = replay(args).await;
    let line = |rule: &str, url: &str, status: &str| line_in(&stdout, rule, url, status);
    let (known, lists, reference) = (&servers[0].url, &servers[1].url, &servers[2].url);
    assert!(
        line("BASE-STATELESS-NO-PRIOR", known, "still failing"),
        "{stdout}"
    );
    assert!(
        line("TOOLS-LIST-STABLE", lists, "still failing"),
        "{stdout}"
    );
    // a passing target prints no line (without --verbose): the unpaged servers never issued
    // the stored cursors, and their lists, read again in one page each, pass
    for url in [lists, reference] {
        assert!(!line("BASE-STATELESS-NO-PRIOR", url, ""), "{stdout}");
    }
    for url in [known, reference] {
        assert!(!line("TOOLS-LIST-STABLE", url, ""), "{stdout}");
    }
    // MUST findings fail the replay; nothing drifted
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains(" 0 drifted"), "{stdout}");

    // a reference paging three at a time refuses the stored cursor (it lapsed), yet the list
    // read through its own cursors is judged, and passes
    let by_three = mcpdiff_oracle::pages::with_page_size(fixture::surface(), 3);
    let list_entry = kept
        .iter()
        .find(|e| e.rules[0] == "TOOLS-LIST-STABLE")
        .expect("the list entry");
    let seq = connection::sequence(list_entry).expect("the probe's shape");
    let stored_page_two = &seq.connections()[1][0];
    let refused = to_observation(&respond(stored_page_two, &by_three));
    let code = refused.http().and_then(|a| a.error_code());
    assert_eq!(code, Some(-32602), "{refused:?}");
    let three = reference_serving(by_three).await;
    let args = vec![
        "--verbose".to_string(),
        dir.display().to_string(),
        three.url.clone(),
        reference.clone(),
    ];
    let (code, stdout) = replay(args).await;
    for url in [&three.url, reference] {
        assert!(
            line_in(&stdout, "TOOLS-LIST-STABLE", url, "passing"),
            "{stdout}"
        );
    }
    assert_eq!(code, Some(0), "{stdout}");
    three.shutdown().await;

    // off loopback, a sequence whose stored requests call a tool the target does not mark
    // read-only is not sent: the list probe's other request calls the menu tool (`0.0.0.0`
    // reaches this host, but is no loopback name)
    let mut writing = fixture::surface();
    for t in &mut writing.tools {
        t.read_only &= t.name != fixture::MENU_TOOL;
    }
    let server = reference_serving(writing).await;
    let off = off_loopback(&server.url);
    let (_, stdout) = replay(vec![dir.display().to_string(), off]).await;
    let held = format!(
        "tool '{}' is not annotated readOnlyHint",
        fixture::MENU_TOOL
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("not sent")
            && l.contains("TOOLS-LIST-STABLE-")
            && l.contains(&held)),
        "{stdout}"
    );
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    for s in servers {
        s.shutdown().await;
    }
}

/// Whether `stdout` has a line of `status` for an entry of `rule` on the target at `url`.
fn line_in(stdout: &str, rule: &str, url: &str, status: &str) -> bool {
    stdout
        .lines()
        .any(|l| l.starts_with(status) && l.contains(&format!("{rule}-")) && l.contains(url))
}
