//! Reproducers: a shell command that sends exactly one case, for reports and bug filings.
//!
//! `curl` reads best, but curl rewrites what it cannot represent (it merges or drops some
//! fields, rejects control bytes, adds its own `User-Agent`, `Accept` and `Content-Type`), so
//! it is used only when the case survives it: the command then suppresses curl's own fields
//! (`-H 'Accept:'` ...) and sends the same fields, possibly in another order, which no
//! header-order-blind server can tell apart. Every other case gets a bash command that writes
//! the exact bytes of `encode_request` to `/dev/tcp/HOST/PORT` with a `printf` whose format
//! uses only the escapes POSIX `printf` defines (`\r`, `\n`, `\\`, `%%`, `\NNN` octal), so the
//! same `printf` also works piped into `nc` from dash.
//!
//! `https://` targets: curl gets `--cacert FILE` or `-k` as the run was configured
//! (`TlsOptions`), and the exact bytes go through `openssl s_client` instead of `/dev/tcp`,
//! with the same `printf` on its standard input and the same trust (`-CAfile`, or no
//! verification for `--insecure`).
//!
//! Secrets: a case may carry placeholders (`{{MCPDIFF_TOKEN}}`, see `Credentials`), and
//! [`reproducer_with`] adds the run's `--header` fields as placeholders; both become shell
//! expansions of environment variables (`"${MCPDIFF_AUTHORIZATION}"`), never values.

use super::credentials::Credentials;
use super::endpoint::Endpoint;
use super::tls::TlsOptions;
use super::wire::encode_request;
use mcpdiff_oracle::auth::{AUTHORIZATION_ENV, TOKEN_ENV};
use mcpdiff_oracle::Case;

/// The best shell reproducer for `case`: `curl` when it sends the same request, else
/// `printf | nc` (`printf | openssl s_client` for `https://`) with the exact bytes. An
/// `https://` endpoint is verified against the default roots; see [`reproducer_tls`].
pub fn reproducer(case: &Case, endpoint: &Endpoint) -> String {
    curl_or_raw(case, endpoint, &TlsOptions::default())
}

fn curl_or_raw(case: &Case, endpoint: &Endpoint, tls: &TlsOptions) -> String {
    match curl_args(case, endpoint, tls) {
        Some(cmd) => cmd,
        None if endpoint.is_tls() => s_client_command(case, endpoint, tls),
        None => nc_command(case, endpoint),
    }
}

/// The exact bytes inside TLS: `printf '<bytes>' | timeout 5 openssl s_client -quiet
/// -connect HOST:PORT [-servername HOST] ...`. `-quiet` keeps the connection open after the
/// input ends (it implies `-ign_eof`) so the answer is printed; `timeout 5` ends a kept-alive
/// one. Verification as the run's: `-CAfile FILE` for `--cacert`, none for `--insecure`,
/// else openssl's default roots; a failed verification ends the command
/// (`-verify_return_error`) as it ended the run's handshake.
pub fn s_client_command(case: &Case, endpoint: &Endpoint, tls: &TlsOptions) -> String {
    format!(
        "{} | {}",
        printf_command(&encode_request(case, endpoint)),
        s_client_reader(endpoint, tls)
    )
}

/// `timeout 5 openssl s_client ...` of [`s_client_command`]: what reads the bytes to send
/// from its standard input.
pub(super) fn s_client_reader(endpoint: &Endpoint, tls: &TlsOptions) -> String {
    let ip = endpoint.host.parse::<std::net::IpAddr>().is_ok();
    let mut cmd = format!(
        "timeout 5 openssl s_client -quiet -connect {}",
        single_quote(&endpoint.authority_with_port())
    );
    // SNI is the host name; an IP literal is sent without one, as the run's client does.
    if !ip {
        cmd += &format!(" -servername {}", single_quote(&endpoint.host));
    }
    if !tls.insecure {
        if let Some(ca) = &tls.cacert {
            cmd += &format!(" -CAfile {}", single_quote(&ca.to_string_lossy()));
        }
        let check = if ip { "-verify_ip" } else { "-verify_hostname" };
        cmd += &format!(
            " -verify_return_error {check} {}",
            single_quote(&endpoint.host)
        );
    }
    cmd
}

/// [`reproducer`] of `case` as the transport sends it in a run with `creds`: each configured
/// field the case lacks is added, its value read from the environment variable named after it.
pub fn reproducer_with(case: &Case, endpoint: &Endpoint, creds: &Credentials) -> String {
    reproducer_tls(case, endpoint, creds, &TlsOptions::default())
}

