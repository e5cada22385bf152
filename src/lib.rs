//! `mcpdiff` as a library: the I/O edge of the tool (transport, runner, reference server)
//! and the run pipeline (`pipeline`), shared by the CLI binary and the integration tests.

pub mod auth;
pub mod baseline;
pub mod card;
pub mod clients;
pub mod corpus;
pub mod pipeline;
pub mod report;
pub mod runner;
pub mod secrets;
pub mod serve;
pub mod targets;
pub mod transport;
