//! Hostile targets never crash or hang the runner: servers that close connections, answer
//! garbage, stream SSE forever or never answer are tested next to the reference server, and
//! the run finishes within its limits with those cases reported as findings, except the
//! silent one, whose cases are "not determined: timed out".

use mcpdiff::baseline::Baseline;
use mcpdiff::report;
use mcpdiff::runner::{
    self, prepare::prepare, shrink::ShrinkBudget, PropsGenerator, Quiet, RunConfig,
};
use mcpdiff::serve::{spawn, Variant};
use mcpdiff::transport::{Client, Limits};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[derive(Clone, Copy)]
enum Hostility {
    CloseAtOnce,
    Garbage,
    SseForever,
    NeverAnswer,
}

/// A loopback server that misbehaves the same way on every connection, until the test ends.
async fn hostile(kind: Hostility) -> String {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                match kind {
                    Hostility::CloseAtOnce => drop(sock),
                    Hostility::Garbage => {
                        let _ = sock.read(&mut buf).await;
                        let _ = sock.write_all(b"\x00\xffNOT HTTP AT ALL\r\n\r\n").await;
                    }
                    Hostility::SseForever => {
                        let _ = sock.read(&mut buf).await;
                        let head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n";
                        if sock.write_all(head).await.is_ok() {
                            // bounded: the test's runtime ends long before 10 minutes
                            for _ in 0..6000 {
                                if sock.write_all(b"data: {}\n\n").await.is_err() {
                                    break;
                                }
                                tokio::time::sleep(Duration::from_millis(100)).await;
                            }
                        }
                    }
                    Hostility::NeverAnswer => {
                        let _ = sock.read(&mut buf).await;
                        tokio::time::sleep(Duration::from_secs(600)).await;
                    }
                }
            });
        }
    });
    format!("http://{addr}/mcp")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_targets_finish_in_time_with_findings() {
    let reference = spawn(Variant::Reference, SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("reference");
    let mut urls = vec![("reference".to_string(), reference.url.clone())];
    for (name, kind) in [
        ("close", Hostility::CloseAtOnce),
        ("garbage", Hostility::Garbage),
        ("sse-forever", Hostility::SseForever),
        ("never", Hostility::NeverAnswer),
    ] {
        urls.push((name.to_string(), hostile(kind).await));
    }
    let limits = Limits {
        total: Duration::from_millis(400),
        sse_max_time: Duration::from_millis(300),
        ..Limits::default()
    };
    let client = Client::new(limits);
    let started = Instant::now();
    let mut targets = Vec::new();
    for (name, url) in &urls {
        targets.push(
            prepare(name, url, &client, &[])
                .await
                .expect("prepares")
                .target,
        );
    }
    let cfg = RunConfig {
        shrink: ShrinkBudget {
            max_requests: 20,
            max_time: Duration::from_secs(2),
            max_time_per_target: Duration::from_secs(3),
            deadline: None,
        },
        ..RunConfig::new(200, 5, Duration::from_secs(20))
    };
    let result = runner::run(targets, &PropsGenerator::default(), &cfg, &Quiet).await;
    let rep = report::build(&result, &cfg, &Baseline::default(), &|_, _| String::new());
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(60), "run took {elapsed:?}");
    assert!(
        rep.targets[0].findings.is_empty(),
        "reference: {:?}",
        rep.targets[0].findings
    );
    // a stream that opened where a refusal was due is broken whatever would have followed
    for t in &rep.targets[1..4] {
        assert!(t.blocking, "{} should have MUST findings", t.name);
        assert_eq!(t.score, 0.0, "{}", t.name);
        assert!(t.cases > 0, "{} got no cases", t.name);
    }
    // silence until the per-case limit decides nothing: not determined, no finding
    let never = &rep.targets[4];
    assert!(never.findings.is_empty(), "{:?}", never.findings);
    let timed_out = never
        .undetermined
        .iter()
        .find(|u| u.reason == mcpdiff_oracle::Undetermined::TimedOut)
        .expect("timed-out cases counted");
    assert_eq!(timed_out.cases, never.cases);
    assert!(never.passed.is_empty(), "a timeout is never a pass");
    for name in ["close", "garbage", "never"] {
        let t = rep.targets.iter().find(|t| t.name == name).expect("target");
        assert!(
            t.transport_failures > 0,
            "{name}: no transport failures recorded"
        );
    }
    reference.shutdown().await;
}
