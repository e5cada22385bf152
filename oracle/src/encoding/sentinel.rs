//! The base64 sentinel `=?base64?{Base64EncodedValue}?=` (streamable-http.mdx § Value
//! Encoding): when a client must encode, and how a server decodes.
//!
//! This file owns the client side (`needs_encoding`, `encode_header_value`) and the server
//! side (`looks_like_sentinel`, `decode_header_value`) of the codec. It does not classify
//! field bytes (see `field_value`) nor compare with the body (see `compare`).

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use base64::engine::DecodePaddingMode;
use base64::Engine;

/// The case-sensitive sentinel prefix.
pub const PREFIX: &str = "=?base64?";
/// The case-sensitive sentinel suffix.
pub const SUFFIX: &str = "?=";

/// The one value whose prefix and suffix overlap. It "starts with `=?base64?` and ends with
/// `?=`", so clients MUST encode it; a server may read it as plain text or refuse it as a
/// sentinel with no payload (DEVIATIONS.md D-12, D-40).
pub const OVERLAP: &str = "=?base64?=";

/// Whether a client MUST encode `value`: it contains a character outside visible ASCII and
/// space (non-ASCII, control characters including HTAB, DEL), has leading or trailing
/// whitespace, or itself matches the sentinel pattern ("starts with `=?base64?` and ends
/// with `?=`", read literally, see [`matches_sentinel_pattern`]).
pub fn needs_encoding(value: &str) -> bool {
    // AMB-03: HTAB is a valid field character but a control character; clients encode it.
    let bad_char = value.bytes().any(|b| !(0x20..=0x7E).contains(&b));
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    bad_char || padded || matches_sentinel_pattern(value.as_bytes())
}

/// The spec's collision test for clients (L506–508), read literally: starts with `=?base64?`
/// and ends with `?=`. Unlike [`looks_like_sentinel`] this includes the overlapping
/// `=?base64?=`.
// AMB-16: a client encodes the overlap form (the literal reading; the encoded form is
// unambiguous for every server), while a server may read it as plain text (D-12).
pub fn matches_sentinel_pattern(raw: &[u8]) -> bool {
    raw.starts_with(PREFIX.as_bytes()) && raw.ends_with(SUFFIX.as_bytes())
}

/// `value` as a client puts it in a header: as-is, or sentinel-encoded when it must be.
/// The Base64 alphabet is RFC 4648 §4 standard with padding (the spec's own example output
/// `PT9iYXNlNjQ/bGl0ZXJhbD89` contains `/`).
pub fn encode_header_value(value: &str) -> String {
    if needs_encoding(value) {
        format!("{PREFIX}{}{SUFFIX}", STANDARD.encode(value.as_bytes()))
    } else {
        value.to_string()
    }
}

/// Whether raw header bytes have the sentinel shape a server decodes: prefix and suffix in
/// exact (lowercase) case, not overlapping (so at least `=?base64??=`).
pub fn looks_like_sentinel(raw: &[u8]) -> bool {
    raw.len() >= PREFIX.len() + SUFFIX.len() && matches_sentinel_pattern(raw)
}

/// A header value as a server must read it before comparing with the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodedValue {
    /// Not a sentinel: the bytes are the value.
    Plain(Vec<u8>),
    /// A sentinel with a payload that strictly decodes (standard alphabet, canonical padding
    /// and trailing bits) to UTF-8.
    Decoded(String),
    /// A sentinel whose payload decodes only leniently (missing or extra-tolerant padding,
    /// the URL-safe alphabet, non-zero trailing bits): the spec does not say (AMB-15), so
    /// both outcomes are accepted.
    Lenient(String),
    /// A sentinel whose payload does not decode (characters outside both Base64 alphabets,
    /// embedded whitespace, a bad length), or decodes to bytes that are not UTF-8.
    Malformed,
}

/// Lenient decoding: padding optional, trailing bits ignored.
const LENIENT_CONFIG: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
const LENIENT_STANDARD: GeneralPurpose = GeneralPurpose::new(&alphabet::STANDARD, LENIENT_CONFIG);
const LENIENT_URL_SAFE: GeneralPurpose = GeneralPurpose::new(&alphabet::URL_SAFE, LENIENT_CONFIG);

/// Decode raw (OWS-trimmed) header bytes.
///
/// AMB-16: the overlapping form `=?base64?=` is shorter than prefix plus suffix and so is
/// plain; `=?base64??=` decodes to the empty string.
/// AMB-15: strict = RFC 4648 §4 with canonical padding; unpadded, URL-safe or non-canonical
/// trailing bits = `Lenient`; anything else (including whitespace inside the payload, which
/// is not a Base64 character) = `Malformed`, as is a payload that is not UTF-8.
pub fn decode_header_value(raw: &[u8]) -> DecodedValue {
    if !looks_like_sentinel(raw) {
        return DecodedValue::Plain(raw.to_vec());
    }
    let payload = &raw[PREFIX.len()..raw.len() - SUFFIX.len()];
    if let Ok(bytes) = STANDARD.decode(payload) {
        return match String::from_utf8(bytes) {
            Ok(s) => DecodedValue::Decoded(s),
            Err(_) => DecodedValue::Malformed,
        };
    }
    let lenient = [&LENIENT_STANDARD, &LENIENT_URL_SAFE]
        .iter()
        .find_map(|engine| engine.decode(payload).ok());
    match lenient.map(String::from_utf8) {
        Some(Ok(s)) => DecodedValue::Lenient(s),
        _ => DecodedValue::Malformed,
    }
}

