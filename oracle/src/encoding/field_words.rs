//! The byte classes of a header field read eight bytes at a time: whether a value is all
//! visible ASCII, whether it holds a byte an HTTP parser refuses, and the ASCII lowercase of
//! a name's words, with no branch per byte.
//!
//! A field of up to 24 bytes is read as three (overlapping) words, so the common field costs
//! a fixed handful of instructions and no loop; longer ones are read in a loop. Every lane
//! test here is exact for its lane (no borrow or carry crosses lanes), so the flags of
//! several words can be combined freely.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const LOWS7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The byte lanes past the end of a short value are filled with: SP, which is visible.
const PAD: u64 = ONES * b' ' as u64;

/// Bit 7 of every lane of `w` whose byte is below `n` (`1 <= n <= 0x80`), exactly.
const fn lanes_below(w: u64, n: u8) -> u64 {
    // (a lane's low seven bits plus 0x80 - n reach bit 7 iff they are >= n; at most
    // 0x7f + 0x7f, so nothing carries into the next lane)
    !(((w & LOWS7) + ONES * (0x80 - n as u64)) | w) & HIGHS
}

/// Bit 7 of every lane of `w` whose byte is outside visible ASCII and SP (0x20..=0x7E).
fn invisible_lanes(w: u64) -> u64 {
    let low = w & LOWS7;
    // bit 7 set, or below 0x20 (adding 0x60 does not reach bit 7), or 0x7f (adding one does)
    (w | !(low + ONES * 0x60) | (low + ONES)) & HIGHS
}

/// Bytes `i` to `i + 8` of `v` as a word, or `PAD` where `v` has no such bytes.
fn word_at(v: &[u8], at: usize) -> u64 {
    v.get(at..)
        .and_then(<[u8]>::first_chunk::<8>)
        .map_or(PAD, |w| u64::from_le_bytes(*w))
}

fn half_at(v: &[u8], at: usize) -> u64 {
    v.get(at..)
        .and_then(<[u8]>::first_chunk::<4>)
        .map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
}

/// `v` (8 to 24 bytes) as the words at [0, 8), [m, m + 8) and [len - 8, len) with
/// m = min(8, len - 8): together they hold every byte, with no gap.
#[inline(always)]
fn three_words(v: &[u8]) -> [u64; 3] {
    let len = v.len();
    [
        word_at(v, 0),
        word_at(v, (len - 8).min(8)),
        word_at(v, len - 8),
    ]
}

/// `v` (at most 24 bytes) as three words that together hold every byte of it, the lanes
/// beyond a short value filled with `PAD`; the first word starts with `v`'s first byte and
/// the last word ends with its last byte.
fn cover(v: &[u8]) -> [u64; 3] {
    let len = v.len();
    if len >= 8 {
        three_words(v)
    } else if len >= 4 {
        let w = half_at(v, 0) | (half_at(v, len - 4) << 32);
        [w, PAD, w]
    } else if let (Some(&first), Some(&last)) = (v.first(), v.last()) {
        // one to three bytes: the first, the middle and the last are all of them
        let w = u64::from_le_bytes([first, v[len / 2], b' ', b' ', b' ', b' ', b' ', last]);
        [w, PAD, w]
    } else {
        [PAD; 3]
    }
}

/// What the judge reads of a header value's bytes, in one pass over them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueShape {
    /// Every byte is visible ASCII or SP (0x20-0x7E).
    pub all_visible: bool,
    /// SP or HTAB at either end.
    pub padded: bool,
}

