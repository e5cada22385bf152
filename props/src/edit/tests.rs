use super::wide::NodeChange;
use super::*;
use crate::choice::{Pick, Rng};
use mcpdiff_oracle::{client::conformant_case, fixture};
use serde_json::json;
use std::collections::BTreeSet;

/// Each row's draw makes its own variant (the row's name is the edit's label).
#[test]
fn every_row_draws_the_variant_it_names() {
    let mut r = Rng::for_case(1, 1);
    for row in header::HEADER_EDITS {
        assert_eq!((row.draw)(&mut r, Pick(7)).name(), row.name);
    }
    for row in body::BODY_EDITS {
        assert_eq!((row.draw)(&mut r).name(), row.name);
    }
    for row in wide::WIDE_EDITS {
        assert_eq!((row.draw)(&mut r, Pick(7)).name(), row.name);
    }
}

#[test]
fn labels_are_unique_across_families() {
    let names: Vec<&str> = header::HEADER_EDITS
        .iter()
        .map(|r| r.name)
        .chain(body::BODY_EDITS.iter().map(|r| r.name))
        .chain(wide::WIDE_EDITS.iter().map(|r| r.name))
        .collect();
    let unique: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), names.len(), "{names:?}");
}

/// The runner's mix never draws a wide edit; the wide mix draws every family.
#[test]
fn mixes_weigh_the_families() {
    let mut r = Rng::for_case(2, 2);
    let runner: Vec<CaseEdit> = (0..3000)
        .map(|_| CaseEdit::draw(&mut r, &Mix::RUNNER))
        .collect();
    assert!(!runner.iter().any(|e| matches!(e, CaseEdit::Wide(_))));
    let wide: BTreeSet<&str> = (0..3000)
        .map(|_| CaseEdit::draw(&mut r, &Mix::WIDE).name())
        .collect();
    for row in wide::WIDE_EDITS {
        assert!(wide.contains(row.name), "{} never drawn", row.name);
    }
}

/// A drained source and an empty choice list both give the first row with zero values.
#[test]
fn the_first_option_is_the_zero_draw() {
    let first = CaseEdit::Header(HeaderEdit::Remove(Pick(0)));
    let mut u = Unstructured::new(&[]);
    assert_eq!(CaseEdit::arbitrary(&mut u).ok(), Some(first.clone()));
    assert_eq!(CaseEdit::draw(&mut ChoiceList::new(&[]), &Mix::WIDE), first);
}

#[test]
fn json_node_edits_walk_then_change() {
    let s = fixture::surface();
    let base = conformant_case(&s, json!(1), "tools/list", json!({}));
    // the first member of the body is `jsonrpc`
    let replace = CaseEdit::Wide(WideEdit::JsonNode(
        vec![Pick(0)],
        NodeChange::Replace(json!(2)),
    ));
    let c = apply_all(base.clone(), [&replace]);
    let body: Value = serde_json::from_slice(&c.body).unwrap();
    assert_eq!(body["jsonrpc"], json!(2));
    assert_eq!(c.labels, vec!["JsonNode".to_string()]);
    // a walk that runs out of containers changes the node it stopped at
    let deep = CaseEdit::Wide(WideEdit::JsonNode(
        vec![Pick(0); 4],
        NodeChange::SetMember("x".into(), json!(1)),
    ));
    assert_eq!(apply_all(base.clone(), [&deep]).body, base.body);
    // after a raw-byte edit the body is no longer edited as JSON
    let raw = CaseEdit::Body(BodyEdit::Garbage(b"{}".to_vec()));
    assert_eq!(apply_all(base, [&raw, &replace]).body, b"{}");
}

#[test]
fn wide_header_edits_target_any_field() {
    let s = fixture::surface();
    let base = conformant_case(&s, json!(1), "tools/list", json!({}));
    assert_eq!(base.headers[0].0, b"Content-Type");
    let drop = CaseEdit::Wide(WideEdit::DropHeader(Pick(0)));
    let c = apply_all(base.clone(), [&drop]);
    assert_eq!(c.headers.len(), base.headers.len() - 1);
    assert_ne!(c.headers[0].0, b"Content-Type");
}
