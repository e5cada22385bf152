//! `mcpdiff card ORIGIN`: scan an origin's MCP Server Card as the public scanner does, then
//! check the card against the endpoint it names (see `mcpdiff::card`).
//!
//! Human output leads with two lines: the verdict with what is wrong, and what to ship
//! instead; the details follow. `--json` prints the report object instead.

use super::exit::{self, fail_in};
use mcpdiff::card::{scan, CardReport, CardStatus, ScanOptions};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff card http://127.0.0.1:8931            # the reference server (`mcpdiff serve`)
  mcpdiff card http://127.0.0.1:3000 --json     # your server, machine-readable
  mcpdiff card https://127.0.0.1:8443 --cacert ca.pem   # https (or --insecure)

The scan GETs /.well-known/mcp/server-card.json, then /.well-known/mcp.json, then /mcp.json
and parses the first 200 answer as the card; it then GETs the card's remotes on the scanned
origin (no credentials, redirects not followed), checks /.well-known/ai-catalog.json, and
compares each reachable endpoint's server/discover with the card's supportedProtocolVersions.

EXIT STATUS:
  0  pass: a usable card and at least one remote on the scanned origin answered
  1  partial or fail
  2  the scan could not run (bad origin, nothing answering)")]
pub struct CardArgs {
    /// The origin to scan, `http(s)://host[:port]` (a path is ignored: cards live per origin).
    pub origin: String,
    /// Print the report as one JSON object (verdict, card_url, remotes[], ...).
    #[arg(long)]
    pub json: bool,
    /// Request at most this many remotes (and catalog entries) on the scanned origin.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_remotes: usize,
    /// Time limit of each request, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    pub timeout: f64,
    /// --cacert FILE / --insecure for an https:// origin.
    #[command(flatten)]
    pub tls: super::tls::TlsArgs,
    /// -H/--header fields sent with every request of the scan (secrets, as in `run`).
    #[command(flatten)]
    pub creds: super::credentials::CredentialArgs,
}

pub fn run(args: CardArgs) -> ExitCode {
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 600.0) {
        return fail_in("card", "--timeout must be between 0 and 600 seconds");
    }
    let tls = match args.tls.build() {
        Ok(t) => t,
        Err(e) => return fail_in("card", &e),
    };
    let credentials = match args.creds.load() {
        Ok(c) => c,
        Err(e) => return fail_in("card", &e),
    };
    if let Some(w) = super::tls::warning(&tls) {
        eprintln!("mcpdiff card: {w}");
    }
    let opts = ScanOptions {
        tls,
        credentials,
        max_remotes: args.max_remotes,
        timeout: Duration::from_secs_f64(args.timeout),
        ..ScanOptions::default()
    };
    let runtime = match exit::runtime() {
        Ok(rt) => rt,
        Err(e) => return fail_in("card", &e),
    };
    let report = match runtime.block_on(scan(&args.origin, &opts)) {
        Ok(r) => r,
        Err(e) => return fail_in("card", &e.to_string()),
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => println!("{}", mcpdiff::secrets::redact(&text)),
            Err(e) => return fail_in("card", &format!("cannot encode the report: {e}")),
        }
    } else {
        print!("{}", mcpdiff::secrets::redact(&render(&report)));
    }
    exit::findings(report.verdict != CardStatus::Pass)
}

/// The human report.
fn render(r: &CardReport) -> String {
    let mut out = format!(
        "{}  {}: {}\n",
        r.verdict.as_str().to_uppercase(),
        r.origin,
        r.detail
    );
    if let Some(fix) = &r.fix {
        out += &format!("  ship: {fix}\n");
    }
    for f in &r.tried {
        let status = f
            .status
            .map_or_else(|| f.outcome.clone(), |s| s.to_string());
        out += &format!("  tried     {}  {status}\n", f.url);
    }
    if let (Some(url), Some(card)) = (&r.card_url, &r.card) {
        out += &format!(
            "  card      {url}  name {}  version {}\n",
            card.name.as_deref().unwrap_or("-"),
            card.version.as_deref().unwrap_or("-"),
        );
    }
    for rm in &r.remotes {
        let kind = rm.kind.map_or("?", |k| k.as_str());
        let mark = if rm.counted { "counted" } else { "not counted" };
        out += &format!("  remote    {} [{kind}] {mark}: {}\n", rm.url, rm.note);
    }
    if let Some(c) = &r.catalog {
        out += &format!("  ai-catalog  {}\n", c.line);
    }
    for t in &r.truth {
        out += &format!("  truth     {}\n", t.line);
    }
    out
}
