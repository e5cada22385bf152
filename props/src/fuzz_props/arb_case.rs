//! A `Case` from fuzz bytes: the bridge between libFuzzer's byte strings and the oracle.
//!
//! Pure byte-level fuzzing of HTTP requests mostly produces garbage the judge rejects on the
//! first byte, so the bytes first *choose* a conformant probe of the fixture surface (the
//! same set `mcpdiff run` sends), then up to eight edits drawn from the bytes
//! (`CaseEdit: Arbitrary`, the edit algebra with `Mix::WIDE`). One case in sixteen is built
//! from scratch instead. No edit changes the path: the oracle judges every case as a
//! request to the MCP endpoint (it does not read `path`), while a real server answers other
//! paths with 404, so a varied path would be a false finding under `live`.
//!
//! The mapping is a pure function of the bytes, so a saved crash input always rebuilds the
//! same case (`mcpdiff corpus import` relies on this).

use crate::edit::{apply_all, wide, CaseEdit};
use arbitrary::{Arbitrary, Result, Unstructured};
use mcpdiff_oracle::reference::probes::probes;
use mcpdiff_oracle::{fixture, Case};
use std::sync::OnceLock;

/// Most edits applied to one case.
const MAX_EDITS: usize = 8;

fn probe_cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        probes(&fixture::surface())
            .into_iter()
            .map(|p| p.case)
            .collect()
    })
}

/// The case the fuzz bytes `data` stand for (total: every byte string gives a case).
pub fn case_from_bytes(data: &[u8]) -> Case {
    let mut u = Unstructured::new(data);
    // `case_from_unstructured` only fails on an empty choice, which the constant tables rule
    // out; fall back to a bare POST rather than panic inside a fuzz target
    case_from_unstructured(&mut u).unwrap_or_else(|_| Case::post("/mcp", &[], Vec::new()))
}

/// The case the rest of `u` stands for: a probe (or a scratch case), then its edits.
pub fn case_from_unstructured(u: &mut Unstructured) -> Result<Case> {
    let case = if u.ratio(1, 16)? {
        scratch(u)?
    } else {
        u.choose(probe_cases())?.clone()
    };
    let n = u.int_in_range(0..=MAX_EDITS)?;
    let mut edits = Vec::with_capacity(n);
    for _ in 0..n {
        if u.is_empty() {
            break;
        }
        edits.push(CaseEdit::arbitrary(u)?);
    }
    Ok(apply_all(case, &edits))
}

/// A case with arbitrary method, headers and body (the path is always the endpoint).
fn scratch(u: &mut Unstructured) -> Result<Case> {
    let method = (*u.choose(&["POST", "GET", "DELETE", "PUT", "OPTIONS", "HEAD"])?).to_string();
    let n = u.int_in_range(0..=6)?;
    let mut headers = Vec::with_capacity(n);
    for _ in 0..n {
        headers.push((wide::header_name(u), wide::header_value(u)));
    }
    Ok(Case {
        method,
        path: "/mcp".to_string(),
        headers,
        body: wide::raw_bytes(u),
        labels: Vec::new(),
    })
}
