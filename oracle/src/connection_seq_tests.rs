use super::*;
use crate::fixture;
use crate::list_stable::list_stable_probes;
use crate::reference::connection::trust_known_connection;
use crate::reference::list_side_effect::side_effect;
use crate::reference::{respond, to_observation};
use crate::reuse::reuse_probes;
use crate::surface::Surface;

/// The requests of one connection answered by the reference over `surface`, in order, as a
/// server that keeps per-connection state would: `mutate` sees each request and its answer.
fn connection(
    cases: &[Case],
    surface: &Surface,
    mut mutate: impl FnMut(&mut Case, &mut crate::reference::Response),
) -> Vec<Observation> {
    cases
        .iter()
        .map(|c| {
            let mut c = c.clone();
            let mut resp = respond(&c, surface);
            mutate(&mut c, &mut resp);
            to_observation(&resp)
        })
        .collect()
}

/// Every connection of `seq` answered, the kept-alive one through `mutate`, the others fresh;
/// every request but the first of the kept-alive connection counted as reused.
fn answer(
    seq: &Sequence,
    surface: &Surface,
    mut mutate: impl FnMut(&mut Case, &mut crate::reference::Response),
) -> (Vec<Vec<Observation>>, Vec<Vec<bool>>) {
    let mut answers = Vec::new();
    let mut reused = Vec::new();
    for (i, c) in seq.connections().iter().enumerate() {
        if i == seq.kept_alive() {
            answers.push(connection(c, surface, &mut mutate));
        } else {
            answers.push(connection(c, surface, |_, _| {}));
        }
        reused.push((0..c.len()).map(|j| j > 0).collect());
    }
    (answers, reused)
}

/// The list triple of `kind` laid out as the runner sends it: `pages` requests a reading.
fn list_sequence(kind: ListKind, surface: &Surface) -> Sequence {
    let p = list_stable_probes(surface)
        .into_iter()
        .find(|p| p.kind == kind)
        .expect("a probe of the kind");
    let reading = || {
        let mut cases = vec![p.list.clone()];
        let mut last = to_observation(&respond(&p.list, surface));
        while let Some(c) = crate::list_stable::next_cursor(kind, &last) {
            let next = p.next_page(&c).expect("a JSON list request");
            last = to_observation(&respond(&next, surface));
            cases.push(next);
        }
        cases
    };
    let mut connections: Vec<Vec<Case>> = reading().into_iter().map(|c| vec![c]).collect();
    connections.push(std::iter::once(p.other.clone()).chain(reading()).collect());
    connections.extend(reading().into_iter().map(|c| vec![c]));
    Sequence::of(kind.rule().0, connections).expect("the runner's shape")
}

#[test]
fn the_reference_passes_and_each_list_mutant_fails_its_sequence() {
    for surface in [fixture::surface(), fixture::paged_surface()] {
        for kind in ListKind::ALL {
            let seq = list_sequence(kind, &surface);
            let (a, r) = answer(&seq, &surface, |_, _| {});
            assert_eq!(seq.judge(&a, &r), Judgement::Pass, "{kind:?}");
            let mut touched = false;
            let (a, r) = answer(&seq, &surface, |c, resp| {
                side_effect(kind, c, resp, &mut touched)
            });
            assert!(
                matches!(seq.judge(&a, &r), Judgement::Fail(f) if f.rule == kind.rule().0),
                "{kind:?}"
            );
            // not sent on the kept-alive connection: nothing decided
            let mut fresh = r.clone();
            fresh
                .iter_mut()
                .for_each(|c| c.iter_mut().for_each(|x| *x = false));
            assert_eq!(seq.judge(&a, &fresh), Judgement::Undetermined);
        }
    }
}

#[test]
fn the_reference_passes_and_the_known_connection_mutant_fails_the_reuse_sequence() {
    let surface = fixture::surface();
    for p in reuse_probes(&surface) {
        let connections = vec![
            vec![p.request.clone()],
            vec![p.prior.clone(), p.request.clone()],
        ];
        let seq = Sequence::of("BASE-STATELESS-NO-PRIOR", connections).expect("the shape");
        let (a, r) = answer(&seq, &surface, |_, _| {});
        assert_eq!(seq.judge(&a, &r), Judgement::Pass, "{}", p.context);
        let mut known = None;
        let (a, r) = answer(&seq, &surface, |c, resp| {
            trust_known_connection(c, &mut known);
            *resp = respond(c, &surface);
        });
        match seq.judge(&a, &r) {
            Judgement::Fail(f) => {
                assert_eq!(f.rule, "BASE-STATELESS-NO-PRIOR");
                assert!(f.expected.contains(p.context), "{}", f.expected);
            }
            other => panic!("{}: {other:?}", p.context),
        }
    }
}

#[test]
fn shapes_other_than_the_probes_are_not_judged() {
    let surface = fixture::surface();
    let p = &reuse_probes(&surface)[0];
    let one = |c: &Case| vec![c.clone()];
    let two = vec![p.prior.clone(), p.request.clone()];
    let of = |rule: &str, c: Vec<Vec<Case>>| Sequence::of(rule, c).is_some();
    assert!(of(
        "BASE-STATELESS-NO-PRIOR",
        vec![one(&p.request), two.clone()]
    ));
    // not a connection rule
    assert!(!of("TOOLS-ORDER", vec![one(&p.request), two.clone()]));
    // no kept-alive connection, two of them, or it comes first
    assert!(!of(
        "BASE-STATELESS-NO-PRIOR",
        vec![one(&p.request), one(&p.request)]
    ));
    assert!(!of(
        "BASE-STATELESS-NO-PRIOR",
        vec![two.clone(), two.clone()]
    ));
    assert!(!of(
        "BASE-STATELESS-NO-PRIOR",
        vec![two.clone(), one(&p.request)]
    ));
    // a list needs a fresh reading after the kept-alive connection too
    assert!(!of("TOOLS-LIST-STABLE", vec![one(&p.request), two.clone()]));
    assert!(of(
        "TOOLS-LIST-STABLE",
        vec![one(&p.request), two.clone(), one(&p.request)]
    ));
    // answers of another shape decide nothing
    let seq = list_sequence(ListKind::Tools, &surface);
    let (mut a, r) = answer(&seq, &surface, |_, _| {});
    a.pop();
    assert_eq!(seq.judge(&a, &r), Judgement::Undetermined);
}
