//! Eight bytes at a time ("SIMD within a register"): finding the bytes that end a plain run
//! of JSON string text, and the bytes an HTTP parser refuses in a header value, without a
//! branch per byte. Split out of `scan` so both readers share it.

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

/// Whether some byte of `w` is zero.
pub(crate) fn has_zero_byte(w: u64) -> bool {
    zero_bytes(w) != 0
}

/// Whether some byte of `w` is below `n` (`n <= 128`).
pub(crate) fn has_byte_below(w: u64, n: u8) -> bool {
    bytes_below(w, n) != 0
}

/// Whether every byte of `v` is visible ASCII or a space (0x20-0x7E): eight bytes at a
/// time, the common case of a header value settled without a branch per byte.
pub(crate) fn all_visible(v: &[u8]) -> bool {
    let mut chunks = v.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        if w & HIGHS != 0 || has_byte_below(w, 0x20) || has_zero_byte(w ^ (ONES * 0x7f)) {
            return false;
        }
    }
    chunks.remainder().iter().all(|b| (0x20..=0x7e).contains(b))
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

#[cfg(test)]
mod tests {
    use crate::encoding::{field_value_class, FieldValueClass};

    #[test]
    fn all_visible_is_the_valid_class() {
        // every byte at every place of a chunk and of the remainder
        for b in 0..=255u8 {
            for at in 0..11 {
                let mut v = *b"abcdefghijk";
                v[at] = b;
                assert_eq!(
                    super::all_visible(&v),
                    field_value_class(&v) == FieldValueClass::Valid,
                    "{b:#x} at {at}"
                );
            }
        }
        assert!(super::all_visible(b""));
    }
}
