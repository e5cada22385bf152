//! Content checks: what a server publishes and answers, read from the `result` of one
//! answer. Each check is a per-answer lint (`Lint::Content`) bound to one rule of the table
//! and chosen by the request's method (and, for the capability rules, by what discovery
//! found on the surface), so the judge decides which apply once per case and `check` reads
//! the answer's result once for all of them.
//!
//! A check reads only a JSON-RPC `result`: an error, a bare refusal or a transport failure
//! passes every one of them (the answer sets judge those). What a check needs from the
//! surface is decided when it is chosen, so the Verdict carries no surface.
//!
//! Files: `discover.rs` (the `server/discover` result), `cache.rs` (caching hints).

mod cache;
mod discover;

use crate::rules::{self, RuleId};
use crate::surface::Surface;
use serde::Serialize;
use serde_json::Value;

/// One content check. The order of the variants is the order a Verdict lists them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[repr(u8)]
pub enum ContentCheck {
    /// `server/discover`: `supportedVersions` a non-empty array of strings and
    /// `capabilities` an object (DISC-SHAPE).
    DiscoverShape,
    /// `server/discover`: `_meta` names serverInfo with a string name and version
    /// (DISC-SERVERINFO; it takes BASE-SERVERINFO's place on this method).
    DiscoverServerInfo,
    /// A cacheable result with `resultType: "complete"` carries an integer `ttlMs` and a
    /// `cacheScope` of `"public"` or `"private"` (CACHE-HINTS).
    CacheHints,
    /// A numeric `ttlMs` is not negative (CACHE-TTL-NONNEG).
    CacheTtlNonNegative,
}

impl ContentCheck {
    /// Every check, in listing order.
    pub const ALL: [ContentCheck; 4] = [
        ContentCheck::DiscoverShape,
        ContentCheck::DiscoverServerInfo,
        ContentCheck::CacheHints,
        ContentCheck::CacheTtlNonNegative,
    ];

    /// The rule a failure of this check breaks.
    pub fn rule(self) -> RuleId {
        match self {
            ContentCheck::DiscoverShape => rules::DISC_SHAPE,
            ContentCheck::DiscoverServerInfo => rules::DISC_SERVERINFO,
            ContentCheck::CacheHints => rules::CACHE_HINTS,
            ContentCheck::CacheTtlNonNegative => rules::CACHE_TTL_NONNEG,
        }
    }

    /// Whether `result` (the `result` member of a JSON-RPC success) satisfies the check.
    pub fn holds(self, result: &Value) -> bool {
        match self {
            ContentCheck::DiscoverShape => discover::shape_holds(result),
            ContentCheck::DiscoverServerInfo => discover::server_info_holds(result),
            ContentCheck::CacheHints => cache::hints_hold(result),
            ContentCheck::CacheTtlNonNegative => cache::ttl_not_negative(result),
        }
    }

    /// What the check demands, in words for reports.
    pub fn describe(self) -> &'static str {
        match self {
            ContentCheck::DiscoverShape => {
                "a discover result with supportedVersions a non-empty array of strings and \
                 capabilities an object"
            }
            ContentCheck::DiscoverServerInfo => {
                "a discover result whose _meta names serverInfo with name and version"
            }
            ContentCheck::CacheHints => {
                "a complete result carrying an integer ttlMs and cacheScope \"public\" or \
                 \"private\""
            }
            ContentCheck::CacheTtlNonNegative => "a ttlMs that is >= 0",
        }
    }

    fn bit(self) -> u32 {
        1 << self as u8
    }
}

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

/// The content checks an answer to `method` must pass on `surface`, and whether they take
/// the place of BASE-SERVERINFO (on `server/discover`, where DISC-SERVERINFO names the same
/// omission more precisely: one omission is blamed on one sentence).
pub(crate) fn for_request(method: &str, _surface: &Surface) -> (ContentSet, bool) {
    let mut set = ContentSet::default();
    let mut cacheable = || {
        set.insert(ContentCheck::CacheHints);
        set.insert(ContentCheck::CacheTtlNonNegative);
    };
    match method {
        "server/discover" => {
            cacheable();
            set.insert(ContentCheck::DiscoverShape);
            set.insert(ContentCheck::DiscoverServerInfo);
            return (set, true);
        }
        "tools/list"
        | "prompts/list"
        | "resources/list"
        | "resources/templates/list"
        | "resources/read" => cacheable(),
        _ => {}
    }
    (set, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_names_a_judged_rule_in_the_table() {
        for c in ContentCheck::ALL {
            assert!(rules::JUDGED_IDS.contains(&c.rule()), "{c:?}");
            assert!(
                rules::RULES.iter().any(|r| r.id == c.rule() && r.judged),
                "{c:?}"
            );
        }
    }

    #[test]
    fn sets_list_in_variant_order_and_retain_by_rule() {
        let mut s = ContentSet::default();
        s.insert(ContentCheck::CacheTtlNonNegative);
        s.insert(ContentCheck::DiscoverShape);
        let listed: Vec<_> = s.iter().collect();
        assert_eq!(
            listed,
            [
                ContentCheck::DiscoverShape,
                ContentCheck::CacheTtlNonNegative
            ]
        );
        s.retain_rules(&[rules::CACHE_TTL_NONNEG]);
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            [ContentCheck::CacheTtlNonNegative]
        );
    }
}
