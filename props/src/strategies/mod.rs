//! proptest strategies, one concept per file: header-ish values, `x-mcp-header` schemas,
//! and whole `Case`s.

pub mod case;
pub mod schemas;
pub mod values;
