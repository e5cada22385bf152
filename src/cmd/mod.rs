//! One module per subcommand, plus what they share: `exit` (error line, exit status, the
//! tokio runtime), `credentials` and `tls` (flags of the commands that send), `run_args`.

pub mod baseline;
pub mod bench;
pub mod card;
pub mod corpus;
pub mod credentials;
pub mod exit;
pub mod merge;
pub mod reference_client;
pub mod replay;
mod replay_client;
mod replay_connection;
mod replay_legacy;
mod replay_target;
mod replay_twin;
pub mod report;
pub mod rules;
pub mod rules_coverage;
pub mod rules_surface;
pub mod run;
pub mod run_args;
pub mod run_clients;
pub mod serve;
pub mod targets;
pub mod tls;
pub mod toolset;