/// [`reproducer_with`] for a run configured with `tls` (`--cacert`, `--insecure`; it matters
/// only for `https://`).
pub fn reproducer_tls(
    case: &Case,
    endpoint: &Endpoint,
    creds: &Credentials,
    tls: &TlsOptions,
) -> String {
    curl_or_raw(&as_sent(case, creds), endpoint, tls)
}

/// `case` as the transport sends it in a run with `creds`: each configured field the case
/// lacks added as a placeholder.
pub(super) fn as_sent(case: &Case, creds: &Credentials) -> Case {
    let mut shown = case.clone();
    let extra: Vec<(Vec<u8>, Vec<u8>)> = creds
        .missing_placeholders(|n| has_field(case, n))
        .map(|(n, p)| (n.as_bytes().to_vec(), p.into_bytes()))
        .collect();
    shown.headers.extend(extra);
    shown
}

/// The next placeholder in `s` at or after `from`: (start, end, shell expansion).
fn next_placeholder(s: &[u8], from: usize) -> Option<(usize, usize, String)> {
    let mut i = from;
    while i + 12 <= s.len() {
        if s[i..].starts_with(b"{{MCPDIFF_") {
            let close = s[i..].windows(2).position(|w| w == b"}}")? + i;
            let name = std::str::from_utf8(&s[i + 2..close]).ok()?;
            if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                let expansion = if name == TOKEN_ENV {
                    // the token alone: the configured value without its scheme
                    format!("${{{AUTHORIZATION_ENV}#* }}")
                } else {
                    format!("${{{name}}}")
                };
                return Some((i, close + 2, expansion));
            }
        }
        i += 1;
    }
    None
}

/// One shell word for `s`: single-quoted, with placeholders as double-quoted expansions.
fn shell_word(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut at = 0;
    while let Some((start, end, exp)) = next_placeholder(b, at) {
        if start > at {
            out.push_str(&single_quote(&s[at..start]));
        }
        out.push_str(&format!("\"{exp}\""));
        at = end;
    }
    if at < b.len() || out.is_empty() {
        out.push_str(&single_quote(&s[at..]));
    }
    out
}

/// The exact bytes over bash's `/dev/tcp`, then the answer, for 5 s at most:
/// `(printf '<bytes>' >&3; timeout 5 cat <&3) 3<>/dev/tcp/HOST/PORT`. bash alone suffices
/// (many machines have no `nc`); `printf '<bytes>' | nc HOST PORT` sends the same bytes.
pub fn nc_command(case: &Case, endpoint: &Endpoint) -> String {
    format!(
        "({} >&3; timeout 5 cat <&3) 3<>/dev/tcp/{}/{}",
        printf_command(&encode_request(case, endpoint)),
        endpoint.host,
        endpoint.port
    )
}

