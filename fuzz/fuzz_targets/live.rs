//! `live`: sends arbitrary cases (built from the fuzz bytes exactly as the pure targets build
//! them) to the endpoint in `MCPDIFF_TARGET` and treats a MUST-level finding as a crash, so
//! libFuzzer saves and minimizes the input; `mcpdiff corpus import` then turns it into a
//! corpus entry. Only point it at a server you own: it sends as fast as the target answers.
//!
//! The surface is discovered once, on the first input, like `mcpdiff run` does. Answers that
//! decide nothing (cut by the time limit, refused by auth, never received) are settled as in
//! a run: only what they broke before the cut can crash.
#![no_main]

use mcpdiff::runner::discover::discover;
use mcpdiff::transport::{Client, Endpoint, Limits};
use mcpdiff_oracle::rules::{level_of, RuleId};
use mcpdiff_oracle::{assess, Level, Surface};
use mcpdiff_props::fuzz_props::case_from_bytes;
use std::sync::OnceLock;

struct Live {
    rt: tokio::runtime::Runtime,
    client: Client,
    endpoint: Endpoint,
    surface: Surface,
}

fn live() -> &'static Live {
    static LIVE: OnceLock<Live> = OnceLock::new();
    LIVE.get_or_init(|| {
        // a misconfigured run must stop at once, not record a "crash" per input
        let stop = |msg: String| -> ! {
            eprintln!("live: {msg}");
            std::process::exit(2)
        };
        let url = std::env::var("MCPDIFF_TARGET")
            .unwrap_or_else(|_| stop("set MCPDIFF_TARGET=http://127.0.0.1:PORT/mcp".into()));
        let endpoint = Endpoint::parse(&url).unwrap_or_else(|e| stop(format!("{url}: {e}")));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap_or_else(|e| stop(format!("no runtime: {e}")));
        // short bounds: an open SSE stream would otherwise hold each input for seconds
        let client = Client::new(Limits {
            total: std::time::Duration::from_millis(800),
            sse_max_time: std::time::Duration::from_millis(300),
            ..Limits::default()
        });
        let found = rt.block_on(discover(&endpoint.path, |c| {
            let (client, endpoint) = (client.clone(), endpoint.clone());
            async move { client.send(&c, &endpoint).await }
        }));
        let surface = found
            .unwrap_or_else(|e| stop(format!("cannot discover {url}: {e:?}")))
            .surface;
        Live {
            rt,
            client,
            endpoint,
            surface,
        }
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let l = live();
    let mut case = case_from_bytes(data);
    if case.path == "/mcp" {
        case.path = l.endpoint.path.clone();
    }
    let obs = l.rt.block_on(l.client.send(&case, &l.endpoint));
    // an answer cut by the short limits above (or refused by auth, or lost) decides nothing
    // but what it broke before the cut: it is never a crash (a loaded machine times out)
    let assessment = assess(&case, &l.surface, &obs);
    let verdict = &assessment.verdict;
    for f in assessment.settled.findings {
        let blocking = verdict
            .rules()
            .find(|r: &RuleId| r.0 == f.rule)
            .is_some_and(|r| matches!(level_of(r), Level::Must | Level::MustNot));
        if blocking {
            panic!(
                "MUST finding {}: expected {}, observed {}",
                f.rule, f.expected, f.observed
            );
        }
    }
});
