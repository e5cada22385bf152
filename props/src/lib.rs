//! `mcpdiff-props`: the proptest strategies (the generators of requests, header values and
//! tool schemas) and the fixture surface they are built against. The property tests of the
//! oracle core live in `tests/`.

pub mod coverage;
pub mod fixture;
pub mod fuzz_props;
pub mod gen;
pub mod strategies;
pub mod toolgen;

pub use fixture::fixture_surface;
