//! Header value encoding: the base64 sentinel codec, RFC 9110 field-value validity (byte by
//! byte, and a word at a time for the judge), and the comparison of a mirrored header value
//! with its body value.

pub(crate) mod base64_strict;
pub mod compare;
pub mod field_value;
pub(crate) mod field_words;
pub mod sentinel;

pub use compare::{
    compare_number_text, compare_param, compare_param_bool, compare_param_bytes,
    compare_param_text, ParamMatch,
};
pub use field_value::{field_value_class, FieldValueClass};
pub use sentinel::{decode_header_value, encode_header_value, needs_encoding, DecodedValue};
