//! `mcpdiff serve` over real loopback HTTP: the reference server, the null server and a few
//! mutants started in-process on ephemeral ports, driven by a tiny hand-written HTTP/1.1
//! client (deliberately independent of `src/transport/`).

use mcpdiff::serve::{spawn, RunningServer, Variant};
use mcpdiff_oracle::reference::{mutants, probes, respond, ResponseBody};
use mcpdiff_oracle::{check, fixture, judge, Body, Case, HttpAnswer, Observation, SseMessage};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The spec's `tools/call` example (streamable-http.mdx, Standard Request Headers).
const EXAMPLE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"Seattle, WA"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;

fn example(mcp_name: &str) -> Case {
    Case::post(
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", mcp_name),
        ],
        EXAMPLE,
    )
}

async fn start(v: Variant) -> RunningServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("literal address");
    spawn(v, addr).await.expect("bind loopback")
}

/// Send `case` as raw bytes and read the whole answer (`Connection: close`).
async fn send(server: &RunningServer, case: &Case) -> Observation {
    let mut req = format!(
        "{} {} HTTP/1.1\r\nHost: {}\r\n",
        case.method, case.path, server.addr
    )
    .into_bytes();
    for (n, v) in &case.headers {
        req.extend_from_slice(n);
        req.extend_from_slice(b": ");
        req.extend_from_slice(v);
        req.extend_from_slice(b"\r\n");
    }
    req.extend_from_slice(
        format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            case.body.len()
        )
        .as_bytes(),
    );
    req.extend_from_slice(&case.body);
    let io = async {
        let mut s = TcpStream::connect(server.addr).await?;
        s.write_all(&req).await?;
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).await?;
        Ok::<_, std::io::Error>(buf)
    };
    let raw = tokio::time::timeout(Duration::from_secs(5), io)
        .await
        .expect("answer within 5 s")
        .expect("socket I/O");
    parse(&raw)
}

fn parse(raw: &[u8]) -> Observation {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("header end");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let body = &raw[split + 4..];
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let get = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let content_type = get("content-type").map(|v| {
        v.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    let body = if body.is_empty() {
        Body::Empty
    } else if content_type.as_deref() == Some("text/event-stream") {
        let text = String::from_utf8_lossy(body);
        let messages = text
            .split("\n\n")
            .flat_map(|ev| {
                ev.lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim)
                    .collect::<Vec<_>>()
            })
            .map(|d| {
                serde_json::from_str(d)
                    .map_or_else(|_| SseMessage::NotJson(d.to_string()), SseMessage::Json)
            })
            .collect();
        Body::Sse {
            messages,
            closed: true,
        }
    } else {
        match serde_json::from_slice::<Value>(body) {
            Ok(value) => Body::Json { value },
            Err(_) => Body::Other {
                len: body.len(),
                prefix: String::from_utf8_lossy(&body[..body.len().min(40)]).into(),
            },
        }
    };
    Observation::Http(HttpAnswer {
        status,
        content_type,
        session_id: get("mcp-session-id"),
        x_accel_buffering: get("x-accel-buffering"),
        allow: get("allow"),
        www_authenticate: get("www-authenticate"),
        body,
        wire: Default::default(),
    })
}

fn http(o: &Observation) -> &HttpAnswer {
    o.http().expect("an HTTP answer")
}

#[tokio::test]
async fn reference_answers_the_spec_example() {
    let server = start(Variant::Reference).await;
    let ok = send(&server, &example("get_weather")).await;
    let a = http(&ok);
    assert_eq!(a.status, 200, "{}", ok.summary());
    let result = a.rpc_response().expect("a response")["result"].clone();
    assert_eq!(result["resultType"], json!("complete"));
    assert!(result["content"][0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("Seattle, WA")));

    let bad = send(&server, &example("get_forecast")).await;
    assert_eq!(http(&bad).status, 400);
    assert_eq!(http(&bad).error_code(), Some(-32020));
    assert_eq!(http(&bad).rpc_response().expect("error")["id"], json!(1));

    let mut get = Case::post("/mcp", &[("Accept", "text/event-stream")], Vec::new());
    get.method = "GET".into();
    let g = send(&server, &get).await;
    assert_eq!(http(&g).status, 405);
    assert_eq!(http(&g).allow.as_deref(), Some("POST"));

    let mut other = example("get_weather");
    other.path = "/elsewhere".into();
    assert_eq!(http(&send(&server, &other).await).status, 404);
    server.shutdown().await;
}

#[tokio::test]
async fn reference_scores_clean_over_http() {
    let s = fixture::surface();
    let server = start(Variant::Reference).await;
    for p in probes(&s) {
        // open streams never end; the pure test covers them
        if matches!(
            respond(&p.case, &s).body,
            ResponseBody::Sse {
                keep_open: true,
                ..
            }
        ) {
            continue;
        }
        let obs = send(&server, &p.case).await;
        let f = check(&judge(&p.case, &s), &obs);
        assert!(
            f.is_empty(),
            "probe {}: {} -> {f:#?}",
            p.rule,
            obs.summary()
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn null_server_and_mutants_answer_differently() {
    let null = start(Variant::Null).await;
    let n = send(&null, &example("get_forecast")).await;
    assert_eq!(http(&n).status, 200);
    null.shutdown().await;

    let m = start(Variant::Mutant(&mutants::MCP_NAME_CASE_INSENSITIVE)).await;
    let upper = send(&m, &example("GET_WEATHER")).await;
    assert_eq!(
        http(&upper).status,
        200,
        "the mutant accepts a case-changed Mcp-Name"
    );
    let s = fixture::surface();
    let f = check(&judge(&example("GET_WEATHER"), &s), &upper);
    assert_eq!(
        f.iter().map(|f| f.rule.as_str()).collect::<Vec<_>>(),
        ["SHTTP-HDR-VALUE-CASE"]
    );
    m.shutdown().await;

    let g = start(Variant::Mutant(&mutants::GET_200)).await;
    let mut get = Case::post("/mcp", &[], Vec::new());
    get.method = "GET".into();
    assert_eq!(http(&send(&g, &get).await).status, 200);
    g.shutdown().await;

    let sid = start(Variant::Mutant(&mutants::SESSION_ID_HEADER)).await;
    let a = send(&sid, &example("get_weather")).await;
    assert!(http(&a).session_id.is_some());
    sid.shutdown().await;
}
