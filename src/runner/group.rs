//! Case-stream groups: which targets share one stream of generated cases, and against which
//! distinct surfaces inside a group each case is judged.
//!
//! # The case-stream key
//!
//! Targets are grouped by their *callable shape*: the endpoint path plus the names the
//! generator (`mcpdiff_props::gen::BasePlan`) turns into calls, read from `gen_surface`:
//! tool names, concrete resource URIs, resource templates and prompt names. Everything else a
//! surface holds only changes the bytes of a case, never whether a target may be sent it:
//! capability flags (extra `resources/list` or `prompts/get` calls), `supported_versions`,
//! `legacy_era`, a tool's `inputSchema` details (`$schema`, `additionalProperties`) or its
//! `x-mcp-header` parameters (which `Mcp-Param-*` headers the request mirrors). Those details
//! differ from SDK to SDK even when each serves the same fixture, and keying on them put
//! every SDK in a group of its own, with no cross-SDK comparison at all. They stay part of
//! the *judging*: each case is judged once per distinct `surface` of the group, and every
//! target is checked against the verdict of its own surface, so a header a target did not
//! declare, or an era it does not speak, is judged as that target declared it.
//!
//! Shapes need not be equal: a target joins a group whose leader's shape *covers* its own
//! (every name of the target is also the leader's), when it lacks at most a quarter of the
//! leader's names. One SDK that cannot express one fixture tool (tower-mcp and the bundled targets' `café_menu`)
//! still meets the others: a `tools/call` of the tool it lacks is judged against its own
//! surface, as an unknown tool, and the targets that declare the tool are held to a
//! different verdict on that case, so it is not compared (see `record.rs`). The quarter keeps
//! unrelated servers apart: a target whose discovery failed (an empty shape) is not fed
//! another server's tools. Leaders are taken biggest shape first, so a group's stream calls
//! every name of every member.
//!
//! The safety gate (`prepare.rs`: off loopback only `readOnlyHint` tools are called) is kept:
//! a target never joins a stream that calls a tool it declares but may not be called.

use super::{Sender, Target};
use mcpdiff_oracle::Surface;
use std::cmp::Reverse;
use std::collections::BTreeSet;

/// One case stream and the targets it goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    /// Target indices; `members[0]` is the leader, whose `gen_surface` generates the cases.
    pub members: Vec<usize>,
    /// One target index per distinct `surface` among the members (the first that has it):
    /// each case is judged once against each of these.
    pub judges: Vec<usize>,
    /// Per member (same order as `members`): the index into `judges` of its surface.
    pub slots: Vec<usize>,
}

/// What a stream calls: (kind, name) pairs, kind 0 tool, 1 resource, 2 template, 3 prompt,
/// 4..=7 a cursor of a paginated list.
type Shape<'a> = BTreeSet<(u8, &'a str)>;

fn shape(s: &Surface) -> Shape<'_> {
    let tools = s.tools.iter().map(|t| (0, t.name.as_str()));
    let resources = s.resources.iter().map(|r| (1, r.as_str()));
    let templates = s.resource_templates.iter().map(|r| (2, r.as_str()));
    let prompts = s.prompts.iter().map(|p| (3, p.as_str()));
    tools
        .chain(resources)
        .chain(templates)
        .chain(prompts)
        .chain(cursors(s))
        .collect()
}

/// The cursors the surface's paginated lists issued, kind 4 + the list's place in
/// `LIST_METHODS`: generated cases and page probes send a leader's cursors, so a target that
/// pages a list with cursors of its own never shares a stream with it (one that pages the list
/// not at all may: a cursor it never issued is an invalid one there, D-140, D-141).
fn cursors(s: &Surface) -> impl Iterator<Item = (u8, &str)> {
    s.pagination.lists.iter().flat_map(|l| {
        let kind = mcpdiff_oracle::pages::LIST_METHODS
            .iter()
            .position(|(m, _)| *m == l.method)
            .map_or(8, |i| 4 + i as u8);
        l.cursors.iter().map(move |c| (kind, c.as_str()))
    })
}

/// Whether `t` may take the case stream of `leader` (see the module docs).
fn joins<S: Sender>(targets: &[Target<S>], shapes: &[Shape], leader: usize, t: usize) -> bool {
    let (l, c) = (&targets[leader], &targets[t]);
    if l.gen_surface.endpoint != c.gen_surface.endpoint || !shapes[t].is_subset(&shapes[leader]) {
        return false;
    }
    let missing = shapes[leader].len() - shapes[t].len();
    // never call a tool the target declares but its safety gate left out of its gen_surface
    let gated = l
        .gen_surface
        .tools
        .iter()
        .any(|x| c.surface.tool(&x.name).is_some() && c.gen_surface.tool(&x.name).is_none());
    missing * 4 <= shapes[leader].len() && !gated
}

