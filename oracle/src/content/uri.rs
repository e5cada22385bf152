//! Resource URIs (server/resources.mdx § Common URI Schemes › Custom URI Schemes): «Custom
//! URI schemes MUST be in accordance with RFC3986». Checked: the scheme's syntax and the
//! characters RFC 3986 §2 allows (unreserved, reserved, `%` with two hex digits), with at
//! most one `#`; the grammar of authority and path is not parsed (DEVIATIONS.md D-86).

use serde_json::Value;

/// The schemes the page defines itself (and `http`, which `https` presumes); the sentence
/// speaks of the others.
const STANDARD_SCHEMES: [&str; 4] = ["https", "http", "file", "git"];

/// RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn scheme_ok(s: &str) -> bool {
    let mut b = s.bytes();
    b.next().is_some_and(|c| c.is_ascii_alphabetic())
        && b.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
}

/// RFC 3986 §2: unreserved, gen-delims, sub-delims, and `%` followed by two hex digits.
fn chars_ok(rest: &str) -> bool {
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let hex = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
            continue;
        }
        let allowed = c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c);
        if !allowed {
            return false;
        }
        i += 1;
    }
    rest.matches('#').count() <= 1
}

/// Whether `uri`, unless its scheme is a standard one, is in accordance with RFC 3986.
pub(super) fn custom_uri_ok(uri: &str) -> bool {
    let Some((scheme, rest)) = uri.split_once(':') else {
        // no scheme at all: no URI (RFC 3986 §3: the scheme is required)
        return false;
    };
    if STANDARD_SCHEMES
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
    {
        return true;
    }
    scheme_ok(scheme) && chars_ok(rest)
}

/// Whether `uri` is in RFC 3986 syntax whatever its scheme (an embedded resource's "valid
/// resource URI"; D-122).
pub(super) fn uri_ok(uri: &str) -> bool {
    uri.split_once(':')
        .is_some_and(|(scheme, rest)| scheme_ok(scheme) && chars_ok(rest))
}

/// Every resource a `resources/list` result lists with a string `uri` has a URI in
/// accordance with RFC 3986 (items without one are RES-LIST-RESPOND's).
pub(super) fn listed_uris_hold(result: &Value) -> bool {
    let items = result.get("resources").and_then(Value::as_array);
    items
        .into_iter()
        .flatten()
        .filter_map(|r| r.get("uri").and_then(Value::as_str))
        .all(custom_uri_ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_schemes_follow_rfc_3986() {
        for ok in [
            "config://app/settings",
            "mem://notes/my%20notes.txt",
            "urn:isbn:0451450523",
            "db+sql://host/t?x=1#frag",
            "file:///any thing goes for the page's own schemes",
        ] {
            assert!(custom_uri_ok(ok), "{ok}");
        }
        for bad in [
            "mem://notes/my notes.txt",
            "mem://a/%zz",
            "mem://a/é",
            "1mem://a",
            "config.json",
            "mem://a#b#c",
            "me m://a",
        ] {
            assert!(!custom_uri_ok(bad), "{bad}");
        }
    }
}
