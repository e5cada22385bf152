//! Directory traversal in `file://` resource URIs (server/resources.mdx § Security
//! Considerations: «Servers **MUST** sanitize file paths to prevent directory traversal
//! attacks when serving `file://` resources», RES-TRAVERSAL): which URIs the judge holds to a
//! refusal, and the traversal forms the probes and the generator build from a target's own
//! `file://` resources and templates (DEVIATIONS.md D-123).
//!
//! A URI is a traversal when its scheme is `file` and its path, read raw, once or twice
//! percent-decoded, has a `..` segment (segments split at `/` or `\`). Absolute paths
//! (`file:///etc/passwd`) carry no traversal syntax: they are plain URIs the target does not
//! publish, which RES-NOTFOUND-32602 judges.

use crate::surface::Surface;

/// Whether the surface serves `file://` resources (lists one, or a template of one).
pub fn serves_files(s: &Surface) -> bool {
    let file = |u: &String| is_file(u);
    s.resources.iter().any(file) || s.resource_templates.iter().any(file)
}

fn is_file(uri: &str) -> bool {
    uri.get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("file:"))
}

/// One round of percent-decoding (a `%` without two hex digits stays as it is).
fn percent_decode(b: &[u8]) -> Vec<u8> {
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let pair = (
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        );
        match (b[i], pair) {
            (b'%', (Some(h), Some(l))) => {
                // (two hex digits are below 256)
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Whether a segment of `path` (split at `/` or `\\`) is `..`: a `..` with a separator or
/// an end on each side, found in one pass.
fn has_dot_dot(path: &[u8]) -> bool {
    let sep = |c: Option<&u8>| c.is_none_or(|c| *c == b'/' || *c == b'\\');
    // (each `.` looked at, not each pair of bytes: a usual path has one, its extension's)
    let mut from = 0;
    while let Some(at) = path
        .get(from..)
        .and_then(|rest| rest.iter().position(|c| *c == b'.'))
    {
        let i = from + at;
        if path.get(i + 1) == Some(&b'.')
            && sep(i.checked_sub(1).and_then(|j| path.get(j)))
            && sep(path.get(i + 2))
        {
            return true;
        }
        from = i + 1;
    }
    false
}

/// Whether `uri` is a `file://` URI whose path climbs with `..` (raw, or once or twice
/// percent-decoded).
pub fn is_traversal(uri: &str) -> bool {
    if !is_file(uri) {
        return false;
    }
    let raw = &uri.as_bytes()[5..];
    if has_dot_dot(raw) {
        return true;
    }
    // (decoded copies only for a URI with escapes: no allocation on the common read)
    if !raw.contains(&b'%') {
        return false;
    }
    let once = percent_decode(raw);
    has_dot_dot(&once) || has_dot_dot(&percent_decode(&once))
}

/// Traversal forms aimed at `/etc/passwd` from the directory of `base` (a listed `file://`
/// resource, or a template with its variables cut off): dot segments raw, percent-encoded,
/// double-encoded, and with encoded slashes (which a template variable may hold).
pub fn traversal_uris(base: &str) -> Vec<String> {
    let cut = base.find('{').unwrap_or(base.len());
    let dir = match base[..cut].rfind('/') {
        Some(i) => &base[..=i],
        None => return Vec::new(),
    };
    let up = |seg: &str, n: usize| seg.repeat(n);
    vec![
        format!("{dir}{}etc/passwd", up("../", 8)),
        format!("{dir}{}etc/passwd", up("%2e%2e/", 8)),
        format!("{dir}{}etc%2Fpasswd", up("..%2F", 8)),
        format!("{dir}{}etc/passwd", up("%252e%252e%252f", 8)),
        format!("{dir}{}windows\\win.ini", up("..\\", 8)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_raw_encoded_and_double_encoded() {
        for t in [
            "file:///projects/myapp/../../etc/passwd",
            "file:///projects/myapp/%2e%2e/%2E%2E/etc/passwd",
            "file:///logs/..%2F..%2Fetc%2Fpasswd.log",
            "file:///a/%252e%252e%252fetc/passwd",
            "FILE:///a/..\\..\\x",
            "file:///..",
        ] {
            assert!(is_traversal(t), "{t}");
        }
        for t in [
            "file:///projects/myapp/config.json",
            "file:///etc/passwd",
            "file:///a/..b/c",
            "file:///a/.../c",
            "mem://a/../b",
            "file:///a/%25252e%25252e/b",
        ] {
            assert!(!is_traversal(t), "{t}");
        }
    }

    /// The one-pass search finds a `..` segment exactly where splitting at the separators
    /// does, over every path of up to six bytes from `.`, `/`, `\\` and `a`.
    #[test]
    fn one_pass_dot_dot_is_the_split_reading() {
        let split = |p: &[u8]| p.split(|c| *c == b'/' || *c == b'\\').any(|s| s == b"..");
        let alphabet = [b'.', b'/', b'\\', b'a'];
        for len in 0..=6u32 {
            for n in 0..4usize.pow(len) {
                let path: Vec<u8> = (0..len).map(|k| alphabet[n / 4usize.pow(k) % 4]).collect();
                assert_eq!(
                    has_dot_dot(&path),
                    split(&path),
                    "{:?}",
                    String::from_utf8_lossy(&path)
                );
            }
        }
    }

    #[test]
    fn forms_from_a_listed_resource_or_a_template_are_traversals() {
        for base in [
            "file:///projects/myapp/config.json",
            "file:///logs/{day}.log",
        ] {
            let forms = traversal_uris(base);
            assert_eq!(forms.len(), 5);
            for f in &forms {
                assert!(is_traversal(f), "{f}");
                assert!(f.starts_with(&base[..base.rfind('/').unwrap_or(0)]), "{f}");
            }
        }
        assert!(traversal_uris("nofile").is_empty());
    }
}
