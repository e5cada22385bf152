//! Where random choices come from. Every generator and every case edit draws through
//! `Source`: the runner's seeded `Rng` (SplitMix64), libFuzzer's bytes (`Unstructured`), or
//! a list of numbers proptest shrinks toward zero (`ChoiceList`). So one draw function per
//! edit serves all three, and the helpers of `Draw` (ranges, weighted choices, strings) are
//! written once over `next_u64`/`below`.
//!
//! Why SplitMix64 for the runner, not proptest's `TestRng`: a fresh ChaCha RNG and a value
//! tree per case cost more than the rest of a judged case. SplitMix64 passes BigCrush, needs
//! 8 bytes of state and a handful of instructions per draw, and a keyed start makes every
//! case a pure function of (seed, index), whatever order the runner asks in.

use arbitrary::Unstructured;

/// A stream of choices. Only `next_u64` is required; the rest are defined on it, and a
/// source whose bytes are scarce (`Unstructured`) overrides them to spend fewer.
pub trait Source {
    fn next_u64(&mut self) -> u64;

    /// Uniform in `0..n` (`n > 0`; 0 gives 0). Lemire's multiply-shift: the bias is below
    /// 2^-50 for the small `n` used here.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// `n` arbitrary bytes (fewer when the source runs dry).
    fn byte_string(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// A small, fast, deterministic PRNG (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// The stream of case `index` of a run with `seed`.
    pub fn for_case(seed: u64, index: u64) -> Rng {
        // two rounds of mixing, so neighbouring seeds and indices start far apart
        Rng {
            state: mix(mix(seed ^ 0x6d63_7064_6966_6600).wrapping_add(index.wrapping_mul(GOLDEN))),
        }
    }
}

impl Source for Rng {
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix(self.state)
    }
}

/// The helpers every source gets, defined on `Source`'s methods (so a draw spends the same
/// choices whichever source it reads).
pub trait Draw: Source {
    /// Uniform in `lo..=hi` (`lo <= hi`).
    fn range_i64(&mut self, lo: i64, hi: i64) -> i64 {
        let span = hi.wrapping_sub(lo) as u64;
        if span == u64::MAX {
            return self.next_u64() as i64;
        }
        let off = ((u128::from(self.next_u64()) * (u128::from(span) + 1)) >> 64) as u64;
        lo.wrapping_add(off as i64)
    }

    /// Uniform in `lo..=hi` for small lengths.
    fn len(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// One element of `items` (non-empty), uniformly.
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A reference to one element of `items` (non-empty), uniformly.
    fn pick_ref<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index into `weights`, with probability proportional to its weight.
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut roll = self.below(total as usize) as u32;
        for (i, w) in weights.iter().enumerate() {
            if roll < *w {
                return i;
            }
            roll -= w;
        }
        weights.len().saturating_sub(1)
    }

    /// One of `rows` (non-empty), with probability proportional to `weight(row)`: the same
    /// draw as `weighted` over the rows' weights.
    fn weighted_row<'a, T>(&mut self, rows: &'a [T], weight: impl Fn(&T) -> u32) -> &'a T {
        let total: u32 = rows.iter().map(&weight).sum();
        let mut roll = self.below(total as usize) as u32;
        for row in rows {
            let w = weight(row);
            if roll < w {
                return row;
            }
            roll -= w;
        }
        &rows[rows.len() - 1]
    }

    /// A byte uniformly from `lo..=hi`.
    fn byte_in(&mut self, lo: u8, hi: u8) -> u8 {
        lo + self.below(usize::from(hi - lo) + 1) as u8
    }

    /// `n` characters drawn uniformly from the byte range `lo..=hi`, appended to `out`.
    fn push_ascii(&mut self, out: &mut String, n: usize, lo: u8, hi: u8) {
        for _ in 0..n {
            out.push(char::from(self.byte_in(lo, hi)));
        }
    }

    /// `n` characters drawn uniformly from `alphabet`, appended to `out`.
    fn push_from(&mut self, out: &mut String, n: usize, alphabet: &[u8]) {
        for _ in 0..n {
            out.push(char::from(self.pick(alphabet)));
        }
    }
}

impl<S: Source + ?Sized> Draw for S {}

