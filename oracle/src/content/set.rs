//! `ContentSet`: a set of content checks, one bit each, as the Verdict's lint set keeps them.

use super::ContentCheck;
use crate::rules::RuleId;

/// A set of content checks, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContentSet(u32);

impl ContentSet {
    pub fn insert(&mut self, c: ContentCheck) {
        self.0 |= c.bit();
    }

    pub fn contains(self, c: ContentCheck) -> bool {
        self.0 & c.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub(crate) fn bits(self) -> u32 {
        self.0
    }

    pub(crate) fn from_bits(bits: u32) -> ContentSet {
        ContentSet(bits)
    }

    /// Keep the checks whose rule `keep` names.
    pub fn retain_rules(&mut self, keep: &[RuleId]) {
        for c in ContentCheck::ALL {
            if !keep.contains(&c.rule()) {
                self.0 &= !c.bit();
            }
        }
    }

    /// The checks, in listing order.
    pub fn iter(self) -> ContentIter {
        ContentIter { left: self.0 }
    }
}

/// The checks of a `ContentSet`, lowest bit first.
#[derive(Clone, Debug)]
pub struct ContentIter {
    left: u32,
}

impl Iterator for ContentIter {
    type Item = ContentCheck;

    fn next(&mut self) -> Option<ContentCheck> {
        let c = *ContentCheck::ALL.get(self.left.trailing_zeros() as usize)?;
        self.left &= self.left - 1;
        Some(c)
    }
}
