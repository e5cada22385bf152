//! The scan's I/O: plain GETs (and, for the truth check, two `server/discover` POSTs) over
//! the raw transport, one request at a time, each bounded by the per-request time limit and
//! the body size limit of [`ScanOptions`]. Every decision is delegated to the pure modules.
//!
//! Nothing is sent off the scanned origin: remotes and catalog entries elsewhere are
//! reported, never requested. No credentials are sent but the `--header` fields the user
//! gave (`ScanOptions::credentials`), and redirects are not followed
//! (a 3xx is an answer like any other).

use super::catalog::{self, CatalogReport, CARD_MEDIA_TYPE, CATALOG_PATH};
use super::report::{decide, CardReport, CardSummary, Fetch, Found, CARD_PATHS};
use super::truth::{self, TruthReport};
use super::url::{parse_url, Origin};
use super::validate::{check_card, CardCheck, TransportKind};
use super::verdict::{plan, remote_row, GetProbe, RemotePlan};
use crate::transport::{Client, Credentials, Endpoint, Limits, Tls};
use mcpdiff_oracle::client::{conformant_case, request_meta};
use mcpdiff_oracle::{Body, Case, Observation, Surface};
use serde_json::{json, Value};
use std::fmt;
use std::time::Duration;

/// The bounds and knobs of one scan.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    /// Remotes on the scanned origin requested at most (also caps catalog entries).
    pub max_remotes: usize,
    /// Time limit of each request (connect, send, read).
    pub timeout: Duration,
    /// Body bytes read per answer; a larger card is not JSON to the scan.
    pub max_body_bytes: usize,
    /// Run the truth check (`server/discover` against reachable streamable-http remotes).
    pub truth: bool,
    /// Check the newer discovery path (`/.well-known/ai-catalog.json`).
    pub catalog: bool,
    /// How an `https://` origin is verified (`--cacert`, `--insecure`).
    pub tls: Tls,
    /// `--header` fields sent with every request of the scan (secrets, see `Credentials`).
    pub credentials: Credentials,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            max_remotes: 5,
            timeout: Duration::from_secs(5),
            max_body_bytes: 256 * 1024,
            truth: true,
            catalog: true,
            tls: Tls::default(),
            credentials: Credentials::default(),
        }
    }
}

/// Why the scan could not run (exit status 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScanError {
    /// The argument is not an `http(s)://host[:port]` origin.
    BadOrigin(String),
    /// No card location got any HTTP answer.
    Unreachable(String),
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScanError::BadOrigin(m) | ScanError::Unreachable(m) => f.write_str(m),
        }
    }
}

/// The scanned origin of `arg` (a path, query or fragment is ignored: the scan is per origin).
pub fn scanned_origin(arg: &str) -> Result<Origin, ScanError> {
    let url = parse_url(arg).map_err(|e| {
        ScanError::BadOrigin(format!(
            "{e}: expected an origin like http://127.0.0.1:8931"
        ))
    })?;
    if url.has_userinfo {
        return Err(ScanError::BadOrigin(
            "the origin carries credentials (user:password@); the scan sends none".to_string(),
        ));
    }
    Ok(url.origin)
}

/// The scan's connection to one origin.
struct Scanner {
    client: Client,
    endpoint: Endpoint,
    origin: Origin,
}

impl Scanner {
    async fn send(&self, case: &Case) -> Observation {
        self.client.send(case, &self.endpoint).await
    }

    /// One plain GET of `path` (an `Accept` only when asked for).
    async fn get(&self, path: &str, accept: Option<&str>) -> (GetProbe, Option<Value>) {
        let headers: Vec<(&str, &str)> = accept.map(|a| ("Accept", a)).into_iter().collect();
        let mut case = Case::post(path, &headers, Vec::new());
        case.method = "GET".to_string();
        let obs = self.send(&case).await;
        let probe = GetProbe {
            status: obs.http().map(|a| a.status),
            www_authenticate: obs.http().and_then(|a| a.www_authenticate.clone()),
            summary: obs.summary(),
        };
        let json = match obs {
            Observation::Http(a) => match a.body {
                Body::Json { value } => Some(value),
                _ => None,
            },
            Observation::Transport { .. } => None,
        };
        (probe, json)
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }
}

