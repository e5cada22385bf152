//! Binary data and embedded content in results (server/resources.mdx § Security
//! Considerations, server/prompts.mdx § Data Types › PromptMessage): a `blob` of
//! `resources/read` is Base64 (RES-BINARY), an image of `prompts/get` is Base64 with a valid
//! MIME type (PROMPTS-MEDIA-B64), a resource embedded in `prompts/get` carries a valid URI,
//! a MIME type and text or Base64 data (PROMPTS-EMBEDDED).
//!
//! Each check speaks only of something the answer may not carry (a blob, an image, an
//! embedded resource): an answer without one is neither a pass nor a failure, so each has
//! an `observed_*` twin the tally asks (DEVIATIONS.md D-121).

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use serde_json::Value;

/// RFC 4648 §4 Base64: the standard alphabet, padded to whole quanta; non-zero pad bits are
/// tolerated (§3.5 lets a decoder accept them), whitespace and the URL-safe alphabet are not
/// Base64 (D-121).
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
);

/// Whether `v` is a string holding Base64 (RFC 4648 §4).
pub(super) fn is_base64(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str)
        .is_some_and(|s| BASE64.decode(s.as_bytes()).is_ok())
}

/// RFC 6838 §4.2 `restricted-name`: 1 to 127 characters, the first a letter or digit.
fn restricted_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 127
        && b[0].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(c))
}

/// A MIME type: `type "/" subtype` (RFC 6838 §4.2), optionally followed by parameters after
/// `;` (RFC 9110 §8.3.1; their grammar is not checked). The registry is not consulted: a
/// well-formed unregistered type is not judged invalid (D-121).
pub(super) fn mime_ok(v: Option<&Value>) -> bool {
    let Some(s) = v.and_then(Value::as_str) else {
        return false;
    };
    let essence = s.split(';').next().unwrap_or_default().trim_end();
    essence
        .split_once('/')
        .is_some_and(|(t, sub)| restricted_name(t) && restricted_name(sub))
}

/// The `contents` items of a `resources/read` result that carry a `blob` member.
fn blobs(result: &Value) -> impl Iterator<Item = &Value> {
    let items = result.get("contents").and_then(Value::as_array);
    items.into_iter().flatten().filter_map(|c| c.get("blob"))
}

/// "Binary data MUST be properly encoded": every `blob` is a Base64 string.
pub(super) fn blobs_hold(result: &Value) -> bool {
    blobs(result).all(|b| is_base64(Some(b)))
}

/// Whether the result carries binary contents at all.
pub(super) fn observed_blobs(result: &Value) -> bool {
    blobs(result).next().is_some()
}

/// The content blocks of a `prompts/get` result's messages (a message's `content` is one
/// block, or an array of blocks).
fn prompt_blocks(result: &Value) -> impl Iterator<Item = &Value> {
    let messages = result.get("messages").and_then(Value::as_array);
    messages
        .into_iter()
        .flatten()
        .filter_map(|m| m.get("content"))
        .flat_map(|c| match c {
            Value::Array(blocks) => blocks.iter().collect::<Vec<_>>(),
            one => vec![one],
        })
}

fn of_type<'r>(result: &'r Value, kind: &'r str) -> impl Iterator<Item = &'r Value> + 'r {
    prompt_blocks(result).filter(move |b| b.get("type").and_then(Value::as_str) == Some(kind))
}

/// "The image data MUST be base64-encoded and include a valid MIME type."
pub(super) fn images_hold(result: &Value) -> bool {
    of_type(result, "image").all(|b| is_base64(b.get("data")) && mime_ok(b.get("mimeType")))
}

pub(super) fn observed_images(result: &Value) -> bool {
    of_type(result, "image").next().is_some()
}

/// "Resources can contain either text or binary (blob) data and MUST include: - A valid
/// resource URI - The appropriate MIME type - Either text content or base64-encoded blob
/// data": the URI in RFC 3986 syntax (every scheme: the sentence names none), a well-formed
/// MIME type (which one is appropriate is not decidable from outside), and a string `text`
/// or a Base64 `blob` (D-122).
pub(super) fn embedded_hold(result: &Value) -> bool {
    of_type(result, "resource").all(|b| {
        let Some(r) = b.get("resource") else {
            return false;
        };
        let uri_ok = r
            .get("uri")
            .and_then(Value::as_str)
            .is_some_and(super::uri::uri_ok);
        let text = r.get("text").is_some_and(Value::is_string);
        let blob = r.get("blob").map(|b| is_base64(Some(b)));
        let data_ok = match blob {
            Some(valid) => valid,
            None => text,
        };
        uri_ok && mime_ok(r.get("mimeType")) && data_ok
    })
}

