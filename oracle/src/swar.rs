//! Eight bytes at a time ("SIMD within a register"): finding the bytes that end a plain run
//! of JSON string text without a branch per byte. Shared by the judge's readers and
//! `case::nesting_depth`, so it sits beside both rather than inside the judge (the case model
//! does not depend on the judge). (The header fields' byte classes are `encoding::field_words`.)

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of every byte of `w` that is zero, plus possibly false ones above the first
/// (a borrow only runs upward, so the lowest flagged byte is always a true zero).
fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(ONES) & !w & HIGHS
}

/// The high bit of every byte of `w` below `n` (`n <= 128`); as with `zero_bytes`, the
/// lowest flagged byte is always a true one.
fn bytes_below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(ONES * u64::from(n)) & !w & HIGHS
}

/// Bytes that end the fast run through a string: `"`, `\\` and control bytes.
static STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// The high bit of every byte of `w` that ends a plain run of string text (a control byte,
/// `"` or `\\`), plus possibly false ones above the first, as with `zero_bytes`.
#[inline(always)]
fn string_stops(w: u64) -> u64 {
    // `"` (0x22) xor 2 is 0x20, and xor 2 keeps every control byte below 0x20: one test for
    // both (xor 2 leaves the high bit alone, so non-ASCII bytes are never flagged)
    bytes_below(w ^ (ONES * 2), 0x21) | zero_bytes(w ^ (ONES * u64::from(b'\\')))
}

/// The first index from `j` holding a `STRING_STOP` byte (or the end): eight bytes at a
/// time, the stop's place within a word read off its lowest flagged byte (exact, see
/// `zero_bytes`), then byte by byte for the last few bytes of the text.
#[inline(always)]
pub(crate) fn skip_plain(b: &[u8], mut j: usize) -> usize {
    // (one bounds check per word: the range's; its length is then known to be 8)
    while let Some(word) = b.get(j..j + 8).and_then(|w| <&[u8; 8]>::try_from(w).ok()) {
        let stops = string_stops(u64::from_le_bytes(*word));
        if stops != 0 {
            // little-endian: the lowest bit belongs to the first byte
            return j + (stops.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while let Some(&c) = b.get(j) {
        if STRING_STOP[usize::from(c)] {
            break;
        }
        j += 1;
    }
    j
}
