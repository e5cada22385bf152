//! `reference`: a shim over `mcpdiff_props::fuzz_props::reference_inside_verdict` (the property is documented there and
//! replayed on stable by `props/tests/fuzz_regressions.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(why) = mcpdiff_props::fuzz_props::reference_inside_verdict(data) {
        panic!("reference property broken: {why}");
    }
});
