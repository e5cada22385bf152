//! TOOLS-LIST-STABLE, RES-LIST-STABLE, PROMPTS-LIST-STABLE: «This set MAY be empty and MAY
//! change over time (see List Changed Notification), but MUST NOT vary per-connection or as a
//! side effect of other requests on the connection.» (server/tools.mdx, resources.mdx,
//! prompts.mdx § Capabilities; DEVIATIONS.md D-128, D-150..D-152).
//!
//! No single request shows this: the runner lists three times, on a fresh connection (A), on
//! a kept-alive connection right after another request of the same family on it (B: a
//! `tools/call` of a read-only tool, a `resources/read`, a `prompts/get`), and on a fresh
//! connection again (C), and this module judges the three answers as **sets** of names (tools,
//! prompts) or URIs (resources); their order is TOOLS-ORDER's. A list served in pages is read
//! whole: each of A, B and C follows its own `nextCursor`s (at most [`MAX_PAGES`] pages), A's
//! and C's pages each on a fresh connection, B's all on the kept-alive one, and the set is the
//! union of its pages. A changed between A and C is the change over time the sentence allows,
//! so the triple decides nothing; A equal to C and B different is the finding; all three equal
//! passes. A page that is not a 2xx result with the list, is cut short, `401`, `429`, a
//! `nextCursor` that is no string, a list longer than `MAX_PAGES` pages, or a page of B that
//! did not travel on the connection of the other request leaves the triple not determined.
//! Pure: the caller sends the requests.

use crate::case::Case;
use crate::check::Finding;
use crate::client::conformant_case;
use crate::observation::Observation;
pub use crate::reuse::Judgement;
use crate::reuse::{outcome, Outcome};
use crate::rules::{self, connection};
use crate::surface::Surface;
use crate::RuleId;
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// The three lists the sentence binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListKind {
    Tools,
    Resources,
    Prompts,
}

impl ListKind {
    /// Every kind, in rule-table order.
    pub const ALL: [ListKind; 3] = [ListKind::Tools, ListKind::Resources, ListKind::Prompts];

    /// The rule this kind's list breaks.
    pub fn rule(self) -> RuleId {
        match self {
            ListKind::Tools => connection::TOOLS_LIST_STABLE,
            ListKind::Resources => connection::RES_LIST_STABLE,
            ListKind::Prompts => connection::PROMPTS_LIST_STABLE,
        }
    }

    /// The list method.
    pub fn list_method(self) -> &'static str {
        match self {
            ListKind::Tools => "tools/list",
            ListKind::Resources => "resources/list",
            ListKind::Prompts => "prompts/list",
        }
    }

    /// The other request of the family sent before the second list.
    pub fn other_method(self) -> &'static str {
        match self {
            ListKind::Tools => "tools/call",
            ListKind::Resources => "resources/read",
            ListKind::Prompts => "prompts/get",
        }
    }

    /// The result member holding the list, and the member naming each item.
    pub fn keys(self) -> (&'static str, &'static str) {
        match self {
            ListKind::Tools => ("tools", "name"),
            ListKind::Resources => ("resources", "uri"),
            ListKind::Prompts => ("prompts", "name"),
        }
    }
}

/// One triple to send: `list` fresh, `other` then `list` on one connection, `list` fresh.
#[derive(Clone, Debug, PartialEq)]
pub struct ListStableProbe {
    pub kind: ListKind,
    /// The list request (the same one each time).
    pub list: Case,
    /// The other request of the family sent on the kept-alive connection before the list.
    pub other: Case,
}

/// The triples for the lists the target declares a capability for and has a member to send
/// the other request about: a read-only tool that requires no argument (called with
/// `arguments: {}`; a tool with side effects is never called), the first listed resource, the
/// first listed prompt (with `arguments: {}`; a refusal is still a request on the connection).
pub fn list_stable_probes(surface: &Surface) -> Vec<ListStableProbe> {
    let caps = surface.capabilities;
    let tool = surface.tools.iter().find(|t| {
        t.read_only
            && t.header_params.as_ref().is_ok_and(Vec::is_empty)
            && t.input_schema
                .get("required")
                .and_then(Value::as_array)
                .is_none_or(Vec::is_empty)
    });
    let mut out = Vec::new();
    let mut push = |kind: ListKind, id: u64, params: Value| {
        out.push(ListStableProbe {
            kind,
            list: conformant_case(surface, json!(id), kind.list_method(), json!({})),
            other: conformant_case(surface, json!(id + 1), kind.other_method(), params),
        });
    };
    if let (true, Some(t)) = (caps.tools, tool) {
        push(
            ListKind::Tools,
            911,
            json!({"name": t.name, "arguments": {}}),
        );
    }
    if let (true, Some(uri)) = (caps.resources, surface.resources.first()) {
        push(ListKind::Resources, 913, json!({ "uri": uri }));
    }
    if let (true, Some(p)) = (caps.prompts, surface.prompts.first()) {
        push(ListKind::Prompts, 915, json!({"name": p, "arguments": {}}));
    }
    out
}