/// libFuzzer's bytes as choices: each choice spends only the bytes its range needs, and a
/// drained input answers zeros (the first option), so every byte string maps to a value.
impl Source for Unstructured<'_> {
    fn next_u64(&mut self) -> u64 {
        // reading an integer never fails (a short input is padded with zeros)
        self.arbitrary().unwrap_or(0)
    }

    fn below(&mut self, n: usize) -> usize {
        // only an empty range fails, and `n <= 1` has one answer anyway
        if n <= 1 {
            return 0;
        }
        self.choose_index(n).unwrap_or(0)
    }

    fn coin(&mut self) -> bool {
        self.arbitrary().unwrap_or(false)
    }

    fn byte_string(&mut self, n: usize) -> Vec<u8> {
        let n = n.min(Unstructured::len(self));
        self.bytes(n).map(<[u8]>::to_vec).unwrap_or_default()
    }
}

/// A list of numbers as choices, zeros once it runs out: what proptest draws and shrinks.
/// Shrinking the numbers toward zero moves every choice toward its first option (the first
/// edit of a table, the first value of a list), and dropping numbers shortens the draw.
#[derive(Clone, Debug)]
pub struct ChoiceList<'a> {
    choices: &'a [u64],
    at: usize,
}

impl<'a> ChoiceList<'a> {
    pub fn new(choices: &'a [u64]) -> ChoiceList<'a> {
        ChoiceList { choices, at: 0 }
    }
}

impl Source for ChoiceList<'_> {
    fn next_u64(&mut self) -> u64 {
        let v = self.choices.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        v
    }
}

/// A position among however many candidates a case turns out to have (a header to target,
/// an argument to change), chosen before the candidates are known: the fixed-point fraction
/// `raw / 2^64` of the count, as proptest's `sample::Index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick(pub u64);

impl Pick {
    /// The position among `size` candidates (`size > 0`).
    pub fn index(self, size: usize) -> usize {
        ((size as u128 * u128::from(self.0)) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_streams_are_repeatable_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_case(1, 2).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_case(1, 2).next_u64(),
            Rng::for_case(2, 1).next_u64()
        );
        assert_ne!(
            Rng::for_case(1, 2).next_u64(),
            Rng::for_case(1, 3).next_u64()
        );
    }

    #[test]
    fn ranges_stay_in_bounds_and_cover() {
        let mut r = Rng::for_case(9, 9);
        let mut seen = [false; 7];
        for _ in 0..2000 {
            let v = r.range_i64(-3, 3);
            assert!((-3..=3).contains(&v));
            seen[(v + 3) as usize] = true;
            assert!(r.below(5) < 5);
            assert!(Pick(r.next_u64()).index(3) < 3);
        }
        assert!(seen.iter().all(|s| *s));
        let full = r.range_i64(i64::MIN, i64::MAX);
        let _ = full;
    }

    #[test]
    fn weights_are_respected() {
        let mut r = Rng::for_case(3, 0);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[r.weighted(&[1, 0, 2])] += 1;
        }
        assert_eq!(counts[1], 0);
        let ratio = f64::from(counts[2]) / f64::from(counts[0]);
        assert!((1.8..2.2).contains(&ratio), "{counts:?}");
    }

    #[test]
    fn weighted_rows_draw_as_weighted_indices() {
        let rows = [("a", 3u32), ("b", 0), ("c", 5), ("d", 1)];
        let weights: Vec<u32> = rows.iter().map(|r| r.1).collect();
        let (mut x, mut y) = (Rng::for_case(5, 5), Rng::for_case(5, 5));
        for _ in 0..2000 {
            let i = x.weighted(&weights);
            assert_eq!(y.weighted_row(&rows, |r| r.1).0, rows[i].0);
        }
    }

    #[test]
    fn other_sources_answer_first_options_when_drained() {
        let mut u = Unstructured::new(&[]);
        let src: &mut dyn Source = &mut u;
        assert_eq!((src.below(7), src.coin(), src.next_u64()), (0, false, 0));
        assert!(src.byte_string(9).is_empty());
        let mut c = ChoiceList::new(&[u64::MAX]);
        assert_eq!((c.below(4), c.below(4)), (3, 0));
        // a choice spends one byte of a short range, as `Unstructured::choose_index` does
        let mut u = Unstructured::new(&[2, 9]);
        assert_eq!(u.below(5), 2);
        assert_eq!(u.len(), 1);
    }
}
