//! Isolation forms of the character rules (DEVIATIONS.md D-51): one `Mcp-Name`
//! or `Mcp-Param-*` header carries forbidden bytes that say exactly what the body says under
//! one reading (ISO-8859-1, UTF-8), or a control byte placed in the body value too, so the
//! character rule alone decides the case: a server that skips the character check but
//! compares values would serve it.
//!
//! `Mcp-Name` is only re-sent raw (its body value, a tool name or URI, is not changed: that
//! would call something else); an `Mcp-Param-*` argument gets a non-ASCII or control
//! character in the body when it has none.

use crate::choice::Pick;
use mcpdiff_oracle::encoding::{decode_header_value, DecodedValue};
use mcpdiff_oracle::isolation::readings::{is_name_header, is_param_header, Reading};
use mcpdiff_oracle::Case;
use serde_json::Value;

/// Which form to plant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Header bytes whose ISO-8859-1 reading is the body's text (`caf\xE9` for `café`).
    Latin1,
    /// The UTF-8 bytes of the body's text, raw.
    Utf8,
    /// A control byte in both the body value and the header.
    Control,
}

pub const FORMS: [Form; 3] = [Form::Latin1, Form::Utf8, Form::Control];

/// Plant `form` on the `pick`-th `Mcp-Name` / `Mcp-Param-*` field of `case` (body as JSON).
pub fn apply(form: Form, pick: Pick, case: &mut Case, body: &mut Value) {
    let fields: Vec<usize> = (0..case.headers.len())
        .filter(|k| {
            let n = &case.headers[*k].0;
            is_name_header(n) || is_param_header(n)
        })
        .collect();
    if fields.is_empty() {
        return;
    }
    let k = fields[pick.index(fields.len())];
    let raw = case.headers[k].1.clone();
    let text = match decode_header_value(&raw) {
        DecodedValue::Decoded(s) => s,
        DecodedValue::Plain(_) => match String::from_utf8(raw) {
            Ok(s) => s,
            Err(_) => return,
        },
        _ => return,
    };
    let Some(slot) = body_slot(&case.headers[k].0, &text, body) else {
        return;
    };
    let is_name = is_name_header(&case.headers[k].0);
    let new = match form {
        Form::Latin1 => latin1_text(&text),
        Form::Utf8 if text.is_ascii() => format!("{text}\u{e9}"),
        Form::Utf8 => text.clone(),
        Form::Control => {
            let mid = (0..=text.len() / 2)
                .rev()
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(0);
            format!("{}\u{1}{}", &text[..mid], &text[mid..])
        }
    };
    // the server trims optional whitespace: the value must not start or end with any
    let new = new.trim_matches([' ', '\t']).to_string();
    if is_name && new != text {
        // a name or URI cannot change without calling something else
        return;
    }
    let reading = if form == Form::Latin1 {
        Reading::Latin1
    } else {
        Reading::Utf8
    };
    let Some(bytes) = reading.bytes(&new) else {
        return;
    };
    if bytes.is_ascii() && !bytes.iter().any(u8::is_ascii_control) {
        return;
    }
    *slot = Value::String(new);
    case.headers[k].1 = bytes;
}

/// `text` with characters ISO-8859-1 cannot carry dropped and one it can added if none.
fn latin1_text(text: &str) -> String {
    let mut s: String = text.chars().filter(|c| u32::from(*c) <= 0xff).collect();
    if s.is_ascii() {
        s.push('\u{e9}');
    }
    s
}

/// The body string the header mirrors: `params.name` / `params.uri` for `Mcp-Name`, an
/// argument (top level or one object down) whose value is `text` for `Mcp-Param-*`.
fn body_slot<'b>(name: &[u8], text: &str, body: &'b mut Value) -> Option<&'b mut Value> {
    let params = body.get_mut("params")?;
    if is_name_header(name) {
        let key = if params.get("uri").is_some() {
            "uri"
        } else {
            "name"
        };
        return params.get_mut(key).filter(|v| v.as_str() == Some(text));
    }
    let args = params.get_mut("arguments")?.as_object_mut()?;
    let mut path: Option<(String, Option<String>)> = None;
    for (k, v) in args.iter() {
        if v.as_str() == Some(text) {
            path = Some((k.clone(), None));
            break;
        }
        if let Some(inner) = v.as_object() {
            if let Some((ik, _)) = inner.iter().find(|(_, iv)| iv.as_str() == Some(text)) {
                path = Some((k.clone(), Some(ik.clone())));
                break;
            }
        }
    }
    let (outer, inner) = path?;
    let slot = args.get_mut(&outer)?;
    match inner {
        None => Some(slot),
        Some(i) => slot.get_mut(&i),
    }
}
