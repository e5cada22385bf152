//! The judge's allocation budget: at most two heap allocations per Verdict, on average over
//! the runner's generated case mix (seed 1, the cases `judge_speed` and `mcpdiff bench
//! judge` time), counted by a global allocator that forwards to the system one. This binary
//! holds this one test so no other thread allocates while it counts.

use mcpdiff_oracle::{fixture, judge, Case};
use mcpdiff_props::gen::{case_for, case_strategy};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting allocations (and reallocations: each may copy).
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds the contract.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's obligations are passed on unchanged
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most heap allocations one Verdict may cost, on average over the mix.
const BUDGET: f64 = 2.0;

#[test]
fn a_verdict_costs_at_most_two_allocations() {
    let surface = fixture::surface();
    let strategy = case_strategy(&surface);
    let cases: Vec<Case> = (0..4096).map(|i| case_for(&strategy, 1, i)).collect();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for c in &cases {
        black_box(judge(black_box(c), &surface));
    }
    let per_verdict = (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / cases.len() as f64;
    println!("{per_verdict:.2} allocations per Verdict");
    assert!(
        per_verdict <= BUDGET,
        "{per_verdict:.2} allocations per Verdict (budget {BUDGET})"
    );
}