/// The groups of a run, in order of their lowest target index (members in index order after
/// the leader). A pure function of the targets, so the same seed gives the same cases.
pub(crate) fn groups<S: Sender>(targets: &[Target<S>]) -> Vec<Group> {
    let shapes: Vec<Shape> = targets.iter().map(|t| shape(&t.gen_surface)).collect();
    // biggest shape first (a stable sort: ties keep target order), so leaders cover members
    let mut order: Vec<usize> = (0..targets.len()).collect();
    order.sort_by_key(|&i| Reverse(shapes[i].len()));
    let mut members: Vec<Vec<usize>> = Vec::new();
    for t in order {
        match members
            .iter_mut()
            .find(|g| joins(targets, &shapes, g[0], t))
        {
            Some(g) => g.push(t),
            None => members.push(vec![t]),
        }
    }
    for g in &mut members {
        g[1..].sort_unstable();
    }
    members.sort_by_key(|g| g.iter().min().copied());
    members
        .into_iter()
        .map(|members| {
            let mut judges: Vec<usize> = Vec::new();
            let slots = members
                .iter()
                .map(|&m| {
                    let same = judges
                        .iter()
                        .position(|&j| targets[j].surface == targets[m].surface);
                    same.unwrap_or_else(|| {
                        judges.push(m);
                        judges.len() - 1
                    })
                })
                .collect();
            Group {
                members,
                judges,
                slots,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::{fixture, Case, Observation, TransportFailure};
    use serde_json::json;

    #[derive(Clone)]
    struct Mute;
    impl Sender for Mute {
        async fn send(&self, _case: Case) -> Observation {
            Observation::Transport {
                failure: TransportFailure::Refused,
            }
        }
    }

    fn target(name: &str, surface: Surface) -> Target<Mute> {
        Target {
            name: name.into(),
            url: String::new(),
            sender: Mute,
            gen_surface: surface.clone(),
            surface,
            notes: Vec::new(),
        }
    }

    fn without_tool(mut s: Surface, name: &str) -> Surface {
        s.tools.retain(|t| t.name != name);
        s
    }

    #[test]
    fn details_outside_the_key_share_a_stream_and_are_judged_apart() {
        let mut detailed = fixture::surface();
        detailed.capabilities.logging = true;
        detailed.supported_versions.push("2025-06-18".into());
        detailed.legacy_era = true;
        if let Some(schema) = detailed.tools[0].input_schema.as_object_mut() {
            schema.insert("additionalProperties".into(), json!(false));
        }
        let targets = vec![
            target("a", fixture::surface()),
            target("b", detailed),
            target("c", fixture::surface()),
        ];
        let g = groups(&targets);
        assert_eq!(
            g,
            vec![Group {
                members: vec![0, 1, 2],
                judges: vec![0, 1],
                slots: vec![0, 1, 0],
            }]
        );
    }

    #[test]
    fn identical_surfaces_are_judged_once() {
        let targets: Vec<_> = ["reference", "mutant:x", "mutant:y"]
            .iter()
            .map(|n| target(n, fixture::surface()))
            .collect();
        let g = groups(&targets);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].judges, vec![0]);
    }

    #[test]
    fn a_target_lacking_a_tool_joins_the_fuller_leader() {
        let full = fixture::surface();
        let lacking = without_tool(full.clone(), &full.tools[0].name);
        // the lacking target comes first: the fuller one still leads the stream
        let targets = vec![target("lacking", lacking), target("full", full)];
        let g = groups(&targets);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].members, vec![1, 0]);
        assert_eq!(g[0].judges.len(), 2);
    }

    #[test]
    fn different_shapes_stay_apart() {
        let full = fixture::surface();
        let mut other_endpoint = full.clone();
        other_endpoint.endpoint = "/other".into();
        other_endpoint
            .tools
            .iter_mut()
            .for_each(|t| t.name.push('x'));
        let targets = vec![
            target("full", full.clone()),
            // discovery failed: nothing of the fixture's, no other server's tools
            target("empty", Surface::minimal("/mcp")),
            target("other", other_endpoint),
        ];
        let g = groups(&targets);
        let members: Vec<_> = g.iter().map(|g| g.members.clone()).collect();
        assert_eq!(members, vec![vec![0], vec![1], vec![2]]);
        // a same-named endpoint elsewhere is still another stream
        let mut moved = full.clone();
        moved.endpoint = "/v2/mcp".into();
        assert_eq!(groups(&[target("a", full), target("b", moved)]).len(), 2);
    }

    #[test]
    fn targets_paging_a_list_with_other_cursors_stay_apart() {
        let paged = fixture::paged_surface();
        let mut other = paged.clone();
        other.pagination.lists[0].cursors = vec!["their-own-cursor".into()];
        // one that pages nothing joins a paged leader: any cursor is invalid there (D-141)
        let targets = vec![
            target("paged", paged),
            target("whole", fixture::surface()),
            target("other", other),
        ];
        let members: Vec<_> = groups(&targets).into_iter().map(|g| g.members).collect();
        assert_eq!(members, vec![vec![0, 1], vec![2]]);
    }

    #[test]
    fn the_safety_gate_keeps_a_gated_target_out_of_a_calling_stream() {
        let full = fixture::surface();
        let gated_tool = full.tools[0].name.clone();
        let mut gated = target("remote", full.clone());
        gated.gen_surface = without_tool(full.clone(), &gated_tool);
        let targets = vec![target("local", full), gated];
        let g = groups(&targets);
        assert_eq!(
            g.len(),
            2,
            "the gated tool would be called on the remote target"
        );
    }
}