/// Scan `origin_arg` (e.g. `http://127.0.0.1:8931`).
pub async fn scan(origin_arg: &str, opts: &ScanOptions) -> Result<CardReport, ScanError> {
    let origin = scanned_origin(origin_arg)?;
    let endpoint = Endpoint::parse(&format!("{}://{}/", origin.scheme, origin.authority()))
        .map_err(|e| ScanError::BadOrigin(e.to_string()))?;
    let limits = Limits {
        connect_timeout: opts.timeout.min(Duration::from_secs(2)),
        total: opts.timeout,
        max_body_bytes: opts.max_body_bytes,
        // A GET on a streamable-http endpoint may open an SSE stream: only its status
        // matters here, so do not linger on it.
        sse_max_time: opts.timeout.min(Duration::from_millis(500)),
        sse_max_events: 4,
        keep_chars: 80,
        ..Limits::default()
    };
    let s = Scanner {
        client: Client::configured(limits, opts.credentials.clone(), opts.tls.clone()),
        endpoint,
        origin: origin.clone(),
    };
    // An https origin whose handshake fails: the one-line TLS cause, not "no answer".
    s.client
        .check_tls(&s.endpoint)
        .await
        .map_err(|e| ScanError::Unreachable(e.to_string()))?;

    // 1. The three card locations, in order; the first 200 decides.
    let mut tried = Vec::new();
    let mut first_200: Option<(String, String, Option<Value>)> = None;
    for path in CARD_PATHS {
        let (probe, json) = s.get(path, Some("application/json")).await;
        tried.push(Fetch {
            url: s.url(path),
            status: probe.status,
            outcome: probe.summary.clone(),
        });
        if probe.status == Some(200) {
            first_200 = Some((s.url(path), probe.summary, json));
            break;
        }
    }
    if tried.iter().all(|f| f.status.is_none()) {
        return Err(ScanError::Unreachable(format!(
            "no HTTP answer from {origin} ({}); is the server running?",
            tried[0].outcome
        )));
    }
    let check: Option<CardCheck> = first_200
        .as_ref()
        .and_then(|(_, _, json)| json.as_ref().map(check_card));
    let found = match &first_200 {
        None => Found::Nothing,
        Some((url, outcome, _)) => match &check {
            Some(check) => Found::Card { url, check },
            None => Found::NotJson { url, outcome },
        },
    };

    // 2. The remotes of a card that offers a transport, on the scanned origin, up to the cap.
    let mut remotes = Vec::new();
    let mut truth = Vec::new();
    if let Some(check) = check.as_ref().filter(|c| c.usable()) {
        let plans = plan(check, &origin, opts.max_remotes);
        for (entry, p) in check.remotes.iter().zip(&plans) {
            let probe = match p {
                RemotePlan::Request(path) => Some(s.get(path, None).await.0),
                RemotePlan::Skip(_) => None,
            };
            let row = remote_row(entry, p, probe.as_ref(), &origin);
            // 3. Beyond the scanner: a reachable streamable-http remote is asked what it
            // supports, and its answer is compared with the card.
            if let (true, RemotePlan::Request(path), Some(TransportKind::StreamableHttp)) =
                (opts.truth && row.status.is_some(), p, entry.kind)
            {
                truth.push(truth_check(&s, path, &row.url, &entry.versions).await);
            }
            remotes.push(row);
        }
    } else if let Some(check) = &check {
        // Not usable: the rows still say why each remote is not.
        let plans = plan(check, &origin, 0);
        for (entry, p) in check.remotes.iter().zip(&plans) {
            remotes.push(remote_row(entry, p, None, &origin));
        }
    }
    let decision = decide(&origin, &tried, found, &remotes);

    // 4. The newer discovery path, on its own line.
    let endpoints: Vec<String> = remotes
        .iter()
        .filter(|r| r.usable && r.kind == Some(TransportKind::StreamableHttp))
        .map(|r| r.url.clone())
        .collect();
    let catalog = if opts.catalog {
        Some(catalog_check(&s, opts.max_remotes, &endpoints).await)
    } else {
        None
    };

    Ok(CardReport {
        origin: origin.to_string(),
        verdict: decision.verdict,
        detail: decision.detail,
        fix: decision.fix,
        card_url: first_200.map(|(url, _, _)| url),
        tried,
        card: check.as_ref().map(CardSummary::of),
        remotes,
        catalog,
        truth,
    })
}

/// `server/discover`, and `server/discover` declaring a version nobody implements.
async fn truth_check(s: &Scanner, path: &str, url: &str, card: &[String]) -> TruthReport {
    let surface = Surface::minimal(path);
    let discover = s
        .send(&conformant_case(
            &surface,
            json!(1),
            "server/discover",
            json!({}),
        ))
        .await;
    const BOGUS: &str = "1900-01-01";
    let body = json!({
        "jsonrpc": "2.0", "id": 2, "method": "server/discover",
        "params": {"_meta": request_meta(BOGUS)},
    });
    let bogus = Case::post(
        path,
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", BOGUS),
            ("Mcp-Method", "server/discover"),
        ],
        body.to_string(),
    );
    let refused = s.send(&bogus).await;
    truth::compare(
        url,
        card,
        truth::discover_versions(&discover),
        truth::error_versions(&refused),
    )
}

async fn catalog_check(s: &Scanner, cap: usize, endpoints: &[String]) -> CatalogReport {
    let (probe, json) = s.get(CATALOG_PATH, Some("application/json")).await;
    let mut report = CatalogReport {
        url: s.url(CATALOG_PATH),
        status: probe.status,
        entries: Vec::new(),
        line: String::new(),
    };
    let parsed = match (probe.status, &json) {
        (Some(200), Some(doc)) => catalog::card_entries(doc),
        (Some(200), None) => Err(format!("not JSON ({})", probe.summary)),
        _ => Ok(Vec::new()),
    };
    let mut budget = cap;
    if let Ok(entries) = &parsed {
        for e in entries {
            let row = match catalog::requestable(e, &s.origin) {
                Ok(_) if budget == 0 => {
                    let why = "over the --max-remotes cap".to_string();
                    catalog::entry_row(e, Some(why), None, endpoints)
                }
                Ok(path) => {
                    budget -= 1;
                    let (p, doc) = s.get(&path, Some(CARD_MEDIA_TYPE)).await;
                    catalog::entry_row(e, None, Some((&p, doc.as_ref())), endpoints)
                }
                Err(why) => catalog::entry_row(e, Some(why.to_string()), None, endpoints),
            };
            report.entries.push(row);
        }
    }
    report.line = catalog::line(
        &report,
        &s.origin,
        parsed.as_ref().err().map(String::as_str),
    );
    report
}
