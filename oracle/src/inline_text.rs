//! `InlineText`: an immutable string held inline when short (version names, most request
//! ids), so a Verdict that carries one and every copy of it allocate nothing. It reads,
//! compares, prints and serializes exactly as the `String` it stands for.

use serde::{Serialize, Serializer};
use std::fmt;
use std::ops::Deref;

/// The longest text held inline.
const INLINE: usize = 22;

#[derive(Clone)]
pub struct InlineText(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl InlineText {
    pub fn new(s: &str) -> InlineText {
        if s.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            InlineText(Repr::Inline {
                // at most INLINE (22): fits a byte
                len: s.len() as u8,
                bytes,
            })
        } else {
            InlineText(Repr::Heap(s.into()))
        }
    }

    /// `value`'s `Display` text, written on the stack when it fits inline.
    pub fn display(value: &dyn fmt::Display) -> InlineText {
        let mut buf = Buffer {
            bytes: [0; INLINE],
            len: 0,
        };
        if fmt::write(&mut buf, format_args!("{value}")).is_ok() {
            return InlineText(Repr::Inline {
                // at most INLINE (22): fits a byte
                len: buf.len as u8,
                bytes: buf.bytes,
            });
        }
        InlineText(Repr::Heap(value.to_string().into()))
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // the bytes were copied whole from a `&str`, so they are UTF-8; the fallback is
            // never taken
            Repr::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            Repr::Heap(s) => s,
        }
    }
}

/// A text being written inline; full means it does not fit.
struct Buffer {
    bytes: [u8; INLINE],
    len: usize,
}

impl fmt::Write for Buffer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl Default for InlineText {
    fn default() -> Self {
        InlineText::new("")
    }
}

impl Deref for InlineText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for InlineText {
    fn from(s: &str) -> Self {
        InlineText::new(s)
    }
}

impl PartialEq for InlineText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for InlineText {}

impl PartialEq<str> for InlineText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for InlineText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for InlineText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for InlineText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for InlineText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_texts_read_back_and_serialize_as_strings() {
        for s in [
            "",
            "2026-07-29",
            "exactly twenty-two by!",
            &"x".repeat(23),
            "é✓",
        ] {
            let t = InlineText::new(s);
            assert_eq!(t.as_str(), s);
            assert_eq!(t, InlineText::from(s));
            assert_eq!(
                serde_json::to_string(&t).ok(),
                serde_json::to_string(s).ok()
            );
            assert_eq!(format!("{t:?}"), format!("{s:?}"));
            assert_eq!(InlineText::display(&s), t);
        }
    }
}
