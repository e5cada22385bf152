//! `mcpdiff`: property-based fuzz and differential testing for MCP Streamable HTTP
//! (revision 2026-07-28). This file only parses the command line and hands over to one
//! module per subcommand in `cmd/`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc instead of the system allocator: the oracle and the transport allocate many
/// small JSON values per case, and glibc's malloc/free were ~25% of the client's
/// instructions per case (callgrind profile of the runner).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cmd;

#[derive(Parser)]
#[command(
    name = "mcpdiff",
    version,
    about = "Fuzz and differential testing for MCP Streamable HTTP servers (revision 2026-07-28)",
    long_about = "mcpdiff sends generated adversarial requests to MCP Streamable HTTP endpoints, \
judges every answer against an oracle of the 2026-07-28 specification, compares targets \
with each other, and shrinks every problem to a minimal reproducer with its spec sentence."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// parsed once per process; boxing the large `run` arguments would buy nothing
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Fuzz endpoints against the oracle and each other (no URL: the in-process reference
    /// server, four mutants and every bundled SDK server and client target; --no-bundled:
    /// no SDK targets; --clients: client SDKs against the recording server).
    Run(cmd::run_args::RunArgs),
    /// Print the rule table the oracle encodes (id, level, spec section, sentence).
    Rules(cmd::rules::RulesArgs),
    /// Serve the reference server, one of its mutants, or the null server on loopback.
    Serve(cmd::serve::ServeArgs),
    /// Re-judge the regression corpus (oracle drift) and replay it against targets.
    Replay(cmd::replay::ReplayArgs),
    /// Fill the regression corpus: the probe-set seed, or inputs libFuzzer saved.
    Corpus(cmd::corpus::CorpusArgs),
    /// Render a saved run (`run --json`) as a review, Markdown, JUnit XML or HTML.
    Report(cmd::report::ReportArgs),
    /// List or install the bundled real-SDK targets (targets/<name>/).
    Targets(cmd::targets::TargetsArgs),
    /// Generate or check a tool set file (labelled x-mcp-header tools, for `--tools FILE`).
    Toolset(cmd::toolset::ToolsetArgs),
    /// Print a baseline (TOML, [[known]] entries) holding every finding of a saved run.
    Baseline(cmd::baseline::BaselineArgs),
    /// Scan an origin's MCP Server Card as the public scanner does, and check it against
    /// the endpoint it names.
    Card(cmd::card::CardArgs),
    /// The oracle's reference client (or a client mutant) as a client driver: lists the
    /// tools of URL and calls them as the calls file says (calibrates `run --clients`).
    ReferenceClient(cmd::reference_client::ReferenceClientArgs),
    /// Join the JSON reports of the shards of one run (`run --shard K/N`) into one report.
    Merge(cmd::merge::MergeArgs),
    /// Measurements for benches/side_by_side.sh (judge rate, time to catch each mutant).
    #[command(hide = true)]
    Bench(cmd::bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run(args) => cmd::run::run(args),
        Command::Rules(args) => cmd::rules::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Replay(args) => cmd::replay::run(args),
        Command::Corpus(args) => cmd::corpus::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::Baseline(args) => cmd::baseline::run(args),
        Command::Card(args) => cmd::card::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Targets(args) => cmd::targets::run(args),
        Command::Toolset(args) => cmd::toolset::run(args),
        Command::ReferenceClient(args) => cmd::reference_client::run(args),
        Command::Merge(args) => cmd::merge::run(args),
    }
}
