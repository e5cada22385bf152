//! One module per subcommand.

pub mod rules;
pub mod run;
pub mod serve;
