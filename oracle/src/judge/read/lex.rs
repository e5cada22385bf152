//! The scanner's tokens: JSON whitespace, strings, numbers and literals of the subset
//! `scan` accepts, each read from an index of the body to the index after it.

use crate::swar::skip_plain;

/// Longer mantissas fall back to the full parse (they may overflow `f64`).
const MAX_NUMBER_LEN: usize = 20;
/// Larger exponents fall back to the full parse (with a 20-digit mantissa, `1e280` times
/// `1e20` stays below `f64::MAX`; tiny values round to zero without error).
const MAX_EXPONENT: u32 = 280;
/// A positive exponent may reach this minus the mantissa's length: the value stays below
/// `10^305`, under `f64::MAX` (`1e+300` is a common spelling of a huge id).
const MAX_MAGNITUDE: u32 = 305;

pub(crate) fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first index from `i` that is not JSON whitespace.
#[inline(always)]
pub(crate) fn skip_ws(b: &[u8], i: usize) -> usize {
    // (every JSON whitespace byte is at most a space: one comparison settles the usual,
    // compact case without entering the loop)
    match b.get(i) {
        Some(&c) if c <= b' ' => skip_ws_run(b, i),
        _ => i,
    }
}

/// The first byte from `i` that is not JSON whitespace, and its index; `None` at the end.
/// (One comparison settles the usual, compact case, as in `skip_ws`, and the byte read
/// there is the token's.)
#[inline(always)]
pub(crate) fn token(b: &[u8], i: usize) -> Option<(usize, u8)> {
    match b.get(i) {
        Some(&c) if c > b' ' => Some((i, c)),
        _ => {
            let j = skip_ws_run(b, i);
            Some((j, *b.get(j)?))
        }
    }
}

fn skip_ws_run(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        if !is_ws(c) {
            break;
        }
        i += 1;
    }
    i
}

/// `"..."` at `i` (`b[i]` is the opening quote): its end and whether it holds escapes. No
/// control byte; escapes are the JSON ones, `\u` outside the surrogate range only (UTF-8
/// is the caller's to check).
#[inline(always)]
pub(crate) fn string(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let j = skip_plain(b, i + 1);
    match *b.get(j)? {
        b'"' => Some((j + 1, false)),
        b'\\' => escaped_string(b, j).map(|end| (end, true)),
        _ => None,
    }
}

/// The rest of a string from its first backslash at `j`: its end.
fn escaped_string(b: &[u8], mut j: usize) -> Option<usize> {
    loop {
        // at a backslash
        match *b.get(j + 1)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
            b'u' => {
                let hex = b.get(j + 2..j + 6)?;
                let mut code = 0u32;
                for h in hex {
                    code = code * 16 + (*h as char).to_digit(16)?;
                }
                if (0xD800..=0xDFFF).contains(&code) {
                    return None;
                }
                j += 6;
            }
            _ => return None,
        }
        j = skip_plain(b, j);
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => {}
            _ => return None,
        }
    }
}

/// The index after the digits from `j`.
fn digits(b: &[u8], mut j: usize) -> usize {
    while b.get(j).is_some_and(u8::is_ascii_digit) {
        j += 1;
    }
    j
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]{1,3})?` with a mantissa of at most
/// `MAX_NUMBER_LEN` bytes and an exponent of at most `MAX_EXPONENT`, or `MAX_MAGNITUDE` minus
/// the mantissa's length when positive (never out of range).
pub(crate) fn number(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + usize::from(b.get(i) == Some(&b'-'));
    match *b.get(j)? {
        b'0' => j += 1,
        b'1'..=b'9' => j = digits(b, j + 1),
        _ => return None,
    }
    if b.get(j) == Some(&b'.') {
        let start = j + 1;
        j = digits(b, start);
        if j == start {
            return None;
        }
    }
    let mantissa = j - i;
    if mantissa > MAX_NUMBER_LEN {
        return None;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        return exponent(b, j + 1, mantissa);
    }
    Some(j)
}

/// The exponent's digits from `j` (after the `e`), for a mantissa `mantissa` bytes long.
fn exponent(b: &[u8], mut j: usize, mantissa: usize) -> Option<usize> {
    let negative = b.get(j) == Some(&b'-');
    if matches!(b.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    let start = j;
    let mut exponent = 0u32;
    while let Some(d) = b.get(j).filter(|d| d.is_ascii_digit()) {
        exponent = exponent * 10 + u32::from(d - b'0');
        j += 1;
        if j - start > 3 {
            return None;
        }
    }
    // below 10^(mantissa + exponent): short mantissas may take larger exponents
    let limit = if negative {
        MAX_EXPONENT
    } else {
        MAX_EXPONENT.max(MAX_MAGNITUDE - mantissa as u32)
    };
    if j == start || exponent > limit {
        return None;
    }
    Some(j)
}

/// `true`, `false` or `null` at `i`: the index after it.
#[inline(always)]
pub(crate) fn word_literal(b: &[u8], i: usize) -> Option<usize> {
    let four = u32::from_le_bytes(*b.get(i..)?.first_chunk::<4>()?);
    if four == u32::from_le_bytes(*b"true") || four == u32::from_le_bytes(*b"null") {
        Some(i + 4)
    } else if four == u32::from_le_bytes(*b"fals") && b.get(i + 4) == Some(&b'e') {
        Some(i + 5)
    } else {
        None
    }
}