pub(super) fn observed_embedded(result: &Value) -> bool {
    of_type(result, "resource").next().is_some()
}

/// Whether a `tools/call` result embeds a resource: a block of its `content` array of type
/// `resource` (server/tools.mdx § Embedded Resources; a `resource_link` only points at one).
pub(super) fn tool_embeds(result: &Value) -> bool {
    let blocks = result.get("content").and_then(Value::as_array);
    blocks
        .into_iter()
        .flatten()
        .any(|b| b.get("type").and_then(Value::as_str) == Some("resource"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tool_result_embeds_only_by_a_resource_block() {
        let embeds = |content: Value| tool_embeds(&json!({ "content": content }));
        assert!(embeds(
            json!([{"type": "text", "text": "t"}, {"type": "resource", "resource": {}}])
        ));
        assert!(!embeds(
            json!([{"type": "resource_link", "uri": "file:///a", "name": "a"}])
        ));
        assert!(!embeds(json!({"type": "resource"})));
        assert!(!tool_embeds(
            &json!({"structuredContent": {"type": "resource"}})
        ));
    }

    #[test]
    fn base64_is_the_standard_padded_alphabet() {
        for ok in ["", "iVBORw0KGgo=", "SGVsbG8=", "SGVsbG9=", "AAAA"] {
            assert!(is_base64(Some(&json!(ok))), "{ok}");
        }
        for bad in [
            "SGVsbG8",
            "SGVs bG8=",
            "SGVsbG8=\n",
            "a-_b",
            "not base64!",
            "====",
        ] {
            assert!(!is_base64(Some(&json!(bad))), "{bad}");
        }
        assert!(!is_base64(Some(&json!(7))));
        assert!(!is_base64(None));
    }

    #[test]
    fn mime_types_are_type_slash_subtype() {
        for ok in [
            "image/png",
            "image/svg+xml",
            "text/plain; charset=utf-8",
            "x-a/b.c",
        ] {
            assert!(mime_ok(Some(&json!(ok))), "{ok}");
        }
        for bad in ["png", "image/", "/png", "image/p ng", "", "image/png/x"] {
            assert!(!mime_ok(Some(&json!(bad))), "{bad}");
        }
        assert!(!mime_ok(None));
    }

    #[test]
    fn blobs_images_and_embedded_resources() {
        let read = |blob: Value| json!({"contents": [{"uri": "file:///a", "blob": blob}]});
        assert!(blobs_hold(&read(json!("AAAA"))));
        assert!(!blobs_hold(&read(json!("A A"))));
        assert!(!observed_blobs(
            &json!({"contents": [{"uri": "u", "text": "t"}]})
        ));
        let prompt = |block: Value| json!({"messages": [{"role": "user", "content": block}]});
        let image =
            |data: &str, mime: &str| json!({"type": "image", "data": data, "mimeType": mime});
        assert!(images_hold(&prompt(image("AAAA", "image/png"))));
        assert!(!images_hold(&prompt(image("%%", "image/png"))));
        assert!(!images_hold(&prompt(image("AAAA", "png"))));
        assert!(images_hold(&prompt(json!({"type": "text", "text": "x"}))));
        assert!(!observed_images(&prompt(
            json!({"type": "text", "text": "x"})
        )));
        assert!(observed_images(&prompt(json!([image(
            "AAAA",
            "image/png"
        )]))));
        let embedded = |r: Value| prompt(json!({"type": "resource", "resource": r}));
        let good = json!({"uri": "file:///a.json", "mimeType": "application/json", "text": "{}"});
        assert!(embedded_hold(&embedded(good.clone())));
        assert!(observed_embedded(&embedded(good.clone())));
        let mut no_mime = good.clone();
        no_mime.as_object_mut().map(|o| o.remove("mimeType"));
        assert!(!embedded_hold(&embedded(no_mime)));
        let bad_uri = json!({"uri": "my notes", "mimeType": "text/plain", "text": ""});
        assert!(!embedded_hold(&embedded(bad_uri)));
        let blob = json!({"uri": "file:///a.png", "mimeType": "image/png", "blob": "AAAA"});
        assert!(embedded_hold(&embedded(blob)));
        let no_data = json!({"uri": "file:///a.png", "mimeType": "image/png"});
        assert!(!embedded_hold(&embedded(no_data)));
    }
}