fn ows(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The `ValueShape` of `v`.
#[inline(always)]
pub fn value_shape(v: &[u8]) -> ValueShape {
    let len = v.len();
    if len > 24 {
        return long_value_shape(v);
    }
    let [a, b, c] = cover(v);
    let all_visible = (invisible_lanes(a) | invisible_lanes(b) | invisible_lanes(c)) == 0;
    let (first, last) = (a as u8, (c >> 56) as u8);
    // (of the visible bytes and SP, only SP is OWS: HTAB is looked for only in the rare value
    // with other bytes)
    let padded = len != 0
        && if all_visible {
            (first == b' ') | (last == b' ')
        } else {
            ows(first) | ows(last)
        };
    ValueShape {
        all_visible,
        padded,
    }
}

/// `value_shape` for a value longer than three words.
#[inline(never)]
fn long_value_shape(v: &[u8]) -> ValueShape {
    ValueShape {
        all_visible: long_all_visible(v),
        padded: v.first().is_some_and(|b| ows(*b)) || v.last().is_some_and(|b| ows(*b)),
    }
}

/// Whether every byte of `v` is visible ASCII or SP (0x20-0x7E).
pub fn all_visible(v: &[u8]) -> bool {
    value_shape(v).all_visible
}

/// `all_visible` for a value longer than three words.
fn long_all_visible(v: &[u8]) -> bool {
    let word = |w: &[u8; 8]| invisible_lanes(u64::from_le_bytes(*w));
    if let (true, Some((head, _)), Some(tail)) = (
        v.len() <= 40,
        v.split_first_chunk::<24>(),
        v.last_chunk::<16>(),
    ) {
        // five words: [0, 24) and [len - 16, len) leave no gap up to 40 bytes
        let (head, _) = head.as_chunks::<8>();
        let (tail, _) = tail.as_chunks::<8>();
        return head.iter().chain(tail).fold(0, |acc, w| acc | word(w)) == 0;
    }
    let (words, _) = v.as_chunks::<8>();
    let last = v.last_chunk::<8>().map_or(0, word);
    words.iter().fold(last, |acc, w| acc | word(w)) == 0
}

/// Whether `v` holds a control byte other than HTAB, or DEL: the bytes RFC 9110 §5.5 lets a
/// recipient refuse in a field value. Nearly every value is all visible (`value_shape`) and
/// so holds none; this looks at the others byte by byte.
#[cold]
#[inline(never)]
pub fn any_refused_byte(v: &[u8]) -> bool {
    v.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f)
}

/// Whether `v` is exactly `text` (at least eight bytes), compared a word at a time (the last
/// word overlapping the one before) with no branch per word.
#[inline(always)]
pub fn equals<const N: usize>(v: &[u8], text: &[u8; N]) -> bool {
    let Ok(v) = <&[u8; N]>::try_from(v) else {
        return false;
    };
    let mut differ = 0;
    let mut at = 0;
    while at < N {
        let from = at.min(N.saturating_sub(8));
        differ |= word_at(v, from) ^ word_at(text, from);
        at += 8;
    }
    differ == 0
}

/// Whether `a` and `b` are the same bytes. Up to 32 bytes (a version, a method, a rule id,
/// a key, most names the judge compares) as overlapping words, no `memcmp` call: its length
/// dispatch costs more than the comparison on texts this short, and the judge makes about a
/// dozen such comparisons a Verdict.
#[inline]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    match len {
        0 => true,
        1..=3 => a.first() == b.first() && a.last() == b.last() && a.get(1) == b.get(1),
        4..=7 => (half_at(a, 0) ^ half_at(b, 0)) | (half_at(a, len - 4) ^ half_at(b, len - 4)) == 0,
        8..=16 => {
            (word_at(a, 0) ^ word_at(b, 0)) | (word_at(a, len - 8) ^ word_at(b, len - 8)) == 0
        }
        17..=32 => {
            let head = (word_at(a, 0) ^ word_at(b, 0)) | (word_at(a, 8) ^ word_at(b, 8));
            let tail = (word_at(a, len - 16) ^ word_at(b, len - 16))
                | (word_at(a, len - 8) ^ word_at(b, len - 8));
            head | tail == 0
        }
        _ => a == b,
    }
}

/// `w` with every ASCII capital letter made small, exactly as `u8::to_ascii_lowercase` on
/// each lane.
pub const fn ascii_lower(w: u64) -> u64 {
    // a lane is a capital iff it is below 'Z' + 1 and not below 'A' (and below 0x80)
    let capitals = lanes_below(w, b'Z' + 1) & !lanes_below(w, b'A');
    w | (capitals >> 2)
}

/// A name of 4 to 24 bytes as three words that hold every byte of it: equal words and equal
/// lengths mean equal names (longer names give words that hold only some bytes, shorter
/// ones zero words).
pub const fn name_words(n: &[u8]) -> [u64; 3] {
    const fn word(n: &[u8], at: usize, width: usize) -> u64 {
        let mut w = 0u64;
        let mut i = 0;
        while i < width {
            w |= (n[at + i] as u64) << (8 * i);
            i += 1;
        }
        w
    }
    let len = n.len();
    if len >= 8 {
        let m = if len - 8 < 8 { len - 8 } else { 8 };
        [word(n, 0, 8), word(n, m, 8), word(n, len - 8, 8)]
    } else if len >= 4 {
        [word(n, 0, 4) | (word(n, len - 4, 4) << 32), 0, 0]
    } else {
        [0; 3]
    }
}

