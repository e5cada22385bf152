//! Validating a value whose members the judge does not read (anything below the objects
//! `keys::Role` names): one loop over its tokens with the open arrays and objects kept as
//! bits of a word, no call per nested value.

use super::lex::{number, skip_ws, string, word_literal};

/// Nesting beyond this falls back to the full parse: `serde_json` refuses a value nested
/// `simple::PARSE_DEPTH` deep, and the scanner's readings agree with it only below that.
pub(super) const MAX_DEPTH: usize = super::simple::PARSE_DEPTH - 1;

/// How deep the values read so far nest.
#[derive(Default)]
pub(super) struct Nesting {
    /// The deepest nesting of arrays and objects (the top-level value's own counts 1).
    pub deepest: usize,
    /// The scan stopped at a value nested deeper than `MAX_DEPTH`.
    pub too_deep: bool,
}

impl Nesting {
    /// Enter an array or object at `depth`: `None` (and `too_deep` set) beyond `MAX_DEPTH`.
    #[inline(always)]
    pub fn enter(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return self.refuse();
        }
        self.deepest = self.deepest.max(depth);
        Some(())
    }

    #[cold]
    #[inline(never)]
    fn refuse(&mut self) -> Option<()> {
        self.too_deep = true;
        None
    }
}

/// Validate the value at `i`, inside `depth` arrays and objects; the index after it.
pub(super) fn value(b: &[u8], mut i: usize, depth: usize, nesting: &mut Nesting) -> Option<usize> {
    // bit n (from the lowest): whether the container n levels out from the innermost open
    // one is an object (at most `MAX_DEPTH` levels: they fit)
    let mut objects: u128 = 0;
    let mut level = depth;
    loop {
        // a value starts at `i`
        let c = *b.get(i)?;
        if c == b'"' {
            i = string(b, i)?.0;
        } else if c == b'{' || c == b'[' {
            level += 1;
            nesting.enter(level)?;
            let object = c == b'{';
            objects = objects << 1 | u128::from(object);
            i = skip_ws(b, i + 1);
            // `}` and `]` are two past their openers
            if *b.get(i)? != c + 2 {
                if object {
                    i = member_key(b, i)?;
                }
                continue;
            }
            i += 1;
            level -= 1;
            objects >>= 1;
        } else if c == b'-' || c.is_ascii_digit() {
            i = number(b, i)?;
        } else {
            i = word_literal(b, i)?;
        }
        // after a value: close what ends here, up to the next value
        loop {
            if level == depth {
                return Some(i);
            }
            i = skip_ws(b, i);
            let c = *b.get(i)?;
            let object = objects & 1 == 1;
            if c == b',' {
                i = skip_ws(b, i + 1);
                if object {
                    i = member_key(b, i)?;
                }
                break;
            }
            if c != if object { b'}' } else { b']' } {
                return None;
            }
            i += 1;
            level -= 1;
            objects >>= 1;
        }
    }
}

/// The key at `i`, its colon and the whitespace after it: the index of the member's value.
#[inline(always)]
fn member_key(b: &[u8], i: usize) -> Option<usize> {
    let j = skip_ws(b, plain_key(b, i)?);
    if *b.get(j)? != b':' {
        return None;
    }
    Some(skip_ws(b, j + 1))
}

/// The key at `i` (it must start there): the index after it. A key spelled with escapes is
/// refused: only the full parse compares it decoded.
#[inline(always)]
pub(super) fn plain_key(b: &[u8], i: usize) -> Option<usize> {
    if *b.get(i)? != b'"' {
        return None;
    }
    match string(b, i)? {
        (end, false) => Some(end),
        (_, true) => None,
    }
}
