//! `mcpdiff rules`: print the oracle's rule table.

use mcpdiff_oracle::RULES;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Print a JSON array of objects (id, level, spec, sentence, ...) instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> ExitCode {
    if args.json {
        match serde_json::to_string_pretty(RULES) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("mcpdiff: could not serialize the rule table: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        for r in RULES {
            println!("{:<36} {:<10} {}", r.id, r.level.as_str(), r.spec);
        }
    }
    ExitCode::SUCCESS
}
