//! The members of a `tools/call`'s `arguments` object as the scanner notes them in its one
//! pass over the body (`scan`), and the lookup of a parameter's first key among them, so the
//! judge does not walk the arguments text again.

use super::validated::{self, Val};
use crate::encoding::field_words::same_bytes;

/// Members noted in place (small, since the view carries them); an object with more is
/// searched in its text.
const ARG_SLOTS: usize = 6;

/// The members of a validated `arguments` object, in order.
#[derive(Clone, Copy, Debug, Default)]
pub struct ArgMembers {
    /// Per member, offsets into the arguments text: key start and end (inside the quotes),
    /// value start and end.
    at: [[u16; 4]; ARG_SLOTS],
    /// Bit `n` set: member `n`'s value is a string holding escapes.
    escaped: u8,
    len: u8,
    /// More members than slots, or offsets beyond `u16`: `get` searches the text.
    overflow: bool,
}

impl ArgMembers {
    /// Note the next member: its key's and its value's ranges in the arguments text.
    pub(crate) fn push(&mut self, key: (usize, usize), value: (usize, usize), escaped: bool) {
        let n = usize::from(self.len);
        // (the value ends last: when its end fits, every offset does)
        match (n < ARG_SLOTS, u16::try_from(value.1)) {
            (true, Ok(end)) => {
                let at = |i: usize| i as u16;
                self.at[n] = [at(key.0), at(key.1), at(value.0), end];
                self.escaped |= u8::from(escaped) << n;
                self.len += 1;
            }
            _ => self.overflow = true,
        }
    }

    /// No member noted: every reader searches the text (for tests of the text walks).
    #[cfg(test)]
    pub(crate) fn overflowed() -> ArgMembers {
        ArgMembers {
            overflow: true,
            ..ArgMembers::default()
        }
    }

    /// Every member of `text` (the arguments these members were noted in), in order, as
    /// (key as written, value text); `None` when the scanner could not note them all. (The
    /// offsets were taken in this text, so every range is in it, on ASCII bytes.)
    pub(crate) fn all<'a>(
        &'a self,
        text: &'a str,
    ) -> Option<impl Iterator<Item = (&'a str, &'a str)>> {
        if self.overflow {
            return None;
        }
        let noted = self.at.get(..usize::from(self.len)).unwrap_or_default();
        Some(noted.iter().filter_map(move |at| {
            let range = |a: u16, b: u16| text.get(usize::from(a)..usize::from(b));
            Some((range(at[0], at[1])?, range(at[2], at[3])?))
        }))
    }

    /// The last member named `key` of `text` (the arguments these members were noted in),
    /// like `Value::get`.
    pub(crate) fn get<'a>(&self, text: &'a str, key: &str) -> Option<Val<'a>> {
        if self.overflow {
            return validated::get(text, key).map(Val::read);
        }
        let b = text.as_bytes();
        let noted = self.at.get(..usize::from(self.len))?;
        let (n, at) = noted.iter().enumerate().rev().find(|(_, at)| {
            b.get(usize::from(at[0])..usize::from(at[1]))
                .is_some_and(|k| same_bytes(k, key.as_bytes()))
        })?;
        Some(Val {
            text: text.get(usize::from(at[2])..usize::from(at[3]))?,
            escaped: self.escaped & (1 << n) != 0,
        })
    }
}
