//! One module per subcommand.

pub mod rules;
