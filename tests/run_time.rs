//! Slow answers are not wrong answers, and a run ends on time: a conformant
//! server with a tool slower than the per-case limit gives no finding (its cut calls are
//! "not determined: timed out" and the slow tool is named with the `--timeout-ms` that lets
//! it finish); shrinking never takes a cut answer for a reproduction; `mcpdiff run
//! --max-time 5` ends in under 10 s against a slow server and one that streams forever, and
//! writes its JSON; an unreachable URL gets a JSON entry and exit status 2; a token that
//! stops working mid-run makes the cases "not determined: unauthorized", never findings.

use mcpdiff::baseline::Baseline;
use mcpdiff::report;
use mcpdiff::runner::{
    self, prepare::prepare, shrink, shrink::ShrinkBudget, PropsGenerator, Quiet, RunConfig,
};
use mcpdiff::serve::{slow, spawn_custom, RunningServer, Variant};
use mcpdiff::transport::{Client, Limits};
use mcpdiff_oracle::{fixture, Observation, TransportFailure, Undetermined};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

async fn slow_server(ms: u64) -> RunningServer {
    let extras = slow::Extras {
        slow_tool_ms: Some(ms),
        sse_forever: false,
    };
    let surface = slow::with_slow_tool(fixture::surface());
    spawn_custom(Variant::Reference, loopback(), surface, extras)
        .await
        .expect("slow server")
}

async fn forever_server() -> RunningServer {
    let extras = slow::Extras {
        slow_tool_ms: None,
        sse_forever: true,
    };
    spawn_custom(Variant::Reference, loopback(), fixture::surface(), extras)
        .await
        .expect("sse-forever server")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_tool_is_not_determined_never_a_finding() {
    let server = slow_server(1500).await;
    let limits = Limits {
        total: Duration::from_millis(500),
        sse_max_time: Duration::from_millis(500),
        ..Limits::default()
    };
    let client = Client::new(limits);
    let t = prepare("slow", &server.url, &client, &[])
        .await
        .expect("prepares")
        .target;
    assert!(
        t.surface.tool(slow::SLOW_TOOL).is_some(),
        "slow_tool published"
    );
    let cfg = RunConfig::new(150, 3, Duration::from_secs(20));
    let started = Instant::now();
    let result = runner::run(vec![t], &PropsGenerator::default(), &cfg, &Quiet).await;
    let rep = report::build(&result, &cfg, &Baseline::default(), &|_, _| String::new());
    let t = &rep.targets[0];
    assert!(t.findings.is_empty(), "no finding: {:?}", t.findings);
    let timed_out = t
        .undetermined
        .iter()
        .find(|u| u.reason == Undetermined::TimedOut)
        .expect("the cut calls are counted as not determined");
    assert!(timed_out.cases > 0 && !timed_out.rules.is_empty());
    let s = t
        .slow_tools
        .iter()
        .find(|s| s.tool == slow::SLOW_TOOL)
        .expect("slow_tool named");
    assert!(s.timed_out > 0 && s.waited_ms >= 450, "{s:?}");
    // the probe call ran to the end with the time left, and the advice lets it finish
    let probe = s.probe_ms.expect("probed");
    assert!(s.probe_finished && (1500..5000).contains(&probe), "{s:?}");
    assert_eq!(
        s.suggested_timeout_ms,
        Some(report::undetermined::round_up(probe))
    );
    // thinning: far fewer slow calls than an unthinned run would make (~1 in 8 cases)
    assert!(s.calls < 12, "{} calls of slow_tool", s.calls);
    assert!(started.elapsed() < Duration::from_secs(20));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shrinking_never_reproduces_with_a_cut_answer() {
    let surface = fixture::surface();
    // a notification answered 200 where 202 was due: a finding on SHTTP-NOTIF-202
    let mut case = mcpdiff_oracle::client::conformant_case(
        &surface,
        serde_json::json!(1),
        "notifications/cancelled",
        serde_json::json!({"requestId": 3, "reason": "a reason long enough to shorten"}),
    );
    let mut body: serde_json::Value = serde_json::from_slice(&case.body).expect("json");
    body.as_object_mut().map(|o| o.remove("id"));
    case.body = serde_json::to_vec(&body).expect("json");
    let rule = mcpdiff_oracle::rules::NOTIF_202;
    let obs = Observation::Http(mcpdiff_oracle::HttpAnswer::new(
        200,
        None,
        mcpdiff_oracle::Body::Empty,
    ));
    let (shrunk, _, sent) = shrink::shrink(
        case.clone(),
        obs,
        rule,
        &surface,
        ShrinkBudget::default(),
        |_| async {
            Observation::Transport {
                failure: TransportFailure::Timeout,
            }
        },
    )
    .await;
    assert!(sent > 0, "candidates were tried");
    assert_eq!(shrunk, case, "a timed-out candidate is not a reproduction");
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "mcpdiff-run-time-{}-{name}.json",
        std::process::id()
    ))
}

