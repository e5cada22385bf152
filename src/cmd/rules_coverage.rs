//! `mcpdiff rules --coverage`: for each judged rule, how many probes and how many generated
//! cases per 1,000 isolate it (`mcpdiff_props::coverage`). Human table, or
//! JSON with `--json`. Pure: computed in process, nothing is sent.

use super::exit;
use mcpdiff_oracle::fixture;
use mcpdiff_props::coverage::{coverage, Coverage, COVERAGE_CASES, COVERAGE_SEED};
use std::io::{self, Write};
use std::process::ExitCode;

pub fn run(json: bool) -> ExitCode {
    let c = coverage(&fixture::surface(), COVERAGE_SEED, COVERAGE_CASES);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if json {
        serde_json::to_writer_pretty(&mut out, &c)
            .map_err(io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        write_table(&mut out, &c)
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) if c.rules.iter().all(|r| r.probes > 0 && r.generated > 0) => ExitCode::SUCCESS,
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
        "Isolation coverage: {} probes, {} generated cases (seed {}), fixture surface",
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
