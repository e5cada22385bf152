//! `mcpdiff corpus seed|import`: fill the regression corpus. `seed` writes one entry per rule
//! of the oracle's probe set (what CI replays); `import` turns inputs libFuzzer saved into
//! entries. The format lives in `mcpdiff::corpus`; this file only parses arguments.

use super::exit::{self, fail};
use mcpdiff::corpus::{build, import_files};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "EXAMPLES:
  mcpdiff corpus seed                       # one entry per probed rule into corpus/
  mcpdiff corpus import fuzz/artifacts/judge/crash-*   # libFuzzer inputs -> corpus/
  mcpdiff corpus import --rule SHTTP-ORIGIN-403 --dir corpus crash-1234

EXIT STATUS:
  0  every entry written
  2  a file could not be read, judged or written")]
pub struct CorpusArgs {
    #[command(subcommand)]
    pub command: CorpusCommand,
}

#[derive(clap::Subcommand)]
pub enum CorpusCommand {
    /// Write the seed corpus: the first probe of each rule, with the reference's answer.
    Seed {
        /// Corpus folder.
        #[arg(default_value = "corpus")]
        dir: PathBuf,
    },
    /// Turn libFuzzer inputs (from the judge, reference or live targets) into entries.
    Import {
        /// Raw input files as libFuzzer saved them.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Corpus folder.
        #[arg(long, default_value = "corpus")]
        dir: PathBuf,
        /// The rule the entry is for (default: the rule the reference fails, else the
        /// first rule the case triggers).
        #[arg(long)]
        rule: Option<String>,
    },
}

pub fn run(args: CorpusArgs) -> ExitCode {
    match args.command {
        CorpusCommand::Seed { dir } => match build::save_all(&dir, &build::seed_entries()) {
            Ok((created, updated, unchanged)) => {
                println!(
                    "corpus {}: {created} new, {updated} updated, {unchanged} already there",
                    dir.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string()),
        },
        CorpusCommand::Import { files, dir, rule } => {
            let mut failed = false;
            for line in import_files(&dir, &files, rule.as_deref()) {
                match line {
                    Ok(l) => println!("{l}"),
                    Err(e) => {
                        failed = true;
                        exit::say(&e.to_string());
                    }
                }
            }
            if failed {
                ExitCode::from(exit::COULD_NOT_RUN)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}
