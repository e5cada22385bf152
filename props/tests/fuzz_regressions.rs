//! The cargo-fuzz properties on stable: every saved input in `fuzz/regressions/<target>/`
//! (inputs that once crashed, and seeds) goes through the same function the fuzz target
//! calls, so CI guards them without nightly. A short deterministic byte sweep runs too, so
//! the properties themselves are exercised even when a folder is empty.

use mcpdiff_props::fuzz_props::TARGETS;
use std::path::PathBuf;

fn regressions_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions")
}

#[test]
fn saved_fuzz_inputs_still_hold() {
    let mut ran = 0;
    let mut failures = Vec::new();
    for (name, prop) in TARGETS {
        let dir = regressions_dir().join(name);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_file() || path.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let data = std::fs::read(&path).expect("readable regression input");
            ran += 1;
            // a panic in the oracle is a failure too; name the file either way
            match std::panic::catch_unwind(|| prop(&data)) {
                Ok(Ok(())) => {}
                Ok(Err(why)) => failures.push(format!("{}: {why}", path.display())),
                Err(_) => failures.push(format!("{}: panicked", path.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran > 0, "no inputs under {}", regressions_dir().display());
}

/// xorshift64*: a fixed, dependency-free byte source for the sweep.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

#[test]
fn properties_hold_on_a_byte_sweep() {
    for (name, prop) in TARGETS {
        for seed in 0..300u64 {
            let data = bytes(seed, (seed as usize * 7) % 257);
            if let Err(why) = prop(&data) {
                panic!("{name} on seed {seed}: {why}");
            }
        }
    }
}
