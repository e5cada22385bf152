//! The keys the judge reads, recognised off the body text by the scanner (`scan`): which
//! object a value is to the judge (`Role`) and which of its members a key names (`Slot`),
//! told from the key's bytes without scanning the string first.

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

/// What a member is to the judge: where its value is noted, if anywhere.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
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
    Version,
    Capabilities,
    ClientInfo,
    LogLevel,
    InfoName,
    InfoVersion,
}

/// Whether the key whose opening quote is at `j` is `key` (given with its closing quote:
/// a key the judge reads holds no quote, backslash or control byte, so matching it and
/// the quote after it is reading the whole string).
#[inline(always)]
fn is_key(b: &[u8], j: usize, key: &[u8]) -> bool {
    b.get(j + 1..j + 1 + key.len()) == Some(key)
}

/// The `_meta` keys the judge reads share this prefix.
const META_PREFIX: &[u8] = b"io.modelcontextprotocol/";

/// The slot of the key at `j` (its opening quote) of an object in `role`, when it is one
/// the judge reads, and the index after the key; `None` for any other key. Read off the
/// text without scanning the string first: the first byte picks the one candidate.
#[inline(always)]
pub(super) fn known_key(role: Role, b: &[u8], j: usize) -> Option<(Slot, usize)> {
    // (each `is_key` has a literal: compared with loads, no call)
    let (slot, len) = match (role, *b.get(j + 1)?) {
        (Role::Top, b'i') if is_key(b, j, b"id\"") => (Slot::Id, 2),
        (Role::Top, b'j') if is_key(b, j, b"jsonrpc\"") => (Slot::Jsonrpc, 7),
        (Role::Top, b'm') if is_key(b, j, b"method\"") => (Slot::Method, 6),
        (Role::Top, b'p') if is_key(b, j, b"params\"") => (Slot::Params, 6),
        (Role::Top, b'r') if is_key(b, j, b"result\"") => (Slot::Response, 6),
        (Role::Top, b'e') if is_key(b, j, b"error\"") => (Slot::Response, 5),
        // a member JSON-RPC 2.0 does not list is valid (schema.json JSONRPCRequest
        // has no `additionalProperties: false`; DEVIATIONS.md D-48)
        (Role::Params, b'n') if is_key(b, j, b"name\"") => (Slot::Name, 4),
        (Role::Params, b'u') if is_key(b, j, b"uri\"") => (Slot::Uri, 3),
        (Role::Params, b'_') if is_key(b, j, b"_meta\"") => (Slot::Meta, 5),
        (Role::Params, b'a') if is_key(b, j, b"arguments\"") => (Slot::Arguments, 9),
        (Role::Params, b'c') if is_key(b, j, b"cursor\"") => (Slot::Cursor, 6),
        (Role::Meta, b'i') => return meta_key(b, j),
        (Role::ClientInfo, b'n') if is_key(b, j, b"name\"") => (Slot::InfoName, 4),
        (Role::ClientInfo, b'v') if is_key(b, j, b"version\"") => (Slot::InfoVersion, 7),
        _ => return None,
    };
    // past both quotes
    Some((slot, j + len + 2))
}

/// `known_key` in `_meta`: the byte after the common prefix picks the candidate.
#[inline(never)]
fn meta_key(b: &[u8], j: usize) -> Option<(Slot, usize)> {
    let rest = j + 1 + META_PREFIX.len();
    let (slot, key): (Slot, &[u8]) = match *b.get(rest)? {
        b'p' => (Slot::Version, b"protocolVersion\""),
        b'l' => (Slot::LogLevel, b"logLevel\""),
        // `client` then `C` or `I`
        b'c' if b.get(rest + 6) == Some(&b'C') => (Slot::Capabilities, b"clientCapabilities\""),
        b'c' => (Slot::ClientInfo, b"clientInfo\""),
        _ => return None,
    };
    let whole = is_key(b, j, META_PREFIX) && b.get(rest..rest + key.len()) == Some(key);
    whole.then_some((slot, rest + key.len()))
}
