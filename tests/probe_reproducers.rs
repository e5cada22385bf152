//! The reproducers of the connection probes' findings (BASE-STATELESS-NO-PRIOR,
//! `*-LIST-STABLE`) over real loopback HTTP: the report a run writes (`Matrix::report`) holds
//! every request of the probe's sequence in order, on the connections the probe used, in the
//! reproducer and beside it (JSON, terminal, SARIF); and, where `curl` and `bash` exist,
//! running the printed reproducer against the mutant shows the failing answer, while running
//! the request whose answer the finding shows alone does not. Their corpus entries keep the
//! same sequence (`corpus::connection`).

use mcpdiff::baseline::Baseline;
use mcpdiff::pipeline::Matrix;
use mcpdiff::report::{self, json::FindingReport};
use mcpdiff::runner::{
    auth_probes, list_stable_probe, reuse_probe, tally::Tally, RunConfig, RunResult, TargetOutcome,
};
use mcpdiff::serve::{spawn, RunningServer, Variant};
use mcpdiff::transport::{reproducer, sequence_reproducer, Client, Endpoint, Limits};
use mcpdiff_oracle::list_stable::ListKind;
use mcpdiff_oracle::{fixture, Case};
use serde_json::Value;
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

async fn start(v: Variant) -> RunningServer {
    spawn(v, SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("server starts")
}

/// The finding of `rule` in the report of a run whose only judgements are one probe's.
async fn probe_finding(s: &RunningServer, rule: &str, list: bool) -> FindingReport {
    let client = Client::new(Limits::default());
    let e = Endpoint::parse(&s.url).expect("url");
    let surface = fixture::surface();
    let (judged, _) = if list {
        list_stable_probe::probe(&client, &e, &surface).await
    } else {
        reuse_probe::probe(&client, &e, &surface).await
    };
    let mut t = TargetOutcome {
        name: "mutant".into(),
        url: s.url.clone(),
        surface,
        notes: Vec::new(),
        tally: Tally::default(),
        findings: Vec::new(),
    };
    auth_probes::record(&mut t, judged);
    let matrix = Matrix {
        result: RunResult {
            targets: vec![t],
            ..RunResult::empty(Duration::ZERO)
        },
        config: RunConfig::new(0, 1, Duration::from_secs(5)),
        evidence: Vec::new(),
        untested: Vec::new(),
        notes: Vec::new(),
        end: Instant::now(),
        not_fuzzed: Vec::new(),
        revisions: Vec::new(),
    };
    // each of these findings gets a corpus entry whose sequence reads back as its probe's
    let saved = mcpdiff::corpus::build::run_entries(&matrix.result, 1);
    let mut saved_rules: Vec<&str> = saved.iter().map(|e| e.rules[0].as_str()).collect();
    let mut found_rules: Vec<&str> = matrix.result.targets[0]
        .findings
        .iter()
        .filter(|f| !f.connections.is_empty())
        .map(|f| f.rule.0)
        .collect();
    saved_rules.sort_unstable();
    found_rules.sort_unstable();
    assert!(!found_rules.is_empty());
    assert_eq!(saved_rules, found_rules);
    for e in &saved {
        let seq = mcpdiff::corpus::connection::sequence(e);
        assert!(seq.is_ok(), "{:?}: {seq:?}", e.rules);
    }
    let rep = matrix.report(&Baseline::default(), &client);
    assert!(report::terminal::render(&rep, false).contains(" --next "));
    let json = serde_json::to_string(&rep).expect("the report serializes");
    let sarif = report::sarif::render(&rep, &report::sarif::default_location);
    let f = rep.targets[0]
        .findings
        .iter()
        .find(|f| f.rule.0 == rule)
        .unwrap_or_else(|| panic!("a {rule} finding: {json}"))
        .clone();
    // the JSON and SARIF carry the sequence beside the command
    assert!(json.contains("\"connections\""), "{json}");
    assert!(sarif.contains("\"connections\""), "{sarif}");
    f
}

/// `reproducer` holds the bodies of `sequence`, in order, and one command per connection.
fn holds_in_order(reproducer: &str, sequence: &[Vec<Case>]) {
    let mut at = 0;
    for case in sequence.iter().flatten() {
        let body = String::from_utf8_lossy(&case.body).to_string();
        let found = reproducer[at..].find(&body);
        assert!(found.is_some(), "{body} after byte {at} of {reproducer}");
        at += found.unwrap_or_default() + body.len();
    }
    let commands = reproducer
        .lines()
        .filter(|l| l.starts_with("curl "))
        .count();
    assert_eq!(commands, sequence.len(), "{reproducer}");
}

/// The JSON-RPC answers a reproducer printed (`curl -i`, or the raw answers: status line,
/// fields, body), in order; `None` when curl or bash is missing.
fn answers(script: &str) -> Option<Vec<Value>> {
    let present = |p: &str| Command::new(p).arg("--version").output().is_ok();
    if !present("curl") || !present("bash") {
        // (under CI a skipped run would read as a pass: it fails there instead)
        assert!(
            std::env::var_os("CI").is_none(),
            "curl or bash missing under CI"
        );
        eprintln!("curl or bash missing: the reproducer is not run");
        return None;
    }
    let out = Command::new("timeout")
        .args(["30", "bash", "-c", script])
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    // (`timeout 5 cat` of the raw form ends a kept-alive connection with status 124)
    let ended = out.status.success() || out.status.code() == Some(124);
    assert!(ended, "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let bodies = text
        .split("HTTP/1.1 ")
        .skip(1)
        .map(|answer| {
            let body = answer.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
            serde_json::from_str(body.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
        })
        .collect();
    Some(bodies)
}

/// `case` with a field repeated under another case (curl would merge the two).
fn with_repeated_field(case: &Case) -> Case {
    let mut c = case.clone();
    c.headers.push((b"X-Repro".to_vec(), b"a".to_vec()));
    c.headers.push((b"x-repro".to_vec(), b"b".to_vec()));
    c
}

/// Names in a `tools/list` answer, in order.
fn tools(answer: &Value) -> Vec<String> {
    answer["result"]["tools"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|t| t["name"].as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The answers to the finding's reproducer and to its last request sent alone (`None` where
/// curl or bash is missing, outside CI).
async fn run_with_last_alone(f: &FindingReport, e: &Endpoint) -> Option<(Vec<Value>, Vec<Value>)> {
    let alone = reproducer(&f.case, e);
    let whole = f.reproducer.clone();
    let ran = tokio::task::spawn_blocking(move || (answers(&whole), answers(&alone)))
        .await
        .expect("joins");
    match ran {
        (Some(all), Some(one)) => Some((all, one)),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reuse_finding_reproduces_with_its_whole_sequence() {
    let s = start(Variant::TrustsKnownConnection).await;
    let f = probe_finding(&s, "BASE-STATELESS-NO-PRIOR", false).await;
    // the probe's pair: the request alone, then the prior and the request on one connection
    let p = mcpdiff_oracle::reuse::reuse_probes(&fixture::surface())[0].clone();
    let sequence = vec![vec![p.request.clone()], vec![p.prior, p.request]];
    assert_eq!(f.connections, sequence);
    holds_in_order(&f.reproducer, &sequence);
    let e = Endpoint::parse(&s.url).expect("url");
    if let Some((all, one)) = run_with_last_alone(&f, &e).await {
        // refused fresh, then served after the conformant request on the same connection
        assert_eq!(all.len(), 3, "{all:?}");
        assert!(all[0].get("error").is_some(), "{all:?}");
        assert!(!tools(&all[2]).is_empty(), "{all:?}");
        // the last request alone is refused: no finding
        assert_eq!(one.len(), 1);
        assert!(one[0].get("error").is_some(), "{one:?}");
    }
    // the exact-bytes form (a repeated field curl would merge) reproduces it too
    let raw: Vec<Vec<Case>> = f
        .connections
        .iter()
        .map(|c| c.iter().map(with_repeated_field).collect())
        .collect();
    let cmd = sequence_reproducer(&raw, &e, &Default::default(), &Default::default());
    assert!(!cmd.contains("curl ") && cmd.contains("sleep 1"), "{cmd}");
    let ran = tokio::task::spawn_blocking(move || answers(&cmd))
        .await
        .expect("joins");
    if let Some(all) = ran {
        assert_eq!(all.len(), 3, "{all:?}");
        assert!(all[0].get("error").is_some(), "{all:?}");
        assert!(!tools(&all[2]).is_empty(), "{all:?}");
    }
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_finding_reproduces_with_its_whole_sequence() {
    let s = start(Variant::ListSideEffect(ListKind::Tools)).await;
    let f = probe_finding(&s, "TOOLS-LIST-STABLE", true).await;
    let p = mcpdiff_oracle::list_stable::list_stable_probes(&fixture::surface())[0].clone();
    let sequence = vec![
        vec![p.list.clone()],
        vec![p.other, p.list.clone()],
        vec![p.list],
    ];
    assert_eq!(f.connections, sequence);
    holds_in_order(&f.reproducer, &sequence);
    let e = Endpoint::parse(&s.url).expect("url");
    if let Some((all, one)) = run_with_last_alone(&f, &e).await {
        // A and C agree, B after the call on the same connection lists less
        assert_eq!(all.len(), 4, "{all:?}");
        let (a, b, c) = (tools(&all[0]), tools(&all[2]), tools(&all[3]));
        assert!(!a.is_empty() && a == c && b != a, "{a:?} {b:?} {c:?}");
        // the list alone is the full list: no finding
        assert_eq!(tools(&one[0]), a);
    }
    s.shutdown().await;
}
