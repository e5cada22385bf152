//! `mcpdiff rules --coverage`: for each judged rule, how many probes and how many generated
//! cases per 1,000 isolate it (`mcpdiff_props::coverage`); then the authorization rules
//! (`AUTH-*`), judged on protected targets by the authorization probe family and the
//! metadata fetches instead (`mcpdiff_props::auth_coverage`); then the connection rules,
//! judged by the connection probe on pairs of requests (`mcpdiff_oracle::reuse`); last the
//! server surface per revision and keyword family: judged, observable but not judged, not
//! observable (`rules_surface.rs`). Human table, or JSON with `--json` (the listing, plus
//! `auth_probes_total`, `auth_rules`, `connection_rules` and `surface`). Pure: computed in process, nothing is
//! sent.

use super::exit;
use super::rules_surface::write_surface;
use mcpdiff_oracle::fixture;
use mcpdiff_oracle::rules::connection::{CONNECTION_JUDGED_IDS, STATELESS_NO_PRIOR};
use mcpdiff_oracle::rules::surface_summary::{summaries, RevisionSummary};
use mcpdiff_oracle::RuleId;
use mcpdiff_props::auth_coverage::{auth_coverage, AuthRuleCoverage};
use mcpdiff_props::coverage::{coverage, Coverage, COVERAGE_CASES, COVERAGE_SEED};
use std::io::{self, Write};
use std::process::ExitCode;

/// The JSON of `--coverage --json`: the isolation listing's fields, the authorization rules,
/// then the surface summary per revision.
#[derive(serde::Serialize)]
struct Listing<'a> {
    #[serde(flatten)]
    coverage: &'a Coverage,
    auth_probes_total: usize,
    auth_rules: &'a [AuthRuleCoverage],
    connection_rules: &'a [ConnectionRuleCoverage],
    surface: &'a [RevisionSummary],
}

/// A connection rule and the probe sets that judge it (`pairs`: for BASE-STATELESS-NO-PRIOR
/// each a request on a fresh connection and after a conformant request on a reused one; for
/// a `*-LIST-STABLE` rule each a triple, the list on two fresh connections and after another
/// request on a reused one) with the requests they take.
#[derive(serde::Serialize)]
struct ConnectionRuleCoverage {
    rule: RuleId,
    pairs: usize,
    requests: usize,
}

fn connection_coverage(surface: &mcpdiff_oracle::Surface) -> Vec<ConnectionRuleCoverage> {
    let reuse = mcpdiff_oracle::reuse::reuse_probes(surface).len();
    let lists = mcpdiff_oracle::list_stable::list_stable_probes(surface);
    CONNECTION_JUDGED_IDS
        .iter()
        .map(|r| {
            // BASE-STATELESS-NO-PRIOR: pairs of three requests; a list rule: triples of four
            let (pairs, requests) = if *r == STATELESS_NO_PRIOR {
                (reuse, reuse * 3)
            } else {
                let n = lists.iter().filter(|p| p.kind.rule() == *r).count();
                (n, n * 4)
            };
            ConnectionRuleCoverage {
                rule: *r,
                pairs,
                requests,
            }
        })
        .collect()
}

fn write_connection(out: &mut impl Write, rules: &[ConnectionRuleCoverage]) -> io::Result<()> {
    writeln!(
        out,
        "\nConnection rules: judged after the run by the connection probes (a request on a \
         fresh connection and after another request on a reused one; a list on two fresh \
         connections and after another request on a reused one)"
    )?;
    writeln!(out, "{:<36} {:>7} {:>9}", "rule", "pairs", "requests")?;
    for r in rules {
        let flag = if r.pairs > 0 { "" } else { "  <- not judged" };
        writeln!(
            out,
            "{:<36} {:>7} {:>9}{flag}",
            r.rule.0, r.pairs, r.requests
        )?;
    }
    Ok(())
}

pub fn run(json: bool) -> ExitCode {
    // the fixture listed in pages: the page rules (PAGE-STABLE, CACHE-SCOPE-PAGES) have a
    // second page to open; every other rule reads it as the fixture
    let surface = fixture::paged_surface();
    let c = coverage(&surface, COVERAGE_SEED, COVERAGE_CASES);
    let (auth_probes_total, auth) = auth_coverage(&surface);
    let connection = connection_coverage(&surface);
    let summary = summaries();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if json {
        let listing = Listing {
            coverage: &c,
            auth_probes_total,
            auth_rules: &auth,
            connection_rules: &connection,
            surface: &summary,
        };
        serde_json::to_writer_pretty(&mut out, &listing)
            .map_err(io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        write_table(&mut out, &c)
            .and_then(|()| write_auth(&mut out, auth_probes_total, &auth))
            .and_then(|()| write_connection(&mut out, &connection))
            .and_then(|()| write_surface(&mut out, &summary))
    };
    let isolated = c.rules.iter().all(|r| r.probes > 0 && r.generated > 0);
    match written.and_then(|()| out.flush()) {
        Ok(())
            if isolated
                && auth.iter().all(AuthRuleCoverage::covered)
                && connection.iter().all(|r| r.pairs > 0) =>
        {
            ExitCode::SUCCESS
        }
        // a judged rule nothing isolates: say so in the exit status too
        Ok(()) => exit::findings(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => exit::fail_with(
            "",
            exit::FOUND,
            &format!("could not write the coverage table: {e}"),
        ),
    }
}

fn write_table(out: &mut impl Write, c: &Coverage) -> io::Result<()> {
    writeln!(
        out,
        "Isolation coverage: {} probes, {} generated cases (seed {}), fixture surface in pages",
        c.probes_total, c.cases, c.seed
    )?;
    writeln!(
        out,
        "{:<36} {:>7} {:>9} {:>10}",
        "rule", "probes", "(decide)", "gen/1000"
    )?;
    for r in &c.rules {
        let flag = if r.probes == 0 || r.generated == 0 {
            "  <- not isolated"
        } else {
            ""
        };
        writeln!(
            out,
            "{:<36} {:>7} {:>9} {:>10.1}{flag}",
            r.rule.0, r.probes, r.probes_deciding, r.generated_per_1000
        )?;
    }
    let zero = c
        .rules
        .iter()
        .filter(|r| r.probes == 0 || r.generated == 0)
        .count();
    writeln!(
        out,
        "\n{} judged rules; {zero} without isolating probes or generated cases",
        c.rules.len()
    )
}

fn write_auth(out: &mut impl Write, probes: usize, rules: &[AuthRuleCoverage]) -> io::Result<()> {
    writeln!(
        out,
        "\nAuthorization rules: judged on protected targets (--header Authorization) by the \
         {probes} probes of the authorization family and the metadata fetches, after the run"
    )?;
    writeln!(out, "{:<36} {:>7} {:>9}", "rule", "probes", "metadata")?;
    for r in rules {
        let flag = if r.covered() { "" } else { "  <- not judged" };
        writeln!(
            out,
            "{:<36} {:>7} {:>9}{flag}",
            r.rule.0, r.probes, r.metadata_fetches
        )?;
    }
    let zero = rules.iter().filter(|r| !r.covered()).count();
    writeln!(
        out,
        "\n{} authorization rules; {zero} judged by no probe or fetch",
        rules.len()
    )
}
