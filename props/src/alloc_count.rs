//! A global allocator that counts heap allocations, for the binaries that measure the judge's
//! allocation budget (`tests/judge_allocations.rs`, `examples/judge_speed.rs`). A binary opts
//! in with `#[global_allocator] static A: CountingAllocator = CountingAllocator;`; nothing else
//! installs it, so the mcpdiff binary pays nothing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting allocations and reallocations (each may copy).
pub struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to `System`, which upholds the contract.
unsafe impl GlobalAlloc for CountingAllocator {
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

/// Allocations per item of `f` over `items`, on average (meaningful only in a binary that
/// installed [`CountingAllocator`] and runs nothing else at the same time).
pub fn allocations_per<T>(items: &[T], mut f: impl FnMut(&T)) -> f64 {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for item in items {
        f(item);
    }
    (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / items.len().max(1) as f64
}