/// The most pages one list is read to: discovery's own limit (DEVIATIONS.md D-140). A longer
/// list decides nothing.
pub const MAX_PAGES: usize = 10;

impl ListStableProbe {
    /// The request for the page after one whose `nextCursor` was `cursor`: the list request
    /// (path, headers, id, `_meta`) with `cursor` first in its `params`, so a probe read back
    /// from the corpus pages on without the surface it was built from. For a probe's own
    /// compact body these are the bytes `conformant_case` writes for the page. `None` when the
    /// list request's body is no JSON object with object `params`.
    pub fn next_page(&self, cursor: &str) -> Option<Case> {
        let mut body: Value = serde_json::from_slice(&self.list.body).ok()?;
        let request = body.as_object_mut()?;
        let mut params = Map::new();
        params.insert("cursor".to_string(), Value::String(cursor.to_string()));
        match request.get("params") {
            None => {}
            Some(Value::Object(rest)) => params.extend(
                rest.iter()
                    .filter(|(k, _)| *k != "cursor")
                    .map(|(k, v)| (k.clone(), v.clone())),
            ),
            Some(_) => return None,
        }
        // (an existing `params` keeps its place: the map keeps insertion order)
        request.insert("params".to_string(), Value::Object(params));
        let mut page = self.list.clone();
        page.body = serde_json::to_vec(&body).ok()?;
        Some(page)
    }
}

/// One page of a list answer: the names (URIs) it carries and the `nextCursor` it gives, or
/// `None` when the answer decides nothing: not a 2xx result, cut short, `401`/`429`, an item
/// without a string name (URI), a `nextCursor` that is neither absent, null nor a string.
pub fn page(kind: ListKind, obs: &Observation) -> Option<(BTreeSet<String>, Option<String>)> {
    if outcome(obs) != Outcome::Served {
        return None;
    }
    let result = obs.http()?.rpc_response()?.get("result")?;
    let next = match result.get("nextCursor") {
        None | Some(Value::Null) => None,
        Some(Value::String(c)) => Some(c.clone()),
        Some(_) => return None,
    };
    let (list, key) = kind.keys();
    let names = result
        .get(list)?
        .as_array()?
        .iter()
        .map(|item| item.get(key).and_then(Value::as_str).map(str::to_string))
        .collect::<Option<BTreeSet<String>>>()?;
    Some((names, next))
}

/// The cursor of the page after `obs`, when `obs` is a page that decides something and more
/// follow: what the caller asks for next.
pub fn next_cursor(kind: ListKind, obs: &Observation) -> Option<String> {
    page(kind, obs).and_then(|(_, next)| next)
}

/// The set of names (URIs) of a list read in `pages` (a single answer when the target lists
/// everything at once): the union of the pages, or `None` when a page decides nothing, a page
/// but the last gives no `nextCursor`, or the last still gives one (not read to its end).
pub fn members(kind: ListKind, pages: &[Observation]) -> Option<BTreeSet<String>> {
    let mut all = BTreeSet::new();
    for (i, obs) in pages.iter().enumerate() {
        let (names, next) = page(kind, obs)?;
        if next.is_none() != (i + 1 == pages.len()) {
            return None;
        }
        all.extend(names);
    }
    (!pages.is_empty()).then_some(all)
}

