//! `Message`: the text of a canonical JSON-RPC error, kept as fixed pieces around the values
//! the case named, and written out only when an answer is rendered (the reference server's
//! answer; most Verdicts are never rendered).

use crate::inline_text::InlineText;
use serde::{Serialize, Serializer};
use smallvec::SmallVec;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    Fixed(&'static str),
    /// `pieces[0]`, `values[0]`, `pieces[1]`, ... `pieces[n]` (one piece more than values).
    Parts {
        pieces: &'static [&'static str],
        values: SmallVec<[InlineText; 3]>,
    },
}

impl Message {
    /// `pieces` around the `Display` texts of `values` (one value fewer than pieces).
    pub fn parts(pieces: &'static [&'static str], values: &[&dyn fmt::Display]) -> Message {
        Message::Parts {
            pieces,
            values: values.iter().map(|v| InlineText::display(*v)).collect(),
        }
    }

    /// `parts` of values that are text already: copied as they are, without the formatting
    /// machinery `Display` goes through (a header mismatch builds one for nearly every
    /// Verdict that has one, and that machinery was most of its cost).
    pub fn texts(pieces: &'static [&'static str], values: &[&str]) -> Message {
        Message::Parts {
            pieces,
            values: values.iter().map(|v| InlineText::new(v)).collect(),
        }
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Fixed(text) => f.write_str(text),
            Message::Parts { pieces, values } => {
                for (i, piece) in pieces.iter().enumerate() {
                    f.write_str(piece)?;
                    if let Some(v) = values.get(i) {
                        f.write_str(v)?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// As the text it stands for.
impl Serialize for Message {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_read_as_the_formatted_text() {
        let long = "x".repeat(40);
        let m = Message::parts(&["a '", "' b ", ""], &[&"v\u{e9}", &long]);
        assert_eq!(m.to_string(), format!("a 'v\u{e9}' b {long}"));
        assert_eq!(Message::Fixed("Parse error").to_string(), "Parse error");
        let t = Message::texts(&["a '", "' b ", ""], &["v\u{e9}", &long]);
        assert_eq!(t, m, "text values read as their Display texts");
    }
}
