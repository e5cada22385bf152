//! The seeded generator's output, pinned: hashes of the cases `mcpdiff run` draws, recorded
//! from the generator as it stood before the edit algebra (`mcpdiff_props::edit`) took over
//! its mutations. A change to the order or number of random draws, a weight, a value table
//! or an edit's effect changes a hash; a seeded run must keep producing the same cases
//! (the run JSON of a seed is compared across versions). Re-recorded once when the stream
//! probes and the stream `_meta` members (`gen/stream_meta.rs`, a draw stream of its own, so
//! a case without them is unchanged) were added.
//!
//! Hashes are FNV-1a over each case's method, path, header names and values, body and
//! labels (a fixed function, unlike `DefaultHasher`, so the golden values stay valid).

use mcpdiff_oracle::reference::probes::probes;
use mcpdiff_oracle::{fixture, Case, Surface, ToolDecl};
use mcpdiff_props::gen::{case_for, case_strategy, CaseGen};
use serde_json::json;

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        // a separator, so ("ab", "c") and ("a", "bc") differ
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }

    fn case(&mut self, c: &Case) {
        self.bytes(c.method.as_bytes());
        self.bytes(c.path.as_bytes());
        for (n, v) in &c.headers {
            self.bytes(n);
            self.bytes(v);
        }
        self.bytes(&c.body);
        for l in &c.labels {
            self.bytes(l.as_bytes());
        }
    }
}

/// The fixture plus 40 annotated tools, so the draws cover the shared choice of a large
/// surface (`run --tools FILE`) as well as per-tool choices.
fn large_surface() -> Surface {
    let mut s = fixture::surface();
    for i in 0..40 {
        s.tools.push(ToolDecl::new(
            format!("tool_{i}"),
            json!({"type": "object", "properties": {
                "a": {"type": "string", "x-mcp-header": "A"},
                "n": {"type": "integer", "x-mcp-header": "N"},
                "b": {"type": "boolean"}
            }, "required": ["a"]}),
            true,
        ));
    }
    s
}

/// Seeds 1..=20, 500 cases each, straight from `CaseGen` (the runner's source).
fn seeded_hash(s: &Surface) -> u64 {
    let g = CaseGen::new(s);
    let mut h = Fnv::new();
    for seed in 1..=20 {
        for i in 0..500 {
            h.case(&g.case(seed, i));
        }
    }
    h.0
}

#[test]
fn seeded_cases_match_the_recorded_hashes() {
    assert_eq!(
        seeded_hash(&fixture::surface()),
        0x8f2b_c8e8_d2fc_d62c,
        "fixture surface"
    );
    assert_eq!(
        seeded_hash(&large_surface()),
        0x57b9_2d77_3b6c_a9cc,
        "large surface"
    );
}

/// The stream of a one-group `mcpdiff run --seed 7`: the oracle's probes first, then
/// generated case `index - probes` (as `runner::window` asks for it).
#[test]
fn the_run_stream_matches_the_recorded_hash() {
    let s = fixture::surface();
    let g = CaseGen::new(&s);
    let seeded: Vec<Case> = probes(&s).into_iter().map(|p| p.case).collect();
    let mut h = Fnv::new();
    for c in &seeded {
        h.case(c);
    }
    for index in seeded.len() as u64..seeded.len() as u64 + 2000 {
        h.case(&g.case(7, index - seeded.len() as u64));
    }
    assert_eq!(h.0, 0x6f02_77e0_1179_58be);
}

/// `case_for(case_strategy)`: what the benches and the differential test draw.
#[test]
fn the_strategy_stream_matches_the_recorded_hash() {
    let strategy = case_strategy(&fixture::surface());
    let mut h = Fnv::new();
    for seed in 1..=3 {
        for i in 0..300 {
            h.case(&case_for(&strategy, seed, i));
        }
    }
    assert_eq!(h.0, 0x9a06_bf52_ec44_df22);
}