/// `mcpdiff run URL --max-time SECS --json FILE`: exit code, wall time, the JSON written.
async fn run_cli(
    url: String,
    secs: &str,
    name: &str,
) -> (Option<i32>, Duration, serde_json::Value) {
    let json = temp(name);
    let _ = std::fs::remove_file(&json);
    let secs = secs.to_string();
    let path = json.clone();
    let (code, wall) = tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
            .args([
                "run",
                &url,
                "--quiet",
                "--seed",
                "1",
                "--max-time",
                &secs,
                "--json",
            ])
            .arg(&path)
            .output()
            .expect("run mcpdiff");
        (out.status.code(), started.elapsed())
    })
    .await
    .expect("joins");
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{name}: no JSON: {e}"));
    let _ = std::fs::remove_file(&json);
    (code, wall, serde_json::from_str(&text).expect("valid JSON"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_time_5_ends_in_under_10_s_against_slow_and_endless_servers() {
    let slow = slow_server(20_000).await;
    let forever = forever_server().await;
    let (a, b) = tokio::join!(
        run_cli(slow.url.clone(), "5", "slow"),
        run_cli(forever.url.clone(), "5", "forever")
    );
    for (name, (code, wall, json)) in [("slow", a), ("sse-forever", b)] {
        assert!(wall < Duration::from_secs(10), "{name}: {wall:?}");
        assert!(matches!(code, Some(0..=2)), "{name}: exit {code:?}");
        assert_eq!(json["schema"], "mcpdiff-run/1", "{name}");
        assert_eq!(json["targets"].as_array().map(Vec::len), Some(1), "{name}");
        // nothing the slow server does is wrong
        if name == "slow" {
            assert_eq!(
                json["targets"][0]["findings"].as_array().map(Vec::len),
                Some(0)
            );
        }
    }
    slow.shutdown().await;
    forever.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_url_gets_an_entry_and_exit_2() {
    // a port nobody listens on: bound, then released
    let port = std::net::TcpListener::bind(loopback())
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (code, wall, json) = run_cli(url.clone(), "10", "unreachable").await;
    assert_eq!(code, Some(2));
    assert!(wall < Duration::from_secs(10), "{wall:?}");
    let t = &json["targets"][0];
    assert_eq!(t["url"], url.as_str());
    assert_eq!(t["cases"], 0);
    let u = &t["undetermined"][0];
    assert_eq!(u["reason"], "unreachable");
    let detail = u["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("cannot connect"), "{detail}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_refused_mid_run_is_not_determined_unauthorized() {
    use mcpdiff::transport::Credentials;
    let token = "tok-mid-run";
    let server = mcpdiff::serve::spawn_protected(
        Variant::Reference,
        loopback(),
        fixture::surface(),
        Some((token.to_string(), None)),
    )
    .await
    .expect("protected server");
    let header = vec![format!("Authorization: Bearer {token}")];
    let creds = Credentials::parse(&header, None).expect("header parses");
    let with_token = Client::with_credentials(Limits::default(), creds);
    let mut t = prepare("p", &server.url, &with_token, &[])
        .await
        .expect("prepares with the token")
        .target;
    // the token "expires": every case from now on goes without it (and is not judged on the
    // authorization rules, which need one)
    t.surface.protected = false;
    t.gen_surface.protected = false;
    t.sender.client = Client::new(Limits::default());
    let cfg = RunConfig {
        concurrency: 4,
        ..RunConfig::new(60, 9, Duration::from_secs(20))
    };
    let result = runner::run(vec![t], &PropsGenerator::default(), &cfg, &Quiet).await;
    let rep = report::build(&result, &cfg, &Baseline::default(), &|_, _| String::new());
    let t = &rep.targets[0];
    assert!(t.findings.is_empty(), "{:?}", t.findings);
    let u = t
        .undetermined
        .iter()
        .find(|u| u.reason == Undetermined::Unauthorized)
        .expect("unauthorized cases counted");
    assert!(u.cases > 0, "{u:?}");
    assert!(
        u.detail.as_deref().is_some_and(|d| d.starts_with("401")),
        "{u:?}"
    );
    server.shutdown().await;
}
