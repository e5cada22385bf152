//! The keys the judge reads, recognised off the body text by the scanner (`scan`): which
//! object a value is to the judge (`Role`) and which of its members a key names (`Slot`),
//! told from the key's bytes eight at a time (a word compared with constants), without
//! scanning the string first.

/// Which object a validated value is, as far as the judge reads members.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Top,
    Params,
    Meta,
    ClientInfo,
    Arguments,
    Other,
}

/// What a member is to the judge: where its value is noted, if anywhere. The slots of an
/// object's members follow the object's own slot, to the end (`scan` forgets them all when
/// the object is replaced): `params`' from `Name`, `_meta`'s from `Version`, `clientInfo`'s
/// from `InfoName`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Unread,
    Id,
    Jsonrpc,
    Method,
    Params,
    Response,
    Name,
    Uri,
    Meta,
    Arguments,
    Cursor,
    InputResponses,
    Version,
    Capabilities,
    ClientInfo,
    LogLevel,
    ProgressToken,
    InfoName,
    InfoVersion,
}

/// A key's text (with its closing quote: a key the judge reads holds no quote, backslash
/// or control byte, so matching it and the quote after it is reading the whole string) as
/// little-endian words: the first eight bytes, the next eight, and so on.
struct Key<const W: usize> {
    words: [u64; W],
    /// The bytes of the last word that belong to the key.
    last_mask: u64,
    len: usize,
}

impl<const W: usize> Key<W> {
    const fn new(text: &[u8]) -> Key<W> {
        assert!(text.len() > 8 * (W - 1) && text.len() <= 8 * W);
        let mut words = [0u64; W];
        let mut n = 0;
        while n < text.len() {
            words[n / 8] |= (text[n] as u64) << (8 * (n % 8));
            n += 1;
        }
        let tail = text.len() - 8 * (W - 1);
        let last_mask = if tail == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * tail)) - 1
        };
        Key {
            words,
            last_mask,
            len: text.len(),
        }
    }

    /// Whether `window`, from word `first` on, starts with this key.
    #[inline(always)]
    fn is_in<const N: usize>(&self, window: &[u8; N], first: usize) -> bool {
        let mut n = 0;
        while n + 1 < W {
            if word(window, first + n) != self.words[n] {
                return false;
            }
            n += 1;
        }
        word(window, first + n) & self.last_mask == self.words[n]
    }
}

/// Word `n` (little-endian) of `window`.
#[inline(always)]
fn word<const N: usize>(window: &[u8; N], n: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&window[8 * n..8 * n + 8]);
    u64::from_le_bytes(w)
}

/// `N` bytes of `b` from `at`, zero past the end (no key byte is zero, so a key never
/// matches into the padding).
#[inline(always)]
fn window<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    // (one bounds check: the range's; its length is then known to be `N`)
    match b.get(at..at + N).and_then(|w| <&[u8; N]>::try_from(w).ok()) {
        Some(w) => *w,
        None => padded(b, at),
    }
}

/// `window` within the last `N` bytes of the body.
#[cold]
#[inline(never)]
fn padded<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut w = [0u8; N];
    if let Some(rest) = b.get(at..) {
        for (to, from) in w.iter_mut().zip(rest) {
            *to = *from;
        }
    }
    w
}

const JSONRPC: Key<1> = Key::new(b"jsonrpc\"");
const ID: Key<1> = Key::new(b"id\"");
const METHOD: Key<1> = Key::new(b"method\"");
const PARAMS: Key<1> = Key::new(b"params\"");
const RESULT: Key<1> = Key::new(b"result\"");
const ERROR: Key<1> = Key::new(b"error\"");
const NAME: Key<1> = Key::new(b"name\"");
const URI: Key<1> = Key::new(b"uri\"");
const META: Key<1> = Key::new(b"_meta\"");
const ARGUMENTS: Key<2> = Key::new(b"arguments\"");
const CURSOR: Key<1> = Key::new(b"cursor\"");
const INPUT_RESPONSES: Key<2> = Key::new(b"inputResponses\"");
const VERSION: Key<1> = Key::new(b"version\"");
/// The `_meta` keys the judge reads share this prefix.
const META_PREFIX: Key<3> = Key::new(b"io.modelcontextprotocol/");
const PROTOCOL_VERSION: Key<2> = Key::new(b"protocolVersion\"");
const CLIENT_CAPABILITIES: Key<3> = Key::new(b"clientCapabilities\"");
const CLIENT_INFO: Key<2> = Key::new(b"clientInfo\"");
const LOG_LEVEL: Key<2> = Key::new(b"logLevel\"");
/// The one `_meta` key the judge reads outside the `io.modelcontextprotocol/` prefix.
const PROGRESS_TOKEN: Key<2> = Key::new(b"progressToken\"");