/// Whether a sentinel's payload holds a character of the URL-safe alphabet (`-`, `_`),
/// outside "the base alphabet" of the Base64 the spec names: "Implementations MUST reject
/// the encoded data if it contains characters outside the base alphabet when interpreting
/// base-encoded data" (RFC 4648 §3.3). A server reads such a value as malformed
/// (DEVIATIONS.md D-11, narrowed); the client judge still files a client's
/// URL-safe value under CLIENT-B64-FORMAT.
pub fn outside_base_alphabet(raw: &[u8]) -> bool {
    looks_like_sentinel(raw)
        && raw[PREFIX.len()..raw.len() - SUFFIX.len()]
            .iter()
            .any(|b| *b == b'-' || *b == b'_')
}

/// The `Decoded` text of a sentinel, written into `buf` rather than a new `String`, when
/// [`decode_header_value`] reads `raw` as `Decoded` and the text fits; otherwise `None` (the
/// caller decodes the usual way). [`server_decode`] keeps every `Decoded` as it is.
pub fn decoded_into<'b>(raw: &[u8], buf: &'b mut [u8]) -> Option<&'b str> {
    let n = payload_into(raw, buf)?;
    std::str::from_utf8(&buf[..n]).ok()
}

/// The strictly decoded bytes of a sentinel's payload, written into `buf`, when `raw` is a
/// sentinel whose payload decodes strictly and fits: then [`decode_header_value`] reads it as
/// `Decoded` if the bytes are UTF-8 and as `Malformed` if not. `None` otherwise (not a
/// sentinel, not strict Base64, or too long for `buf`).
pub(crate) fn payload_into(raw: &[u8], buf: &mut [u8]) -> Option<usize> {
    if !looks_like_sentinel(raw) {
        return None;
    }
    super::base64_strict::decode_into(&raw[PREFIX.len()..raw.len() - SUFFIX.len()], buf)
}

/// A header value as a server reads it: [`decode_header_value`], with a payload outside the
/// base alphabet `Malformed` (RFC 4648 §3.3).
pub fn server_decode(raw: &[u8]) -> DecodedValue {
    match decode_header_value(raw) {
        DecodedValue::Lenient(_) if outside_base_alphabet(raw) => DecodedValue::Malformed,
        d => d,
    }
}

