//! `mcpdiff-props`: the generators of requests (the runner's seeded generator, proptest
//! strategies, the fuzz mapping), the one set of case edits they all plant defects with,
//! and the fixture surface they are built against. The property tests of the oracle core
//! live in `tests/`.

pub mod alloc_count;
pub mod auth_coverage;
pub mod choice;
pub mod coverage;
pub mod edit;
pub mod fixture;
pub mod fuzz_props;
pub mod gen;
pub mod legacy_gen;
pub mod strategies;
pub mod toolgen;

pub use fixture::fixture_surface;
