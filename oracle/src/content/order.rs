//! The order of the tools `tools/list` returns (server/tools.mdx § Capabilities): «Servers
//! SHOULD return tools in a deterministic order (i.e., the same ordering across requests
//! when the underlying set of tools has not changed).» Discovery saw one ordering; a later
//! whole list (no cursor sent, no `nextCursor` back) with the same set of names in another
//! order breaks it. A different set is a change of the set, which «MAY change over time»,
//! and decides nothing (DEVIATIONS.md D-87).

use serde::Serialize;
use serde_json::Value;

/// Fingerprints of a list of names: one that depends on the order, one that does not (a
/// multiset sum), and the length. Kept instead of the names so a Verdict carries 20 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ListOrder {
    pub ordered: u64,
    pub set: u64,
    pub len: u32,
}

/// FNV-1a, 64 bits: spread enough for a handful of names, and stable across builds.
fn name_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl ListOrder {
    pub fn of<'a>(names: impl IntoIterator<Item = &'a str>) -> ListOrder {
        let mut o = ListOrder {
            ordered: 0,
            set: 0,
            len: 0,
        };
        for n in names {
            let h = name_hash(n);
            o.ordered = (o.ordered.rotate_left(7) ^ h).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            o.set = o.set.wrapping_add(h);
            o.len += 1;
        }
        o
    }
}

/// Whether a `tools/list` result keeps the order discovery saw (`expected`), when it is the
/// whole list of the same set; anything else passes (a page, another set, unnamed items).
pub(super) fn order_holds(result: &Value, expected: ListOrder) -> bool {
    if result.get("nextCursor").is_some_and(|c| !c.is_null()) {
        return true;
    }
    let Some(tools) = result.get("tools").and_then(Value::as_array) else {
        return true;
    };
    let names: Option<Vec<&str>> = tools
        .iter()
        .map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    let Some(names) = names else {
        return true;
    };
    let got = ListOrder::of(names);
    !(got.len == expected.len && got.set == expected.set && got.ordered != expected.ordered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_same_set_in_another_order_fails_only() {
        let seen = ListOrder::of(["a", "b", "c"]);
        let list = |names: &[&str]| json!({"tools": names.iter().map(|n| json!({"name": n})).collect::<Vec<_>>()});
        assert!(order_holds(&list(&["a", "b", "c"]), seen));
        assert!(!order_holds(&list(&["b", "a", "c"]), seen));
        // another set: the set may change over time
        assert!(order_holds(&list(&["a", "b"]), seen));
        assert!(order_holds(&list(&["c", "b", "d"]), seen));
        // a page of a longer list
        let mut page = list(&["b", "a", "c"]);
        page["nextCursor"] = json!("p2");
        assert!(order_holds(&page, seen));
    }
}