/// Judge the three lists, each as the pages it was read in: `fresh` (A), `after_other` (B,
/// after `other_answer` on the same connection; `reused_connection` says whether every page
/// of B travelled on that connection) and `again` (C).
pub fn judge_triple(
    probe: &ListStableProbe,
    fresh: &[Observation],
    other_answer: &Observation,
    after_other: &[Observation],
    reused_connection: bool,
    again: &[Observation],
) -> Judgement {
    let kind = probe.kind;
    if !reused_connection || outcome(other_answer) == Outcome::Undetermined {
        return Judgement::Undetermined;
    }
    let (Some(a), Some(b), Some(c)) = (
        members(kind, fresh),
        members(kind, after_other),
        members(kind, again),
    ) else {
        return Judgement::Undetermined;
    };
    if a != c {
        return Judgement::Undetermined;
    }
    if a == b {
        return Judgement::Pass;
    }
    let missing: Vec<&String> = a.difference(&b).collect();
    let extra: Vec<&String> = b.difference(&a).collect();
    Judgement::Fail(Finding {
        rule: kind.rule().0.to_string(),
        level: rules::level_of(kind.rule()).to_string(),
        expected: format!(
            "the same {} on every connection, whatever came before on it: a `{}` after a \
             `{}` on the same connection lists what two fresh connections list",
            kind.keys().0,
            kind.list_method(),
            kind.other_method()
        ),
        observed: format!(
            "after a `{}` on the connection the `{}` result left out {missing:?} and added \
             {extra:?}; fresh connections before and after agreed on {a:?}",
            kind.other_method(),
            kind.list_method()
        ),
        co_failing: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use crate::reference::{respond, to_observation};

    #[test]
    fn the_fixture_gets_one_triple_per_list_and_the_reference_serves_them() {
        let ps = list_stable_probes(&fixture::surface());
        let kinds: Vec<_> = ps.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, ListKind::ALL);
        for p in &ps {
            let set = members(p.kind, &[answer(&p.list)]).expect("a full list");
            assert!(!set.is_empty(), "{:?}", p.kind);
            assert_ne!(outcome(&answer(&p.other)), Outcome::Undetermined);
        }
        // the tool called is read-only and needs no argument
        assert!(String::from_utf8_lossy(&ps[0].other.body).contains(fixture::MENU_TOOL));
    }

    fn answer_on(case: &Case, surface: &Surface) -> Observation {
        to_observation(&respond(case, surface))
    }

    /// `answer_on` the fixture.
    fn answer(case: &Case) -> Observation {
        answer_on(case, &fixture::surface())
    }

    #[test]
    fn the_next_page_is_the_conformant_list_request_with_its_cursor() {
        let surface = fixture::paged_surface();
        for p in list_stable_probes(&surface) {
            let id = serde_json::from_slice::<Value>(&p.list.body).expect("JSON")["id"].clone();
            let method = p.kind.list_method();
            let built = conformant_case(&surface, id, method, json!({"cursor": "c\"2"}));
            assert_eq!(p.next_page("c\"2"), Some(built), "{:?}", p.kind);
        }
        // a cursor already in the request is replaced, not repeated
        let p = &list_stable_probes(&surface)[0];
        let twice = p.next_page("a").and_then(|c| {
            ListStableProbe {
                list: c,
                ..p.clone()
            }
            .next_page("b")
        });
        assert_eq!(twice, p.next_page("b"));
        // no JSON object, or `params` no object: no next page
        for body in [&b"[]"[..], b"{\"params\":[]}", b"\xff"] {
            let mut odd = p.clone();
            odd.list.body = body.to_vec();
            assert_eq!(odd.next_page("x"), None, "{body:?}");
        }
    }

    #[test]
    fn a_paged_list_is_read_whole_by_following_its_own_cursors() {
        let (plain, paged) = (fixture::surface(), fixture::paged_surface());
        let probes = list_stable_probes(&paged);
        assert_eq!(probes.len(), 3);
        let mut paged_lists = 0;
        for p in probes {
            let mut pages = vec![answer_on(&p.list, &paged)];
            while let Some(c) = pages.last().and_then(|o| next_cursor(p.kind, o)) {
                assert!(pages.len() < MAX_PAGES, "{:?}", p.kind);
                pages.push(answer_on(
                    &p.next_page(&c).expect("a JSON list request"),
                    &paged,
                ));
            }
            let whole = members(p.kind, &[answer_on(&p.list, &plain)]).expect("one page");
            assert_eq!(members(p.kind, &pages), Some(whole), "{:?}", p.kind);
            if pages.len() > 1 {
                paged_lists += 1;
                // a list read short of its end (its first page alone too) decides nothing
                assert_eq!(members(p.kind, &pages[..pages.len() - 1]), None);
                assert_eq!(members(p.kind, &pages[..1]), None);
            }
            assert_eq!(members(p.kind, &[]), None);
            // nor does a `nextCursor` that is no string
            let mut odd = pages[0].clone();
            if let Observation::Http(a) = &mut odd {
                if let crate::observation::Body::Json { value } = &mut a.body {
                    value["result"]["nextCursor"] = json!(7);
                }
            }
            assert_eq!(page(p.kind, &odd), None);
        }
        // (of the fixture's lists only the tools take more than one page of two)
        assert_eq!(paged_lists, 1);
    }

    #[test]
    fn equal_sets_pass_a_side_effect_fails_and_change_over_time_decides_nothing() {
        let p = &list_stable_probes(&fixture::surface())[0];
        let full = answer(&p.list);
        let other = answer(&p.other);
        let mut shorter = full.clone();
        if let Observation::Http(a) = &mut shorter {
            if let crate::observation::Body::Json { value } = &mut a.body {
                value["result"]["tools"]
                    .as_array_mut()
                    .expect("tools")
                    .remove(0);
            }
        }
        let j = |a: &Observation, b: &Observation, reused: bool, c: &Observation| {
            judge_triple(
                p,
                std::slice::from_ref(a),
                &other,
                std::slice::from_ref(b),
                reused,
                std::slice::from_ref(c),
            )
        };
        assert_eq!(j(&full, &full, true, &full), Judgement::Pass);
        assert!(matches!(
            j(&full, &shorter, true, &full),
            Judgement::Fail(f) if f.rule == "TOOLS-LIST-STABLE" && f.level == "MUST NOT"
        ));
        // A and C differ: the set changed over time
        assert_eq!(j(&full, &shorter, true, &shorter), Judgement::Undetermined);
        assert_eq!(j(&full, &shorter, false, &full), Judgement::Undetermined);
        let gone = Observation::Transport {
            failure: crate::observation::TransportFailure::Refused,
        };
        assert_eq!(j(&full, &gone, true, &full), Judgement::Undetermined);
        // the null server's `200 {}` carries no list
        let null = to_observation(&crate::reference::null_response(&p.list));
        assert_eq!(j(&null, &null, true, &null), Judgement::Undetermined);
    }
}