/// `name_words` for a name read at run time (loads rather than a byte loop).
pub fn name_words_of(n: &[u8]) -> [u64; 3] {
    let len = n.len();
    if len >= 8 {
        three_words(n)
    } else if len >= 4 {
        [half_at(n, 0) | (half_at(n, len - 4) << 32), 0, 0]
    } else {
        [0; 3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(b: u8) -> bool {
        (b < 0x20 && b != b'\t') || b == 0x7f
    }

    /// Every byte at every place of every length around the word size and the three-word
    /// limit, and beyond it (the loop).
    #[test]
    fn byte_classes_at_every_place_and_length() {
        for len in (1..=50).chain([63, 64, 65]) {
            for at in 0..len {
                for b in 0..=255u8 {
                    for fill in [b'a', b' ', b'~'] {
                        let mut v = vec![fill; len];
                        v[at] = b;
                        let (refuse, visible) = (refused(b), (0x20..=0x7e).contains(&b));
                        assert_eq!(
                            !all_visible(&v) && any_refused_byte(&v),
                            refuse,
                            "{b:#x} at {at} of {len}"
                        );
                        assert_eq!(all_visible(&v), visible, "{b:#x} at {at} of {len}");
                        let padded = [v[0], v[len - 1]].iter().any(|b| *b == b' ' || *b == b'\t');
                        assert_eq!(value_shape(&v).padded, padded, "{b:#x} at {at} of {len}");
                    }
                }
            }
        }
        assert!(all_visible(b"") && !any_refused_byte(b""));
        assert!(!value_shape(b"").padded);
    }

    #[test]
    fn lane_tests_are_exact_beside_any_neighbour() {
        // the lane tests must not borrow or carry between lanes: every pair of bytes
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let w = u64::from_le_bytes([a, b, a, b, b, a, 0, 0xff]);
                for (lane, byte) in w.to_le_bytes().into_iter().enumerate() {
                    let bit = |m: u64| m >> (8 * lane + 7) & 1 == 1;
                    assert_eq!(bit(lanes_below(w, 0x20)), byte < 0x20);
                    assert_eq!(bit(lanes_below(w, b'A')), byte < b'A');
                    let visible = (0x20..=0x7e).contains(&byte);
                    assert_eq!(bit(invisible_lanes(w)), !visible);
                    let lower = (ascii_lower(w) >> (8 * lane)) as u8;
                    assert_eq!(lower, byte.to_ascii_lowercase());
                }
            }
        }
    }

    #[test]
    fn all_visible_is_the_valid_class() {
        use crate::encoding::{field_value_class, FieldValueClass};
        for b in 0..=255u8 {
            for at in 0..11 {
                let mut v = *b"abcdefghijk";
                v[at] = b;
                let valid = field_value_class(&v) == FieldValueClass::Valid;
                assert_eq!(all_visible(&v), valid, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn same_bytes_is_byte_equality() {
        let text = b"application/json, text/event-stream; charset=utf-8";
        for len in 0..text.len() {
            let v = &text[..len];
            assert!(same_bytes(v, v));
            assert!(!same_bytes(v, &text[..len + 1]));
            for at in 0..len {
                let mut w = v.to_vec();
                w[at] ^= 0x01;
                assert!(!same_bytes(v, &w), "{at} of {len}");
            }
        }
    }

    #[test]
    fn equals_is_byte_equality() {
        let text = b"application/json, text/event-stream";
        assert!(equals(text, text));
        assert!(!equals(&text[1..], text));
        for at in 0..text.len() {
            let mut v = *text;
            v[at] ^= 0x20;
            assert!(!equals(&v, text), "{at}");
        }
        assert!(equals(b"application/json", b"application/json"));
        assert!(!equals(b"application/jsoN", b"application/json"));
    }

    #[test]
    fn name_words_hold_every_byte() {
        let names: [&[u8]; 6] = [
            b"Origin",
            b"Mcp-Name",
            b"Mcp-Method",
            b"MCP-Protocol-Version",
            b"Mcp-Param-TargetRegion",
            b"abcdefghijklmnopqrstuvwx",
        ];
        for n in names {
            assert_eq!(name_words(n), name_words_of(n));
            for at in 0..n.len() {
                let mut m = n.to_vec();
                m[at] ^= 0x01;
                assert_ne!(name_words_of(&m), name_words(n), "{at} of {n:?}");
            }
        }
        assert_eq!(name_words_of(b"abc"), [0; 3]);
    }
}