/// The slot of the key at `j` (its opening quote) of an object in `role`, when it is one
/// the judge reads, and the index after the key; `None` for any other key. Each role's keys
/// are tried in the order requests usually spell them.
#[inline(always)]
pub(super) fn known_key(role: Role, b: &[u8], j: usize) -> Option<(Slot, usize)> {
    let k = j + 1;
    let (slot, len) = if role == Role::Meta {
        meta_key(b, k)?
    } else if role == Role::Params {
        params_key(b, k)?
    } else if role == Role::Top {
        top_key(b, k)?
    } else if role == Role::ClientInfo {
        let w = window::<8>(b, k);
        if NAME.is_in(&w, 0) {
            (Slot::InfoName, NAME.len)
        } else if VERSION.is_in(&w, 0) {
            (Slot::InfoVersion, VERSION.len)
        } else {
            return None;
        }
    } else {
        return None;
    };
    Some((slot, k + len))
}

/// `known_key` in the top-level object, for the key text at `k`: the slot and the key's
/// length with its closing quote.
fn top_key(b: &[u8], k: usize) -> Option<(Slot, usize)> {
    // a member JSON-RPC 2.0 does not list is valid (schema.json JSONRPCRequest has no
    // `additionalProperties: false`; DEVIATIONS.md D-48)
    let w = window::<8>(b, k);
    let (slot, key) = if JSONRPC.is_in(&w, 0) {
        (Slot::Jsonrpc, &JSONRPC)
    } else if ID.is_in(&w, 0) {
        (Slot::Id, &ID)
    } else if METHOD.is_in(&w, 0) {
        (Slot::Method, &METHOD)
    } else if PARAMS.is_in(&w, 0) {
        (Slot::Params, &PARAMS)
    } else if RESULT.is_in(&w, 0) {
        (Slot::Response, &RESULT)
    } else if ERROR.is_in(&w, 0) {
        (Slot::Response, &ERROR)
    } else {
        return None;
    };
    Some((slot, key.len))
}

/// `known_key` in `params`, as `top_key`.
fn params_key(b: &[u8], k: usize) -> Option<(Slot, usize)> {
    let w = window::<16>(b, k);
    let (slot, len) = if NAME.is_in(&w, 0) {
        (Slot::Name, NAME.len)
    } else if META.is_in(&w, 0) {
        (Slot::Meta, META.len)
    } else if ARGUMENTS.is_in(&w, 0) {
        (Slot::Arguments, ARGUMENTS.len)
    } else if URI.is_in(&w, 0) {
        (Slot::Uri, URI.len)
    } else if CURSOR.is_in(&w, 0) {
        (Slot::Cursor, CURSOR.len)
    } else if INPUT_RESPONSES.is_in(&w, 0) {
        (Slot::InputResponses, INPUT_RESPONSES.len)
    } else {
        return None;
    };
    Some((slot, len))
}

/// `known_key` in `_meta`, as `top_key`: the common prefix (three words), then the rest.
fn meta_key(b: &[u8], k: usize) -> Option<(Slot, usize)> {
    let w = window::<48>(b, k);
    if !META_PREFIX.is_in(&w, 0) {
        return PROGRESS_TOKEN
            .is_in(&w, 0)
            .then_some((Slot::ProgressToken, PROGRESS_TOKEN.len));
    }
    let (slot, len) = if PROTOCOL_VERSION.is_in(&w, 3) {
        (Slot::Version, PROTOCOL_VERSION.len)
    } else if CLIENT_CAPABILITIES.is_in(&w, 3) {
        (Slot::Capabilities, CLIENT_CAPABILITIES.len)
    } else if CLIENT_INFO.is_in(&w, 3) {
        (Slot::ClientInfo, CLIENT_INFO.len)
    } else if LOG_LEVEL.is_in(&w, 3) {
        (Slot::LogLevel, LOG_LEVEL.len)
    } else {
        return None;
    };
    Some((slot, META_PREFIX.len + len))
}
