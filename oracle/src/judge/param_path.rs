//! SHTTP-PARAM-PATH: an `Mcp-Param-*` header is read at the **exact** property path of its
//! annotated property (streamable-http.mdx § Schema Extension: «Header extraction is defined
//! as reading the instance value at the exact property path of the annotated property (the
//! chain of `properties` keys leading to it).»).
//!
//! A nested parameter (a path of two or more keys) is the only one a server can read at the
//! wrong place: at a shorter path ending in the same keys (its leading keys dropped, e.g.
//! `region` for `target.region`), as a server that looks the property up by name would.
//! Such a shorter path is a *decoy*; a decoy holding a primitive value other than the one the
//! header carries is what makes a call decide this rule (DEVIATIONS.md D-180).

use super::read::arguments::{ArgumentReader, Leaf, RawLeaf};
use crate::encoding::ParamMatch;

/// How a header's (decoded) value compares with the values at the decoys of its parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoy {
    /// No decoy holds a primitive value (a top-level parameter, or nothing there).
    None,
    /// Some decoy holds exactly the header's value (a server reading there would accept it).
    Equal,
    /// Every decoy that holds a primitive value holds another value than the header's (a
    /// server reading there would refuse it).
    Differs,
}

/// The decoys of `path` compared with `header`, the header's bytes as the server compares
/// them.
pub(super) fn decoy(arguments: &ArgumentReader<'_>, path: &[String], header: &[u8]) -> Decoy {
    let mut out = Decoy::None;
    for start in 1..path.len() {
        let mut held = RawLeaf::Absent;
        let leaf = arguments.value_at(&path[start..], &mut held);
        if matches!(leaf, Leaf::Absent | Leaf::Null) || leaf.is_container() {
            continue;
        }
        match leaf.compare(header) {
            ParamMatch::Equal => return Decoy::Equal,
            ParamMatch::Mismatch => out = Decoy::Differs,
            // a numeric or ambiguous equality: a server reading there might accept it, so
            // the call decides nothing about the path
            _ => return Decoy::None,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::read::arguments::Arguments;
    use serde_json::json;

    fn path(keys: &[&str]) -> Vec<String> {
        keys.iter().map(|k| k.to_string()).collect()
    }

    #[test]
    fn decoys_are_the_shorter_paths_ending_in_the_same_keys() {
        let args = json!({"region": "us", "target": {"region": "eu", "n": 3}, "n": {"x": 1}});
        let r = ArgumentReader::new(Some(Arguments::Parsed(&args)));
        let nested = path(&["target", "region"]);
        assert_eq!(decoy(&r, &nested, b"eu"), Decoy::Differs);
        assert_eq!(decoy(&r, &nested, b"us"), Decoy::Equal);
        // a top-level parameter has no decoy
        assert_eq!(decoy(&r, &path(&["region"]), b"eu"), Decoy::None);
        // a decoy holding an object is no value a header could be read from
        assert_eq!(decoy(&r, &path(&["target", "n"]), b"3"), Decoy::None);
        // nothing at the shorter path
        assert_eq!(decoy(&r, &path(&["target", "missing"]), b"x"), Decoy::None);
    }
}
