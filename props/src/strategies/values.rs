//! Header-ish strings and JSON primitive values for annotated parameters.
//!
//! Each string family targets one clause of the Value Encoding rules (streamable-http.mdx
//! § Value Encoding): plain ASCII (sent as-is), non-ASCII, control characters, leading or
//! trailing whitespace, sentinel look-alikes, and the empty string.

use mcpdiff_oracle::encoding::sentinel::matches_sentinel_pattern;
use proptest::prelude::*;
use serde_json::Value;

/// A regex string strategy, parsed once. A `&str` used as a strategy re-parses its regex
/// on every draw (once the largest cost of generation); this draws the same values from
/// the same RNG.
fn regex(pattern: &str) -> proptest::string::RegexGeneratorStrategy<String> {
    // the patterns are constants of this crate, checked by every test that generates a case
    proptest::string::string_regex(pattern).expect("generator regexes are valid")
}

/// The largest integer a JavaScript number holds exactly, 2^53 - 1.
pub const MAX_SAFE: i64 = (1 << 53) - 1;

/// Which family a generated string belongs to (what the spec says a client must do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// Visible ASCII with internal spaces, no surrounding whitespace, no sentinel shape.
    Plain,
    /// The empty string (plain, AMB-19).
    Empty,
    /// Contains a character >= U+0080.
    NonAscii,
    /// Contains a C0 control character or DEL (HTAB included).
    Control,
    /// Starts or ends with SP or HTAB.
    Padded,
    /// Starts with `=?base64?` and ends with `?=`.
    SentinelLike,
}

impl TextKind {
    /// Whether the spec makes a client Base64-encode strings of this family.
    pub fn must_encode(self) -> bool {
        !matches!(self, TextKind::Plain | TextKind::Empty)
    }
}

/// Plain ASCII that a client sends unchanged.
pub fn plain_ascii() -> impl Strategy<Value = String> {
    regex("[!-~]([ -~]{0,24}[!-~])?").prop_filter("sentinel shape", |s| {
        !matches_sentinel_pattern(s.as_bytes())
    })
}

/// Strings with at least one non-ASCII character.
pub fn non_ascii() -> impl Strategy<Value = String> {
    (
        regex("[ -~]{0,8}"),
        regex("[\u{80}-\u{7ff}\u{800}-\u{ffff}\u{10000}-\u{10ffff}]{1,3}"),
        regex("[ -~]{0,8}"),
    )
        .prop_map(|(a, b, c)| format!("{a}{b}{c}"))
}

/// Strings with at least one control character (C0, DEL), e.g. CR/LF injection attempts.
pub fn with_controls() -> impl Strategy<Value = String> {
    (
        regex("[ -~]{0,8}"),
        prop_oneof![
            Just("\r\n".to_string()),
            Just("\n".to_string()),
            Just("\t".to_string()),
            Just("\0".to_string()),
            Just("\u{7f}".to_string()),
            prop::char::range('\0', '\x1f').prop_map(String::from),
        ],
        regex("[ -~]{0,8}"),
    )
        .prop_map(|(a, b, c)| format!("{a}{b}{c}"))
}

/// Plain text with leading and/or trailing SP or HTAB.
pub fn padded() -> impl Strategy<Value = String> {
    (
        regex("[ \t]{0,2}"),
        regex("[!-~]{0,10}"),
        regex("[ \t]{0,2}"),
        any::<bool>(),
    )
        .prop_map(|(lead, mid, trail, force_lead)| {
            if lead.is_empty() && trail.is_empty() {
                if force_lead {
                    format!(" {mid}")
                } else {
                    format!("{mid} ")
                }
            } else {
                format!("{lead}{mid}{trail}")
            }
        })
}

/// Plain ASCII values that match the sentinel pattern, including the overlap `=?base64?=`
/// and payloads that are, or are not, valid Base64.
pub fn sentinel_like() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("=?base64?=".to_string()),
        Just("=?base64??=".to_string()),
        Just("=?base64?literal?=".to_string()),
        regex("[A-Za-z0-9+/=]{0,12}").prop_map(|p| format!("=?base64?{p}?=")),
        regex("[ -~]{0,12}").prop_map(|p| format!("=?base64?{p}?=")),
    ]
}

/// A header-ish string together with its family.
pub fn header_text() -> impl Strategy<Value = (String, TextKind)> {
    prop_oneof![
        4 => plain_ascii().prop_map(|s| (s, TextKind::Plain)),
        1 => Just((String::new(), TextKind::Empty)),
        2 => non_ascii().prop_map(|s| (s, TextKind::NonAscii)),
        2 => with_controls().prop_map(|s| (s, TextKind::Control)),
        2 => padded().prop_map(|s| (s, TextKind::Padded)),
        2 => sentinel_like().prop_map(|s| (s, TextKind::SentinelLike)),
    ]
    .boxed()
}

/// Any string a header value may be made from (the family forgotten).
pub fn header_string() -> impl Strategy<Value = String> {
    prop_oneof![header_text().prop_map(|(s, _)| s), any::<String>()].boxed()
}

/// Integers weighted towards the JavaScript safe-range bounds and zero.
pub fn integer() -> impl Strategy<Value = i64> {
    prop_oneof![
        2 => -1000i64..1000,
        1 => -MAX_SAFE..=MAX_SAFE,
        1 => prop::sample::select(INTEGER_EDGES.to_vec()),
    ]
}

/// The integers at the edges of the JavaScript safe range and of `i64`, and around zero.
pub const INTEGER_EDGES: [i64; 9] = [
    0,
    -1,
    1,
    MAX_SAFE,
    -MAX_SAFE,
    MAX_SAFE + 1,
    -MAX_SAFE - 1,
    i64::MAX,
    i64::MIN,
];

/// A JSON primitive for an annotated parameter: string, integer, boolean or null.
pub fn primitive_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => header_string().prop_map(Value::String),
        2 => integer().prop_map(Value::from),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
    ]
    .boxed()
}

/// Arbitrary bytes for a raw header value (controls, obs-text, anything).
pub fn raw_header_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        header_string().prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>(), 0..24),
    ]
    .boxed()
}
