//! `MergeError`: why shard reports cannot be merged into one run's report (`merge.rs`); each
//! displays as the one line `mcpdiff merge` prints.

use super::json::SCHEMA;
use crate::runner::Shard;
use std::fmt;

/// Why reports cannot be merged into one run's report. `a` and `b` are input names (paths);
/// the `Display` text is the one line `mcpdiff merge` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    NoInputs,
    SchemaDiffers {
        a: String,
        b: String,
        schema_a: String,
        schema_b: String,
    },
    SeedDiffers {
        a: String,
        b: String,
        seed_a: u64,
        seed_b: u64,
    },
    ShardCountDiffers {
        a: String,
        b: String,
        shard_a: Shard,
        shard_b: Shard,
    },
    Repeated {
        shard: Shard,
        first: String,
        second: String,
    },
    /// The `K/N` labels of the shards no input is, and N.
    Missing {
        shards: Vec<String>,
        count: u64,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoInputs => {
                f.write_str("nothing to merge: pass the JSON reports of every shard")
            }
            MergeError::SchemaDiffers {
                a,
                b,
                schema_a,
                schema_b,
            } => write!(
                f,
                "{b} has schema '{schema_b}', {a} '{schema_a}': merge reports of one mcpdiff \
                 ('{SCHEMA}')"
            ),
            MergeError::SeedDiffers {
                a,
                b,
                seed_a,
                seed_b,
            } => write!(
                f,
                "{b} ran seed {seed_b}, {a} seed {seed_a}: merge only the shards of one run \
                 (same --seed)"
            ),
            MergeError::ShardCountDiffers {
                a,
                b,
                shard_a,
                shard_b,
            } => write!(
                f,
                "{b} is shard {}, {a} shard {}: merge the shards of one run (same N in \
                 --shard K/N)",
                shard_b.label(),
                shard_a.label()
            ),
            MergeError::Repeated {
                shard,
                first,
                second,
            } => write!(
                f,
                "shard {} is given twice ({first} and {second}): pass each shard's report once",
                shard.label()
            ),
            MergeError::Missing { shards, count } => write!(
                f,
                "shard {} missing: pass the reports of all {count} shards",
                shards.join(", ")
            ),
        }
    }
}

impl std::error::Error for MergeError {}
