//! Caching hints (server/utilities/caching.mdx § Cacheable Results, § Cacheable Model).

use serde_json::Value;

/// Whether the result is one the hints are required on: "results with `resultType:
/// "complete"`". An absent `resultType` is BASE-RESULTTYPE's finding, and an interim
/// `input_required` result "carr[ies] no caching hints" (DEVIATIONS.md D-82).
fn complete(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("complete")
}

/// "Servers MUST include caching hints on results with `resultType: "complete"`": the two
/// fields of the Cacheable Model, `ttlMs` ("an integer value in milliseconds") and
/// `cacheScope` ("either `"public"` or `"private"`"). A number with no fraction counts as an
/// integer (JSON does not tell `300` from `300.0`); its sign is CACHE-TTL-NONNEG's.
pub(super) fn hints_hold(result: &Value) -> bool {
    if !complete(result) {
        return true;
    }
    let ttl_integer = result.get("ttlMs").is_some_and(|t| {
        t.is_i64()
            || t.is_u64()
            || t.as_f64()
                .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
    });
    let scope = result.get("cacheScope").and_then(Value::as_str);
    ttl_integer && matches!(scope, Some("public") | Some("private"))
}

/// "Servers MUST provide a `ttlMs` value that is `>= 0`.": judged on a numeric `ttlMs`
/// (an absent or non-numeric one is CACHE-HINTS's), on any result that carries it.
pub(super) fn ttl_not_negative(result: &Value) -> bool {
    result
        .get("ttlMs")
        .and_then(Value::as_f64)
        .is_none_or(|t| t >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hints_bind_complete_results_only() {
        let r = |v: Value| {
            let mut base = json!({"resultType": "complete"});
            for (k, x) in v.as_object().into_iter().flatten() {
                base[k] = x.clone();
            }
            base
        };
        assert!(hints_hold(&r(json!({"ttlMs": 0, "cacheScope": "public"}))));
        assert!(hints_hold(&r(
            json!({"ttlMs": 300.0, "cacheScope": "private"})
        )));
        assert!(!hints_hold(&r(json!({"cacheScope": "public"}))));
        assert!(!hints_hold(&r(json!({"ttlMs": 5}))));
        assert!(!hints_hold(&r(
            json!({"ttlMs": "5", "cacheScope": "public"})
        )));
        assert!(!hints_hold(&r(
            json!({"ttlMs": 1.5, "cacheScope": "public"})
        )));
        assert!(!hints_hold(&r(json!({"ttlMs": 5, "cacheScope": "shared"}))));
        // the sign is the other rule's
        assert!(hints_hold(&r(json!({"ttlMs": -5, "cacheScope": "public"}))));
        assert!(hints_hold(&json!({"resultType": "input_required"})));
        assert!(hints_hold(&json!({})));
    }

    #[test]
    fn ttl_sign() {
        assert!(ttl_not_negative(&json!({"ttlMs": 0})));
        assert!(ttl_not_negative(&json!({})));
        assert!(ttl_not_negative(&json!({"ttlMs": "x"})));
        assert!(!ttl_not_negative(&json!({"ttlMs": -1})));
        assert!(!ttl_not_negative(&json!({"ttlMs": -0.5})));
    }
}