/// A `printf` command whose output is exactly `bytes` (placeholders become `%s` arguments
/// that expand environment variables).
pub fn printf_command(bytes: &[u8]) -> String {
    let mut out = String::from("printf '");
    let mut args = String::new();
    let mut skip_to = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if i < skip_to {
            continue;
        }
        if b == b'{' {
            if let Some((_, end, exp)) = next_placeholder(bytes, i).filter(|p| p.0 == i) {
                out.push_str("%s");
                args.push_str(&format!(" \"{exp}\""));
                skip_to = end;
                continue;
            }
        }
        match b {
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            b'\\' => out.push_str("\\\\"),
            b'%' => out.push_str("%%"),
            // A format starting with `-` would be read as an option by some printf builtins.
            b'-' if i == 0 => out.push_str("\\055"),
            // `'` cannot appear inside single quotes: use its octal escape.
            0x20..=0x7e if b != b'\'' => out.push(char::from(b)),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('\'');
    out.push_str(&args);
    out
}

/// A `curl` command sending `case`, or `None` when curl would change the request.
pub fn curl_command(case: &Case, endpoint: &Endpoint) -> Option<String> {
    curl_args(case, endpoint, &TlsOptions::default())
}

fn curl_args(case: &Case, endpoint: &Endpoint, tls: &TlsOptions) -> Option<String> {
    let (prefix, args) = curl_operation(case, endpoint, tls)?;
    Some(format!("{prefix}curl {}", args.join(" ")))
}

/// The pieces of a `curl` command sending `case`, or `None` when curl would change the
/// request: what must come before `curl` (a `printf ... | ` feeding a body curl reads from
/// its standard input, else empty) and the operation's arguments after `curl`, every one
/// local to the operation (so `--next` can follow them with another operation).
pub(super) fn curl_operation(
    case: &Case,
    endpoint: &Endpoint,
    tls: &TlsOptions,
) -> Option<(String, Vec<String>)> {
    if !curl_can_send(case) {
        return None;
    }
    let mut args: Vec<String> = vec![
        "-sS".into(),
        "-i".into(),
        // Send the path as is (no `/../` squashing) and take `[]{}` literally.
        "--path-as-is".into(),
        "-g".into(),
    ];
    if endpoint.is_tls() {
        // HTTP/1.1 as the run spoke it (curl would offer h2 over TLS).
        args.push("--http1.1".into());
        if tls.insecure {
            args.push("-k".into());
        } else if let Some(ca) = &tls.cacert {
            args.push("--cacert".into());
            args.push(single_quote(&ca.to_string_lossy()));
        }
    }
    args.push("-X".into());
    args.push(case.method.clone());
    args.push(shell_word(&endpoint.url_for(&case.path)));
    for (name, value) in &case.headers {
        // Both are printable ASCII here (checked above), so the conversion is exact.
        let name = String::from_utf8_lossy(name);
        let value = String::from_utf8_lossy(value);
        // `Name:` would make curl drop the field; `Name;` sends it empty.
        let field = if value.is_empty() {
            format!("{name};")
        } else {
            format!("{name}: {value}")
        };
        args.push("-H".into());
        args.push(shell_word(&field));
    }
    // Fields curl adds by itself that the case does not carry: `Name:` suppresses them.
    for own in ["User-Agent", "Accept", "Content-Type", "Expect"] {
        if !has_field(case, own) {
            args.push("-H".into());
            args.push(single_quote(&format!("{own}:")));
        }
    }
    args.push("--data-binary".into());
    let body = &case.body;
    let mut prefix = String::new();
    if body.is_empty() {
        args.push("''".into());
    } else if body[0] == b'@' || body.contains(&0) {
        // `@...` names a file to curl, and a shell string cannot hold NUL: pipe it instead.
        prefix = format!("{} | ", printf_command(body));
        args.push("@-".into());
    } else if body.iter().all(|b| (0x20..=0x7e).contains(b)) {
        args.push(shell_word(&String::from_utf8_lossy(body)));
    } else {
        args.push(ansi_c_quote(body));
    }
    Some((prefix, args))
}

fn has_field(case: &Case, name: &str) -> bool {
    case.headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Whether curl sends this case as encoded (fields possibly reordered).
fn curl_can_send(case: &Case) -> bool {
    let method = case.method.as_bytes();
    // HEAD makes curl wait for a body it never gets; CONNECT is a tunnel.
    if method.is_empty()
        || !method.iter().all(|&b| is_tchar(b))
        || matches!(case.method.as_str(), "HEAD" | "CONNECT")
    {
        return false;
    }
    let path = case.path.as_bytes();
    if !path.starts_with(b"/")
        || !path
            .iter()
            .all(|&b| (0x21..=0x7e).contains(&b) && b != b'#')
    {
        return false;
    }
    for (i, (name, value)) in case.headers.iter().enumerate() {
        if name.is_empty() || !name.iter().all(|&b| is_tchar(b)) {
            return false;
        }
        // Printable ASCII without edge spaces: curl passes it through untouched.
        let printable = value.iter().all(|&b| (0x20..=0x7e).contains(&b));
        if !printable || value.starts_with(b" ") || value.ends_with(b" ") {
            return false;
        }
        // Any repeated name: curl merges or replaces some (Host, Content-Type, ...), and the
        // exact sequence is the point of such a case.
        if case.headers[..i]
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            return false;
        }
        let is = |n: &str| name.eq_ignore_ascii_case(n.as_bytes());
        // curl chunks the body itself for `Transfer-Encoding: chunked`, and would send the
        // real length next to a wrong one.
        if is("transfer-encoding") {
            return false;
        }
        if is("content-length") && value != case.body.len().to_string().as_bytes() {
            return false;
        }
    }
    true
}

/// `'text'`, with `'` spelled `'\''`.
pub(super) fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `$'...'` (bash, zsh, ksh): printable ASCII kept, everything else as 3-digit octal.
fn ansi_c_quote(bytes: &[u8]) -> String {
    let mut out = String::from("$'");
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\'"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
#[path = "reproducer_tests.rs"]
mod tests;