/// The decoded text of a header value, if it has one: `Plain` bytes that are UTF-8, or a
/// `Decoded`/`Lenient` sentinel payload. `None` for `Malformed` and non-UTF-8 plain bytes.
pub fn decoded_text(d: &DecodedValue) -> Option<&str> {
    match d {
        DecodedValue::Plain(b) => std::str::from_utf8(b).ok(),
        DecodedValue::Decoded(s) | DecodedValue::Lenient(s) => Some(s),
        DecodedValue::Malformed => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> DecodedValue {
        decode_header_value(s.as_bytes())
    }

    /// streamable-http.mdx § Value Encoding, the five-row table (ENCODING.md §2.4).
    #[test]
    fn spec_encoding_table() {
        let table = [
            ("us-west1", "us-west1"),
            ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
            (" padded ", "=?base64?IHBhZGRlZCA=?="),
            ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
            ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
        ];
        for (original, encoded) in table {
            assert_eq!(encode_header_value(original), encoded, "{original:?}");
            let back = dec(encoded);
            if original == encoded {
                assert_eq!(back, DecodedValue::Plain(original.as_bytes().to_vec()));
            } else {
                assert_eq!(back, DecodedValue::Decoded(original.to_string()));
            }
        }
    }

    /// ENCODING.md §2.5 (client-side vectors).
    #[test]
    fn further_client_vectors() {
        let rows = [
            (" us-west1", "=?base64?IHVzLXdlc3Qx?="),
            ("us-west1 ", "=?base64?dXMtd2VzdDEg?="),
            (" us-west1 ", "=?base64?IHVzLXdlc3QxIA==?="),
            ("us west 1", "us west 1"),
            ("true", "true"),
            ("false", "false"),
            ("42", "42"),
            ("-7", "-7"),
            ("日本語", "=?base64?5pel5pys6Kqe?="),
            ("line1\r\nline2", "=?base64?bGluZTENCmxpbmUy?="),
            ("\tindented", "=?base64?CWluZGVudGVk?="),
            ("", ""),
            ("a\tb", "=?base64?YQli?="),
            ("=?base64?=", "=?base64?PT9iYXNlNjQ/PQ==?="),
            ("café", "=?base64?Y2Fmw6k=?="),
            (
                "file:///tmp/résumé.txt",
                "=?base64?ZmlsZTovLy90bXAvcsOpc3Vtw6kudHh0?=",
            ),
            ("=?BASE64?SGVsbG8=?=", "=?BASE64?SGVsbG8=?="),
        ];
        for (value, header) in rows {
            assert_eq!(encode_header_value(value), header, "{value:?}");
        }
    }

    /// ENCODING.md §2.6, the decoding half (the comparison half is in `compare`).
    #[test]
    fn server_decoding_vectors() {
        use DecodedValue::*;
        let text = |s: &str| Decoded(s.to_string());
        assert_eq!(dec("us-west1"), Plain(b"us-west1".to_vec()));
        assert_eq!(dec("=?base64?dXMtd2VzdDE=?="), text("us-west1"));
        assert_eq!(dec("=?base64?SGVsbG8sIOS4lueVjA==?="), text("Hello, 世界"));
        assert_eq!(dec("=?base64?IHBhZGRlZCA=?="), text(" padded "));
        assert_eq!(dec("=?base64?literal?="), Malformed);
        assert_eq!(dec("=?base64?SGVsbG8=?="), text("Hello"));
        assert_eq!(dec("=?base64?SGVsbG8?="), Lenient("Hello".to_string()));
        assert_eq!(dec("=?base64?SGVs!!!bG8=?="), Malformed);
        assert_eq!(dec("=?base64?/w==?="), Malformed);
        assert_eq!(
            dec("=?base64?PT9iYXNlNjQ_bGl0ZXJhbD89?="),
            Lenient("=?base64?literal?=".to_string())
        );
        assert_eq!(dec("SGVsbG8="), Plain(b"SGVsbG8=".to_vec()));
        assert_eq!(
            dec("=?base64?SGVsbG8="),
            Plain(b"=?base64?SGVsbG8=".to_vec())
        );
        assert_eq!(
            dec("=?BASE64?SGVsbG8=?="),
            Plain(b"=?BASE64?SGVsbG8=?=".to_vec())
        );
        assert_eq!(dec("=?base64?Y2Fmw6k=?="), text("café"));
        assert_eq!(dec("=?base64??="), text(""));
    }

    #[test]
    fn sentinel_edge_cases() {
        // overlap: a client encodes it, a server reads it as plain (AMB-16)
        assert!(matches_sentinel_pattern(b"=?base64?="));
        assert!(!looks_like_sentinel(b"=?base64?="));
        assert_eq!(
            dec("=?base64?="),
            DecodedValue::Plain(b"=?base64?=".to_vec())
        );
        assert!(needs_encoding("=?base64?="));
        // too short / partial markers
        assert!(!looks_like_sentinel(b""));
        assert!(!looks_like_sentinel(b"=?base64"));
        assert!(!looks_like_sentinel(b"?="));
        assert!(looks_like_sentinel(b"=?base64??="));
        // markers are case-sensitive
        assert!(!needs_encoding("=?Base64?x?="));
        // whitespace inside the payload is not Base64 (AMB-15)
        assert_eq!(dec("=?base64?SGVs bG8=?="), DecodedValue::Malformed);
        // non-canonical trailing bits decode only leniently (AMB-15)
        assert_eq!(
            dec("=?base64?SGVsbG9=?="),
            DecodedValue::Lenient("Hello".into())
        );
        // over-long padding and a bad length are malformed
        assert_eq!(dec("=?base64?SGVsbG8==?="), DecodedValue::Malformed);
        assert_eq!(dec("=?base64?S?="), DecodedValue::Malformed);
        // a raw non-ASCII byte in the payload
        assert_eq!(
            decode_header_value(b"=?base64?\xff?="),
            DecodedValue::Malformed
        );
        // nested sentinel decodes one level only
        assert_eq!(
            dec(&encode_header_value("=?base64?YQ==?=")),
            DecodedValue::Decoded("=?base64?YQ==?=".into())
        );
    }

    #[test]
    fn what_needs_encoding() {
        assert!(!needs_encoding(""));
        assert!(!needs_encoding("a b"));
        assert!(!needs_encoding("!~"));
        assert!(needs_encoding(" a"));
        assert!(needs_encoding("a "));
        assert!(needs_encoding("a\tb"));
        assert!(needs_encoding("a\x7fb"));
        assert!(needs_encoding("a\0b"));
        assert!(needs_encoding("é"));
        assert!(needs_encoding("=?base64?x?="));
        assert!(!needs_encoding("=?base64?x"));
        assert!(!needs_encoding("x?="));
    }

    #[test]
    fn decoded_text_of_each_variant() {
        assert_eq!(decoded_text(&dec("abc")), Some("abc"));
        assert_eq!(decoded_text(&dec("=?base64?YQ==?=")), Some("a"));
        assert_eq!(decoded_text(&dec("=?base64?YQ?=")), Some("a"));
        assert_eq!(decoded_text(&DecodedValue::Malformed), None);
        assert_eq!(decoded_text(&DecodedValue::Plain(vec![0xff])), None);
    }
}
