//! The OpenTelemetry keys of `_meta` (basic/index.mdx § `_meta` › OpenTelemetry trace
//! context): «When present, their values MUST follow W3C Trace Context and W3C Baggage
//! formats respectively.» (BASE-TRACE-FORMAT). `traceparent` and `tracestate` follow W3C
//! Trace Context level 1 § 3.2 and § 3.3, `baggage` W3C Baggage § 3.2; a value that is no
//! string follows neither (DEVIATIONS.md D-163).

use serde_json::Value;

/// Whether the trace-context keys of a `_meta` value (when it is an object) hold values of
/// their formats.
pub fn trace_ok(meta: Option<&Value>) -> bool {
    let Some(m) = meta.and_then(Value::as_object) else {
        return true;
    };
    let text = |k: &str| m.get(k).map(Value::as_str);
    let holds = |v: Option<Option<&str>>, f: fn(&str) -> bool| match v {
        None => true,
        Some(None) => false,
        Some(Some(s)) => f(s),
    };
    holds(text("traceparent"), traceparent_ok)
        && holds(text("tracestate"), tracestate_ok)
        && holds(text("baggage"), baggage_ok)
}

fn lower_hex(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `version "-" trace-id "-" parent-id "-" trace-flags`, lowercase hex; version `ff` is
/// invalid, ids are not all zeros; a version other than `00` may add fields after a `-`.
pub fn traceparent_ok(v: &str) -> bool {
    let b = v.as_bytes();
    if b.len() < 55 || !v.is_char_boundary(55) {
        return false;
    }
    let (head, rest) = v.split_at(55);
    let parts: Vec<&str> = head.split('-').collect();
    let [version, trace, parent, flags] = parts[..] else {
        return false;
    };
    let sized = version.len() == 2 && trace.len() == 32 && parent.len() == 16 && flags.len() == 2;
    let zero = |s: &str| s.bytes().all(|c| c == b'0');
    sized
        && [version, trace, parent, flags].iter().all(|p| lower_hex(p))
        && version != "ff"
        && !zero(trace)
        && !zero(parent)
        && (rest.is_empty() || (version != "00" && rest.starts_with('-')))
}

fn ows(s: &str) -> &str {
    s.trim_matches(|c| c == ' ' || c == '\t')
}

/// At most 32 list-members `key=value` separated by `,` with optional whitespace; empty
/// members are allowed.
pub fn tracestate_ok(v: &str) -> bool {
    let members: Vec<&str> = v.split(',').map(ows).filter(|m| !m.is_empty()).collect();
    members.len() <= 32
        && members.iter().all(|m| match m.split_once('=') {
            Some((k, val)) => tracestate_key_ok(k) && tracestate_value_ok(val),
            None => false,
        })
}

fn tracestate_key_char(c: u8) -> bool {
    matches!(c, b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-' | b'*' | b'/')
}

fn tracestate_key_ok(k: &str) -> bool {
    let b = k.as_bytes();
    match k.split_once('@') {
        None => {
            (1..=256).contains(&b.len())
                && b[0].is_ascii_lowercase()
                && b.iter().all(|c| tracestate_key_char(*c))
        }
        Some((tenant, system)) => {
            let (t, s) = (tenant.as_bytes(), system.as_bytes());
            (1..=241).contains(&t.len())
                && (t[0].is_ascii_lowercase() || t[0].is_ascii_digit())
                && t.iter().all(|c| tracestate_key_char(*c))
                && (1..=14).contains(&s.len())
                && s[0].is_ascii_lowercase()
                && s.iter().all(|c| tracestate_key_char(*c))
        }
    }
}

/// `0*255(chr) nblk-chr`: printable ASCII but `,` and `=`, not ending in a space.
fn tracestate_value_ok(v: &str) -> bool {
    let b = v.as_bytes();
    (1..=256).contains(&b.len())
        && b.iter()
            .all(|c| (0x20..=0x7e).contains(c) && *c != b',' && *c != b'=')
        && b.last() != Some(&b' ')
}

/// `list-member *( OWS "," OWS list-member )`, each `key OWS "=" OWS value *( OWS ";" OWS
/// property )`, the key an RFC 7230 token, the value baggage-octets.
pub fn baggage_ok(v: &str) -> bool {
    v.split(',').map(ows).all(|member| {
        let mut parts = member.split(';').map(ows);
        let kv = parts.next().unwrap_or("");
        let Some((k, val)) = kv.split_once('=') else {
            return false;
        };
        token(ows(k))
            && ows(val).bytes().all(baggage_octet)
            && parts.all(|p| match p.split_once('=') {
                Some((k, val)) => token(ows(k)) && ows(val).bytes().all(baggage_octet),
                None => token(p),
            })
    })
}

fn token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c))
}

fn baggage_octet(c: u8) -> bool {
    matches!(c, 0x21 | 0x23..=0x2b | 0x2d..=0x3a | 0x3c..=0x5b | 0x5d..=0x7e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn traceparent_examples() {
        assert!(traceparent_ok(
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"
        ));
        assert!(traceparent_ok(
            "01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-extra"
        ));
        for bad in [
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-x",
            "ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01",
            "garbage",
        ] {
            assert!(!traceparent_ok(bad), "{bad}");
        }
    }

    #[test]
    fn tracestate_and_baggage_examples() {
        assert!(tracestate_ok("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"));
        assert!(tracestate_ok("tenant@vendor=x , ,b=y"));
        assert!(!tracestate_ok("Rojo=1"));
        assert!(!tracestate_ok("novalue"));
        assert!(baggage_ok(
            "userId=alice,serverNode=DF%2028;p=1,isProduction=false"
        ));
        assert!(!baggage_ok("no value"));
        assert!(!baggage_ok("k=a,b"));
    }

    #[test]
    fn non_strings_fail_and_absent_pass() {
        assert!(trace_ok(Some(&json!({"x": 1}))));
        assert!(!trace_ok(Some(&json!({"traceparent": 5}))));
        assert!(trace_ok(None));
    }
}
