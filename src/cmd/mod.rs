//! One module per subcommand.

pub mod baseline;
pub mod bench;
pub mod card;
pub mod corpus;
pub mod credentials;
pub mod reference_client;
pub mod replay;
pub mod report;
pub mod rules;
pub mod rules_coverage;
pub mod run;
pub mod run_clients;
pub mod run_plan;
pub mod run_prepare;
pub mod serve;
pub mod targets;
pub mod tls;
pub mod toolset;
