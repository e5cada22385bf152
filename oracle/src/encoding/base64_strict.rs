//! Strict Base64 decoding (RFC 4648 §4, the standard alphabet, canonical padding, zero
//! trailing bits) into a caller's buffer, by table: what `base64`'s `STANDARD` engine
//! decodes, without its generic machinery, for the short sentinel payloads the judge reads
//! on nearly every case. The test below holds it equal to the crate on generated inputs.

/// The value of each standard-alphabet symbol; `INVALID` for every other byte (`=` too).
static SYMBOL: [u8; 256] = {
    let mut t = [INVALID; 256];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut i = 0;
    while i < 64 {
        t[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Not a symbol: the only table value with bit 6 set.
const INVALID: u8 = 0x40;

/// The number of bytes `payload` decodes to under strict decoding, written to the start of
/// `out`; `None` when it does not decode strictly or the bytes do not fit in `out`.
pub fn decode_into(payload: &[u8], out: &mut [u8]) -> Option<usize> {
    let (quanta, rest) = payload.as_chunks::<4>();
    let Some((last, whole)) = quanta.split_last() else {
        // (canonical padding makes every payload whole quanta; none is the empty value)
        return rest.is_empty().then_some(0);
    };
    if !rest.is_empty() {
        return None;
    }
    let padding = match last {
        [_, _, b'=', b'='] => 2,
        [_, _, _, b'='] => 1,
        _ => 0,
    };
    let len = 3 * quanta.len() - padding;
    let out = out.get_mut(..len)?;
    let (triples, tail) = out.as_chunks_mut::<3>();
    // every whole quantum but the last: any `INVALID` symbol shows in the or of them all
    let mut seen = 0;
    for (q, o) in whole.iter().zip(triples.iter_mut()) {
        let [a, b, c, d] = q.map(|s| SYMBOL[usize::from(s)]);
        seen |= a | b | c | d;
        let v = u32::from(a) << 18 | u32::from(b) << 12 | u32::from(c) << 6 | u32::from(d);
        *o = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
    }
    // the last quantum: padding stands for symbols of value zero, and the symbols before it
    // must leave zero bits beyond the last byte (no trailing bits)
    let [a, b, c, d] = last.map(|s| SYMBOL[usize::from(s)]);
    let (c, d) = match padding {
        2 => (0, 0),
        1 => (c, 0),
        _ => (c, d),
    };
    seen |= a | b | c | d;
    let v = u32::from(a) << 18 | u32::from(b) << 12 | u32::from(c) << 6 | u32::from(d);
    let trailing = match padding {
        2 => v & 0xffff,
        1 => v & 0xff,
        _ => 0,
    };
    if seen & INVALID != 0 || trailing != 0 {
        return None;
    }
    let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
    match padding {
        // (unpadded, the last quantum fills the last triple; padded, the short tail)
        0 => *triples.last_mut()? = bytes,
        n => tail.copy_from_slice(&bytes[..3 - n]),
    }
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine;

    fn same_as_the_crate(payload: &[u8]) {
        let mut out = [0u8; 64];
        let ours = decode_into(payload, &mut out).map(|n| out[..n].to_vec());
        let theirs = STANDARD
            .decode(payload)
            .ok()
            .filter(|d| d.len() <= out.len());
        assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(payload));
    }

    /// A small deterministic generator (xorshift), so the test needs no extra crate.
    struct Bytes(u64);

    impl Bytes {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn every_short_payload_over_the_edge_symbols() {
        // every payload of up to four symbols over the symbols whose handling differs: both
        // ends of the alphabet, symbols with and without low bits, padding, the URL-safe
        // ones, a space and a non-ASCII byte
        let symbols = b"AQgBwf/+9=-_ \xc3";
        let mut payload = Vec::new();
        for len in 0..=4u32 {
            for mut code in 0..symbols.len().pow(len) {
                payload.clear();
                for _ in 0..len {
                    payload.push(symbols[code % symbols.len()]);
                    code /= symbols.len();
                }
                same_as_the_crate(&payload);
            }
        }
    }

    #[test]
    fn generated_payloads_valid_and_broken() {
        let mut rng = Bytes(0x9e37_79b9_7f4a_7c15);
        let mut payload = Vec::new();
        for _ in 0..200_000 {
            // mostly well-formed encodings of random bytes, then broken a little
            let len = (rng.next() % 60) as usize;
            let data: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            payload.clear();
            payload.extend_from_slice(STANDARD.encode(&data).as_bytes());
            match rng.next() % 8 {
                0..=2 => {}
                3 if !payload.is_empty() => {
                    let at = (rng.next() as usize) % payload.len();
                    payload[at] = b"=-_ A/+\x00\xff"[(rng.next() % 9) as usize];
                }
                4 => {
                    payload.pop();
                }
                5 => payload.push(b'='),
                6 if !payload.is_empty() => {
                    // flip a low bit of the symbol before the padding (trailing bits)
                    let at = payload.iter().rposition(|b| *b != b'=').unwrap_or(0);
                    payload[at] = b"BCDEFGHIJKLMNOPQ"[(rng.next() % 16) as usize];
                }
                _ => payload = (0..len).map(|_| rng.next() as u8).collect(),
            }
            same_as_the_crate(&payload);
        }
    }

    #[test]
    fn output_that_does_not_fit_is_none() {
        let mut out = [0u8; 3];
        assert_eq!(decode_into(b"YWJj", &mut out), Some(3));
        assert_eq!(&out, b"abc");
        assert_eq!(decode_into(b"YWJjZA==", &mut out), None);
        assert_eq!(decode_into(b"", &mut out), Some(0));
    }
}
