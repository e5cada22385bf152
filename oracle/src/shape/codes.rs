//! Error-code checks: «Error codes MUST be integers.» (BASE-ERROR-INT) and «New error codes
//! for purposes not defined by this specification SHOULD be allocated outside the JSON-RPC
//! reserved range (`-32768` to `-32000`)» (BASE-ERRCODE-APP-RANGE), read as DEVIATIONS.md
//! D-160 and D-161 say.

use serde_json::Value;

/// Whether an error's `code` member is an integer: a JSON number with no fractional part
/// (`-32600.0` included: JSON does not tell it from `-32600`, as D-82 reads `ttlMs`). An
/// absent code is BASE-ERROR-SHAPE's, so it passes here.
pub fn code_is_integer(code: Option<&Value>) -> bool {
    match code {
        None => true,
        Some(Value::Number(n)) => {
            n.is_i64()
                || n.is_u64()
                || n.as_f64()
                    .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
        }
        Some(_) => false,
    }
}

/// Whether an integer code is outside the part of the JSON-RPC reserved range this SHOULD
/// alone judges: `-32768..=-32100` less the codes JSON-RPC defines (`-32700`,
/// `-32600..=-32603`). The sub-range `-32099..=-32000` is judged by the MUST NOT on undefined
/// reserved codes, the retired codes and the legacy range (D-161), so one code is blamed on
/// one sentence.
pub fn outside_reserved_for_new(code: i64) -> bool {
    !(-32768..=-32100).contains(&code) || code == -32700 || (-32603..=-32600).contains(&code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_pass_and_others_fail() {
        for ok in [json!(-32600), json!(7), json!(-32600.0), json!(u64::MAX)] {
            assert!(code_is_integer(Some(&ok)), "{ok}");
        }
        for bad in [json!("-32600"), json!(-32600.5), json!(null), json!([1])] {
            assert!(!code_is_integer(Some(&bad)), "{bad}");
        }
        assert!(code_is_integer(None));
    }

    #[test]
    fn the_reserved_range_less_the_defined_codes() {
        for ok in [
            -32700, -32600, -32603, -32020, -32050, -32000, -31999, -32769, 1, -1,
        ] {
            assert!(outside_reserved_for_new(ok), "{ok}");
        }
        for bad in [-32768, -32500, -32100, -32604, -32699, -32701] {
            assert!(!outside_reserved_for_new(bad), "{bad}");
        }
    }
}
