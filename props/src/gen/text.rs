//! Header-ish strings and integers for tool arguments, drawn straight from an `Rng`: the
//! families of `strategies::values` (plain ASCII, empty, non-ASCII, control characters,
//! padding, sentinel look-alikes, then any text) with the same weights, without a strategy
//! tree per draw.

use crate::choice::{Draw, Rng, Source};
use crate::strategies::values::{INTEGER_EDGES, MAX_SAFE};
use mcpdiff_oracle::encoding::sentinel::matches_sentinel_pattern;

/// A string for a `string` argument: half of the time one of the header families (each
/// targets a clause of the Value Encoding rules), half of the time any text.
pub fn header_string(r: &mut Rng) -> String {
    if r.coin() {
        header_text(r)
    } else {
        any_text(r)
    }
}

/// The header families, weighted 4 plain : 1 empty : 2 non-ASCII : 2 controls : 2 padded :
/// 2 sentinel-like (as `strategies::values::header_text`).
fn header_text(r: &mut Rng) -> String {
    let mut s = String::new();
    match r.weighted(&[4, 1, 2, 2, 2, 2]) {
        0 => plain_ascii(r, &mut s),
        1 => {}
        2 => {
            let n = r.len(0, 8);
            r.push_ascii(&mut s, n, b' ', b'~');
            for _ in 0..r.len(1, 3) {
                s.push(non_ascii_char(r));
            }
            let n = r.len(0, 8);
            r.push_ascii(&mut s, n, b' ', b'~');
        }
        3 => {
            let n = r.len(0, 8);
            r.push_ascii(&mut s, n, b' ', b'~');
            match r.below(6) {
                0 => s.push_str("\r\n"),
                1 => s.push('\n'),
                2 => s.push('\t'),
                3 => s.push('\0'),
                4 => s.push('\u{7f}'),
                _ => s.push(char::from(r.byte_in(0, 0x1f))),
            }
            let n = r.len(0, 8);
            r.push_ascii(&mut s, n, b' ', b'~');
        }
        4 => {
            let lead = r.len(0, 2);
            r.push_from(&mut s, lead, b" \t");
            let mid = r.len(0, 10);
            let mut m = String::new();
            r.push_ascii(&mut m, mid, b'!', b'~');
            let trail = r.len(0, 2);
            let force_lead = r.coin();
            if lead == 0 && trail == 0 && force_lead {
                s.push(' ');
            }
            s.push_str(&m);
            r.push_from(&mut s, trail, b" \t");
            if lead == 0 && trail == 0 && !force_lead {
                s.push(' ');
            }
        }
        _ => match r.below(5) {
            0 => s.push_str("=?base64?="),
            1 => s.push_str("=?base64??="),
            2 => s.push_str("=?base64?literal?="),
            k => {
                s.push_str("=?base64?");
                let n = r.len(0, 12);
                if k == 3 {
                    r.push_from(
                        &mut s,
                        n,
                        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=",
                    );
                } else {
                    r.push_ascii(&mut s, n, b' ', b'~');
                }
                s.push_str("?=");
            }
        },
    }
    s
}

/// `[!-~]([ -~]{0,24}[!-~])?` that does not have the sentinel shape.
fn plain_ascii(r: &mut Rng, s: &mut String) {
    // a sentinel shape needs `=?base64?` at the start: rare, so a few redraws always end it
    for _ in 0..8 {
        s.clear();
        r.push_ascii(s, 1, b'!', b'~');
        if r.coin() {
            let n = r.len(0, 24);
            r.push_ascii(s, n, b' ', b'~');
            r.push_ascii(s, 1, b'!', b'~');
        }
        if !matches_sentinel_pattern(s.as_bytes()) {
            return;
        }
    }
    s.clear();
    s.push('x');
}

/// A character >= U+0080: two-, three- and four-byte UTF-8 alike.
fn non_ascii_char(r: &mut Rng) -> char {
    loop {
        let c = match r.below(3) {
            0 => r.range_i64(0x80, 0x7ff),
            1 => r.range_i64(0x800, 0xffff),
            _ => r.range_i64(0x10000, 0x10_ffff),
        };
        // surrogates are not characters: draw again
        if let Some(c) = char::from_u32(c as u32) {
            return c;
        }
    }
}

/// Any text without control characters (as proptest's `any::<String>()`, `\PC*`), mostly
/// short, ASCII and non-ASCII mixed.
fn any_text(r: &mut Rng) -> String {
    let n = r.len(0, 16);
    let mut s = String::with_capacity(n * 2);
    for _ in 0..n {
        if r.below(3) == 0 {
            let c = non_ascii_char(r);
            // C1 controls (U+0080..U+009F) are control characters too
            if !c.is_control() {
                s.push(c);
            }
        } else {
            s.push(char::from(r.byte_in(b' ', b'~')));
        }
    }
    s
}

/// Integers weighted towards the JavaScript safe-range bounds and zero (as
/// `strategies::values::integer`).
pub fn integer(r: &mut Rng) -> i64 {
    match r.weighted(&[2, 1, 1]) {
        0 => r.range_i64(-1000, 999),
        1 => r.range_i64(-MAX_SAFE, MAX_SAFE),
        _ => r.pick(&INTEGER_EDGES),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_shows_up() {
        let mut r = Rng::for_case(1, 1);
        let (mut empty, mut non_ascii, mut control, mut padded, mut sentinel) = (0, 0, 0, 0, 0);
        for _ in 0..4000 {
            let s = header_string(&mut r);
            empty += usize::from(s.is_empty());
            non_ascii += usize::from(!s.is_ascii());
            control += usize::from(s.chars().any(|c| c.is_ascii_control()));
            padded += usize::from(s.starts_with([' ', '\t']) || s.ends_with([' ', '\t']));
            sentinel += usize::from(matches_sentinel_pattern(s.as_bytes()));
        }
        for (name, n) in [
            ("empty", empty),
            ("non-ascii", non_ascii),
            ("control", control),
            ("padded", padded),
            ("sentinel", sentinel),
        ] {
            assert!(n > 100, "{name}: {n}");
        }
    }

    #[test]
    fn integers_hit_the_bounds() {
        let mut r = Rng::for_case(2, 2);
        let v: Vec<i64> = (0..2000).map(|_| integer(&mut r)).collect();
        assert!(v.contains(&MAX_SAFE) && v.contains(&(MAX_SAFE + 1)) && v.contains(&i64::MIN));
        assert!(v.iter().filter(|i| (-1000..1000).contains(*i)).count() > 900);
    }
}
