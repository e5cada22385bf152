//! `Shard`: which part of a run's case stream one machine runs (`mcpdiff run --shard K/N`).
//! The stream is the run indices `0..total` (the probe set first, then the generated cases,
//! each a pure function of seed and index); shard K of N takes the indices `i` with
//! `i % N == K - 1`. So the N shards of one seed are disjoint and together run exactly the
//! indices of the unsharded run, whatever each machine's speed.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a `--shard` value was refused. The `Display` text is the one line the user reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError {
    /// The value as given.
    pub text: String,
    pub why: ShardProblem,
}

/// What is wrong with a `--shard` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardProblem {
    NoSlash,
    NotANumber,
    ZeroCount,
    IndexOutOfRange,
}

impl fmt::Display for ShardProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShardProblem::NoSlash => "no '/' between K and N",
            ShardProblem::NotANumber => "not a number",
            ShardProblem::ZeroCount => "N must be at least 1",
            ShardProblem::IndexOutOfRange => "K must be between 1 and N",
        })
    }
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad --shard '{}': {}; pass K/N with 1 <= K <= N, e.g. --shard 1/3 \
             (the first of three machines)",
            self.text, self.why
        )
    }
}

impl std::error::Error for ShardError {}

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl Shard {
    /// The whole stream: an unsharded run.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parse `K/N` (1 <= K <= N). The error is one line saying what to pass.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = |why: ShardProblem| ShardError {
            text: text.to_string(),
            why,
        };
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| bad(ShardProblem::NoSlash))?;
        let number = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| bad(ShardProblem::NotANumber))
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 {
            return Err(bad(ShardProblem::ZeroCount));
        }
        if index == 0 || index > count {
            return Err(bad(ShardProblem::IndexOutOfRange));
        }
        Ok(Shard { index, count })
    }

    /// Whether this is the whole stream.
    pub fn is_whole(&self) -> bool {
        self.count <= 1
    }

    /// How many of the run indices `0..total` are this shard's.
    pub fn share(&self, total: u64) -> u64 {
        let first = self.index - 1;
        if total <= first {
            0
        } else {
            (total - first).div_ceil(self.count)
        }
    }

    /// The run index of this shard's `n`-th case (0-based).
    pub fn nth(&self, n: u64) -> u64 {
        n.saturating_mul(self.count).saturating_add(self.index - 1)
    }

    /// Whether run index `i` is this shard's.
    pub fn owns(&self, i: u64) -> bool {
        i % self.count == self.index - 1
    }

    /// `K/N`.
    pub fn label(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_refused_in_one_line() {
        for bad in ["0/3", "4/3", "x", "1/0", "1/x", "/3", ""] {
            let e = Shard::parse(bad).expect_err(bad).to_string();
            assert!(e.contains("K/N") && !e.contains('\n'), "{bad}: {e}");
        }
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
    }

    #[test]
    fn shares_partition_the_indices() {
        for total in [0u64, 1, 2, 7, 10, 11] {
            for count in 1..=4u64 {
                let mut seen = vec![0u32; total as usize];
                for index in 1..=count {
                    let s = Shard { index, count };
                    for n in 0..s.share(total) {
                        let i = s.nth(n);
                        assert!(i < total && s.owns(i));
                        seen[i as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|&c| c == 1), "{total} {count}: {seen:?}");
            }
        }
    }
}
